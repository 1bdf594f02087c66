-- Named locks shared by every process over the database, each held by one owner until it gives it back
-- or its lease runs out (a process killed while holding one blocks the others only until then).
-- "near-duplicates": the crawler's near-duplicate decision and the save it guards (pipeline/duplicates.h),
-- so that of two copies crawled by two processes at once the earliest stays the original.
CREATE TABLE process_locks (
  name TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  held_until BIGINT NOT NULL
);
