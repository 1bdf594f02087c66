#include "storage/sqlite/checkpointer.h"

#include <algorithm>

#include <sqlite3.h>

namespace longread::storage::sqlite {

BackgroundCheckpointer::BackgroundCheckpointer(std::unique_ptr<Connection> connection, sqlite3* writer,
                                               int restart_pages)
    : connection_(std::move(connection)),
      writer_(writer),
      restart_pages_(std::max(1, restart_pages)),
      restart_at_(restart_pages_) {
  // Replaces the automatic checkpoint (sqlite3_wal_autocheckpoint installs the same hook).
  sqlite3_wal_hook(writer_, &BackgroundCheckpointer::on_commit, this);
  thread_ = std::jthread([this](std::stop_token stop) { run(std::move(stop)); });
}

BackgroundCheckpointer::~BackgroundCheckpointer() {
  sqlite3_wal_hook(writer_, nullptr, nullptr);  // the writer outlives this object (member order)
  thread_.request_stop();
  wake_.notify_all();
}

int BackgroundCheckpointer::on_commit(void* self, sqlite3* /*db*/, const char* /*schema*/, int pages) {
  auto* checkpointer = static_cast<BackgroundCheckpointer*>(self);
  checkpointer->wal_pages_.store(pages, std::memory_order_relaxed);
  if (pages < kPages) return SQLITE_OK;
  {
    std::lock_guard lock(checkpointer->mutex_);
    checkpointer->due_ = true;
  }
  checkpointer->wake_.notify_one();
  return SQLITE_OK;
}

bool BackgroundCheckpointer::restart_if_grown(Connection& writer) {
  const int pages = wal_pages_.load(std::memory_order_relaxed);
  if (pages < restart_at_) {
    // Started over since the last attempt (by this, or by SQLite at a quiet moment): due again at the size.
    if (pages < restart_at_ - restart_pages_) restart_at_ = restart_pages_;
    return false;
  }
  int rc = SQLITE_BUSY;
  {
    // A checkpoint of another connection makes this one fail at once, without waiting (SQLite takes the
    // checkpoint lock without its busy handler): this thread's PASSIVE one finishes first.
    std::lock_guard checkpointing(checkpoint_mutex_);
    sqlite3_busy_timeout(writer.raw(), kRestartWaitMs);
    rc = sqlite3_wal_checkpoint_v2(writer.raw(), nullptr, SQLITE_CHECKPOINT_RESTART, nullptr, nullptr);
    sqlite3_busy_timeout(writer.raw(), Connection::kBusyTimeoutMs);
  }
  // Done, the next commit reports a small WAL; not done (SQLITE_BUSY), tried again once it has grown as much
  // again.
  restart_at_ = rc == SQLITE_OK ? restart_pages_ : pages + restart_pages_;
  // The next commit, the first frames of the WAL started over, reports its size again; a transaction that
  // writes nothing before then does not ask for another restart.
  if (rc == SQLITE_OK) wal_pages_.store(0, std::memory_order_relaxed);
  return rc == SQLITE_OK;
}

void BackgroundCheckpointer::run(std::stop_token stop) {
  while (true) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, stop, [this] { return due_; });
      if (stop.stop_requested()) return;
      due_ = false;
    }
    // A failure (I/O error) leaves the frames in the WAL; the next commit past kPages retries.
    std::lock_guard checkpointing(checkpoint_mutex_);
    sqlite3_wal_checkpoint_v2(connection_->raw(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
  }
}

}  // namespace longread::storage::sqlite
