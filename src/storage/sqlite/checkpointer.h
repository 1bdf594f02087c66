// WAL checkpoints off the writer's path. SQLite's automatic checkpoint runs inside the COMMIT that pushes
// the WAL past 1000 pages, so the writer (the one thread a crawl's saves go through) would copy pages into
// the database file and fsync it while every other thread waits for it. The WAL page lists that
// https://sqlite.org/wal.html#automatic_checkpoint suggests instead: the writer's WAL hook only notes the
// size and wakes this thread, which runs PASSIVE checkpoints (they never block readers or the writer) on
// its own connection. Whatever is left is checkpointed when the last connection closes, as before.
// Internal to the SQLite backend.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>

#include "storage/sqlite/handles.h"

namespace longread::storage::sqlite {

class BackgroundCheckpointer {
 public:
  static constexpr int kPages = 1000;  // SQLite's own automatic-checkpoint threshold

  BackgroundCheckpointer(std::unique_ptr<Connection> connection, sqlite3* writer);
  ~BackgroundCheckpointer();  // jthread joins
  BackgroundCheckpointer(const BackgroundCheckpointer&) = delete;
  BackgroundCheckpointer& operator=(const BackgroundCheckpointer&) = delete;

 private:
  // Called by SQLite on the writer's thread after each commit, with the WAL's size in pages.
  static int on_commit(void* self, sqlite3* db, const char* schema, int pages);
  void run(std::stop_token stop);

  std::unique_ptr<Connection> connection_;  // used only by thread_
  sqlite3* writer_;
  std::mutex mutex_;
  std::condition_variable_any wake_;
  bool due_ = false;  // guarded by mutex_
  std::jthread thread_;
};

}  // namespace longread::storage::sqlite
