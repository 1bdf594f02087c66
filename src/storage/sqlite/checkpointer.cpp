#include "storage/sqlite/checkpointer.h"

#include <sqlite3.h>

namespace longread::storage::sqlite {

BackgroundCheckpointer::BackgroundCheckpointer(std::unique_ptr<Connection> connection, sqlite3* writer)
    : connection_(std::move(connection)), writer_(writer) {
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
  if (pages < kPages) return SQLITE_OK;
  auto* checkpointer = static_cast<BackgroundCheckpointer*>(self);
  {
    std::lock_guard lock(checkpointer->mutex_);
    checkpointer->due_ = true;
  }
  checkpointer->wake_.notify_one();
  return SQLITE_OK;
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
    sqlite3_wal_checkpoint_v2(connection_->raw(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
  }
}

}  // namespace longread::storage::sqlite
