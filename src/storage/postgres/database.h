// What every PostgreSQL role implementation shares: the connection pool, the schema's migrations, the
// change counter the page cache keys on, the tokenizer that makes search vectors and queries, and the
// codec of article bodies.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>

#include "core/error.h"
#include "storage/article_body.h"
#include "storage/migrations.h"
#include "storage/postgres/pg.h"
#include "storage/postgres/search_vectors.h"

namespace longread::storage::postgres {

class Database {
 public:
  // Connects `pool_size` connections to `url`, applies the pending migrations of postgres_migrations()
  // and starts listening for changes. Fails with the server's reason, the URL's password hidden.
  static Result<std::unique_ptr<Database>> open(const std::string& url, int pool_size = 8);

  [[nodiscard]] Pool& pool() noexcept { return *pool_; }
  [[nodiscard]] const std::string& url() const noexcept { return url_; }
  [[nodiscard]] const SearchTokenizer& tokenizer() const noexcept { return *tokenizer_; }
  // The words search vectors leave to a bitmap (common_words.h), read when the database opens.
  [[nodiscard]] const CommonWords& common_words() const noexcept { return common_words_; }
  // The zstd contexts and dictionaries that pack and read article bodies (article_bodies.h).
  [[nodiscard]] BodyDictionaries& bodies() noexcept { return bodies_; }

  // A number that moves whenever a transaction that changed what a page shows has committed, in this
  // process or any other (the triggers of migration 0001 notify longread_changes). Cheap: it reads what the
  // listening connection has received, without a round trip.
  Result<std::int64_t> data_version();

 private:
  Database() = default;

  std::string url_;
  std::unique_ptr<Pool> pool_;
  std::unique_ptr<SearchTokenizer> tokenizer_;
  CommonWords common_words_;
  BodyDictionaries bodies_;
  std::mutex listener_mutex_;
  std::optional<Connection> listener_;  // guarded by listener_mutex_
  std::int64_t version_ = 0;            // guarded by listener_mutex_
};

// The database's list of common words (migration 0011), bit N the list's word N, and the key of the other
// words' ids (migration 0015).
Result<CommonWords> read_common_words(Connection& conn);

// Applies to the database `conn` is connected to every migration of `all` it has not applied, in one
// transaction; several processes starting at once are serialised by an advisory lock, and the later ones
// find nothing left to do. A database newer than `all` knows is refused.
Result<void> migrate(Connection& conn, std::span<const Migration> all);

}  // namespace longread::storage::postgres
