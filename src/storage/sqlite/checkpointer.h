// WAL checkpoints off the writer's path. SQLite's automatic checkpoint runs inside the COMMIT that pushes
// the WAL past 1000 pages, so the writer (the one thread a crawl's saves go through) would copy pages into
// the database file and fsync it while every other thread waits for it. The WAL page lists that
// https://sqlite.org/wal.html#automatic_checkpoint suggests instead: the writer's WAL hook only notes the
// size and wakes this thread, which runs PASSIVE checkpoints (they never block readers or the writer) on
// its own connection. Whatever is left is checkpointed when the last connection closes, as before.
//
// A PASSIVE checkpoint copies the WAL's pages into the database but never starts the WAL over: SQLite does
// that when a write transaction begins with every page copied and no reader on the WAL. A crawl's writer
// begins its next group while this thread still copies the last one, so that moment never came, and the WAL
// only grew: 1.4 GB during the first pass over 3,000 blogs, whose database is 365 MB, every frame a new block
// of the file for the kernel to allocate and zero, and kept in the page cache. So the writer, between two
// transactions, asks for a RESTART checkpoint once the WAL holds restart_pages (restart_if_grown): it copies
// what is left and waits for the readers still on the WAL (reads are short), and the next transaction writes
// the WAL from its start again.
// Internal to the SQLite backend.
#pragma once

#include <atomic>
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
  // The WAL's size at which the writer starts it over: 64 MiB of 4 KiB pages.
  static constexpr int kRestartPages = 16384;
  // How long a restart waits for the readers still on the WAL (and for a checkpoint in progress) before it
  // gives up until the WAL has grown by restart_pages more: never long enough to hold up the saves.
  static constexpr int kRestartWaitMs = 1000;

  BackgroundCheckpointer(std::unique_ptr<Connection> connection, sqlite3* writer,
                         int restart_pages = kRestartPages);
  ~BackgroundCheckpointer();  // jthread joins
  BackgroundCheckpointer(const BackgroundCheckpointer&) = delete;
  BackgroundCheckpointer& operator=(const BackgroundCheckpointer&) = delete;

  // Called on the writer's thread with no transaction open on `writer` (the connection given to the
  // constructor): when the WAL holds restart_pages or more since the last attempt, a RESTART checkpoint, so
  // that the next write transaction starts the WAL over. Whether it did (false: not due, or the readers
  // did not leave the WAL in time; the WAL is left as it was, nothing is lost).
  bool restart_if_grown(Connection& writer);

 private:
  // Called by SQLite on the writer's thread after each commit, with the WAL's size in pages.
  static int on_commit(void* self, sqlite3* db, const char* schema, int pages);
  void run(std::stop_token stop);

  std::unique_ptr<Connection> connection_;  // used only by thread_
  sqlite3* writer_;
  std::mutex mutex_;
  std::condition_variable_any wake_;
  bool due_ = false;             // guarded by mutex_
  std::mutex checkpoint_mutex_;  // held by a checkpoint of this object's thread, or by restart_if_grown
  const int restart_pages_;
  std::atomic<int> wal_pages_{0};  // the WAL's size at the writer's last commit
  int restart_at_;                 // used only under the store's writer lock, as restart_if_grown is
  std::jthread thread_;
};

}  // namespace longread::storage::sqlite
