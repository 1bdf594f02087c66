// Reader connections for the SQLite backend, handed out one per call and returned to the pool afterwards.
// In WAL mode (https://sqlite.org/wal.html) readers see the last committed state and never wait for the
// writer. Internal to the SQLite backend.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/error.h"
#include "storage/sqlite/article_body.h"
#include "storage/sqlite/handles.h"

namespace longread::storage::sqlite {

class ReaderPool {
 public:
  ReaderPool(std::string path, std::shared_ptr<BodyDictionaries> bodies)
      : path_(std::move(path)), bodies_(std::move(bodies)) {}

  class Lease {
   public:
    Lease(ReaderPool& pool, std::unique_ptr<Connection> connection)
        : pool_(&pool), connection_(std::move(connection)) {}
    ~Lease() {
      if (connection_) pool_->release(std::move(connection_));
    }
    Lease(Lease&& other) noexcept = default;
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Connection& operator*() const noexcept { return *connection_; }
    Connection* operator->() const noexcept { return connection_.get(); }

   private:
    ReaderPool* pool_;
    std::unique_ptr<Connection> connection_;
  };

  // An idle connection, or a new one (query_only, with the search rank and body functions registered).
  Result<Lease> acquire();

 private:
  void release(std::unique_ptr<Connection> connection);

  std::string path_;
  std::shared_ptr<BodyDictionaries> bodies_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Connection>> idle_;
};

}  // namespace longread::storage::sqlite
