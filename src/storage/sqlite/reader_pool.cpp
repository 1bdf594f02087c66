#include "storage/sqlite/reader_pool.h"

#include <fmt/core.h>

#include "storage/sqlite/search_rank.h"

namespace longread::storage::sqlite {
namespace {

// Idle reader connections kept open; more are opened on demand when many threads read at once.
constexpr std::size_t kMaxIdleReaders = 8;

constexpr const char* kReaderPragmas = "PRAGMA query_only = ON";

}  // namespace

Result<ReaderPool::Lease> ReaderPool::acquire() {
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      auto connection = std::move(idle_.back());
      idle_.pop_back();
      return Lease(*this, std::move(connection));
    }
  }
  auto connection = Connection::open(path_, false);
  if (!connection) return std::unexpected(connection.error());
  if (auto ok = (*connection)->exec(kReaderPragmas); !ok) {
    return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path_, ok.error().message));
  }
  if (const std::string error = register_search_rank((*connection)->raw()); !error.empty()) {
    return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path_, error));
  }
  if (const std::string error = register_body_functions((*connection)->raw(), bodies_); !error.empty()) {
    return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path_, error));
  }
  return Lease(*this, std::move(*connection));
}

void ReaderPool::release(std::unique_ptr<Connection> connection) {
  std::lock_guard lock(mutex_);
  if (idle_.size() < kMaxIdleReaders) idle_.push_back(std::move(connection));
}

}  // namespace longread::storage::sqlite
