#include "storage/postgres/database.h"

#include <fmt/format.h>

namespace longread::storage::postgres {
namespace {

// Any fixed number: the key of the advisory lock that serialises migrations across processes.
constexpr std::int64_t kMigrationLock = 0x6c6f6e6772656164;  // "longread"
constexpr std::string_view kChangesChannel = "longread_changes";

Result<void> migrate_locked(Connection& conn, std::span<const Migration> all) {
  if (auto r = conn.exec("SELECT pg_advisory_xact_lock($1)", Params(kMigrationLock)); !r) {
    return std::unexpected(r.error());
  }
  if (auto r =
          conn.exec_script("CREATE TABLE IF NOT EXISTS schema_migrations ("
                           " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)");
      !r) {
    return r;
  }
  auto applied = conn.exec("SELECT COALESCE(MAX(version), 0) FROM schema_migrations");
  if (!applied) return std::unexpected(applied.error());
  const std::int64_t current = applied->int64(0, 0);
  const int newest = all.empty() ? 0 : all.back().version;
  if (current > newest) {
    return fail(ErrorKind::kStorage,
                fmt::format("store: database schema version {} is newer than this longread knows ({})",
                            current, newest));
  }
  for (const Migration& m : all) {
    if (m.version <= current) continue;
    if (auto r = conn.exec_script(m.sql); !r) {
      return fail(ErrorKind::kStorage,
                  fmt::format("store: migration {:04}_{} failed: {}", m.version, m.name, r.error().message));
    }
    if (auto r = conn.exec("INSERT INTO schema_migrations (version, name, applied_at) "
                           "VALUES ($1, $2, EXTRACT(EPOCH FROM now())::bigint)",
                           Params(m.version, m.name));
        !r) {
      return std::unexpected(r.error());
    }
  }
  return {};
}

}  // namespace

Result<void> migrate(Connection& conn, std::span<const Migration> all) {
  if (auto r = conn.exec_script("BEGIN"); !r) return r;
  auto outcome = migrate_locked(conn, all);
  if (outcome) outcome = conn.exec_script("COMMIT");
  if (!outcome) (void)conn.exec_script("ROLLBACK");
  return outcome;
}

Result<CommonWords> read_common_words(Connection& conn) {
  auto rows = conn.exec("SELECT bit, lexeme, share FROM search_common_words ORDER BY bit");
  if (!rows) return std::unexpected(rows.error());
  std::vector<CommonWords::Word> words;
  for (int r = 0; r < rows->size(); ++r) {
    // A gap would shift every later word's bit against the bitmaps already stored.
    if (rows->int64(r, 0) != r)
      return fail(ErrorKind::kStorage, fmt::format("store: search_common_words: bit {} missing", r));
    words.push_back({.lexeme = std::string(rows->text(r, 1)), .share = rows->real(r, 2)});
  }
  auto key = conn.exec("SELECT key FROM search_word_key");
  if (!key) return std::unexpected(key.error());
  // Another key would give every word another id than the stored articles' (migration 0015 made one).
  if (key->size() != 1 || key->bytes(0, 0).size() != CommonWords::kKeyBytes)
    return fail(ErrorKind::kStorage, "store: search_word_key: not one key of 16 bytes");
  return CommonWords(std::move(words), key->bytes(0, 0));
}

Result<std::unique_ptr<Database>> Database::open(const std::string& url, int pool_size) {
  std::unique_ptr<Database> db(new Database());
  db->url_ = url;
  auto tokenizer = SearchTokenizer::open();
  if (!tokenizer) return std::unexpected(tokenizer.error());
  db->tokenizer_ = std::move(*tokenizer);
  auto listener = Connection::open(url);
  if (!listener) return std::unexpected(listener.error());
  if (auto r = migrate(*listener, postgres_migrations()); !r) return std::unexpected(r.error());
  auto common = read_common_words(*listener);
  if (!common) return std::unexpected(common.error());
  db->common_words_ = std::move(*common);
  if (auto r = listener->listen(kChangesChannel); !r) return std::unexpected(r.error());
  db->listener_.emplace(std::move(*listener));
  auto pool = Pool::open(url, pool_size);
  if (!pool) return std::unexpected(pool.error());
  db->pool_ = std::move(*pool);
  return db;
}

Result<std::int64_t> Database::data_version() {
  std::lock_guard lock(listener_mutex_);
  auto drained = listener_->drain_notifications();
  if (drained && listener_->healthy()) {
    version_ += *drained;
    return version_;
  }
  // The listening connection was lost, so changes may have gone unseen: count one, and listen again.
  ++version_;
  listener_->reset();
  if (auto r = listener_->listen(kChangesChannel); !r) return std::unexpected(r.error());
  return version_;
}

}  // namespace longread::storage::postgres
