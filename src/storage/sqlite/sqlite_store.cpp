// The SQLite backend of storage::Store: opening the database (WAL, migrations) and what SqliteStore's role
// files share. The roles' SQL and methods are in sqlite/*_store.cpp (sqlite_store.h lists which is where).
#include "storage/sqlite/sqlite_store.h"

#include <sqlite3.h>

#include <cctype>
#include <filesystem>
#include <set>
#include <system_error>

#include <fmt/core.h>

#include "storage/migrations.h"
#include "storage/values.h"

namespace longread::storage {
namespace sqlite {
namespace {

constexpr const char* kEnableWal = "PRAGMA journal_mode = WAL";
// The writer's page cache: 64 MB instead of every connection's 32. A crawl's saves touch the leaves of a
// dozen article indexes and the search index at random places, and past a few hundred thousand articles the
// pages re-read from the file cost the writer, the thread every save waits for (docs/perf.md, "Crawling
// Kagi Small Web"). SQLite allocates the cache as it fills, so a small site never holds it.
constexpr const char* kWriterCache = "PRAGMA cache_size = -65536";

constexpr const char* kCreateSchemaMigrations =
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)";
constexpr const char* kSelectAppliedVersions = "SELECT version FROM schema_migrations";
constexpr const char* kInsertMigration =
    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (:version, :name, :applied_at)";

constexpr const char* kEnsureCategory =
    "INSERT INTO categories (slug, name) VALUES (:slug, :name) ON CONFLICT (slug) DO NOTHING";

// Applies every migration the database has not seen, all in one transaction, recording each version.
Result<void> apply_migrations(Connection& db) {
  constexpr std::string_view kFailed = "cannot apply migrations";
  return in_transaction(db, kFailed, [&]() -> Result<void> {
    if (auto ok = db.exec(kCreateSchemaMigrations); !ok) return db_error(kFailed, ok.error());
    auto versions = read_rows(
        db, kSelectAppliedVersions, kFailed, [](Query&) {}, [](const Query& q) { return q.int64(0); });
    if (!versions) return std::unexpected(versions.error());
    const std::set<std::int64_t> applied(versions->begin(), versions->end());
    const auto known = migrations();
    if (!applied.empty() && !known.empty() && *applied.rbegin() > known.back().version) {
      return fail(ErrorKind::kStorage,
                  fmt::format("store: database schema version {} is newer than this longread knows ({})",
                              *applied.rbegin(), known.back().version));
    }
    for (const Migration& m : known) {
      if (applied.contains(m.version)) continue;
      if (auto ok = db.exec(std::string(m.sql).c_str()); !ok) {
        return db_error(fmt::format("migration {:04}_{} failed", m.version, m.name), ok.error());
      }
      auto ok = run(db, kInsertMigration, kFailed, [&](Query& q) {
        q.bind(":version", static_cast<std::int64_t>(m.version)).bind(":name", m.name);
        q.bind(":applied_at", to_unix(now_seconds()));
      });
      if (!ok) return ok;
    }
    return {};
  });
}

}  // namespace

SqliteStore::SqliteStore(std::unique_ptr<Connection> writer, std::unique_ptr<Connection> checkpointer,
                         std::string path, std::shared_ptr<BodyDictionaries> bodies,
                         std::unique_ptr<ParseMarks> marks, std::unique_ptr<SearchTokenizer> tokenizer)
    : path_(path),
      bodies_(bodies),
      writer_(std::move(writer)),
      checkpointer_(std::move(checkpointer), writer_->raw()),
      readers_(std::move(path), std::move(bodies)),
      marks_(std::move(marks)),
      tokenizer_(std::move(tokenizer)) {}

std::string email_key(std::string_view email) {
  std::string key(email);
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

Result<void> ensure_category(Connection& db, std::string_view slug) {
  auto q = db.query(kEnsureCategory);
  if (!q) return std::unexpected(q.error());
  q->bind(":slug", slug).bind(":name", category_name(slug));
  return q->run();
}

}  // namespace sqlite

Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path) {
  // SQLite creates the file, not its directory ("data/longread.db" on a fresh checkout).
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec) return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path, ec.message()));
  }
  auto writer = sqlite::Connection::open(path, true);
  if (!writer) return std::unexpected(writer.error());
  if (auto ok = (*writer)->exec(sqlite::kWriterCache); !ok) return std::unexpected(ok.error());
  // The first statement that reads the file is where a non-database file is noticed ("file is not a
  // database"), so the message names the path here.
  {
    auto q = (*writer)->query(sqlite::kEnableWal);
    if (!q)
      return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path, q.error().message));
    auto row = q->step();
    if (!row)
      return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path, row.error().message));
    if (!*row || q->text(0) != "wal") {
      return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: WAL mode unavailable", path));
    }
  }
  // Before the migrations: the writer's statements (and migration 0021's triggers) read article bodies.
  auto bodies = std::make_shared<sqlite::BodyDictionaries>();
  if (const std::string error = sqlite::register_body_functions((*writer)->raw(), bodies); !error.empty()) {
    return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path, error));
  }
  if (auto ok = sqlite::apply_migrations(**writer); !ok) {
    return fail(ErrorKind::kStorage, fmt::format("{} ({})", ok.error().message, path));
  }
  auto checkpointer = sqlite::Connection::open(path, false);
  if (!checkpointer) return std::unexpected(checkpointer.error());
  auto marks = sqlite::ParseMarks::open(path);
  if (!marks) return std::unexpected(marks.error());
  auto tokenizer = SearchTokenizer::open();
  if (!tokenizer) return std::unexpected(tokenizer.error());
  return std::unique_ptr<Store>(
      std::make_unique<sqlite::SqliteStore>(std::move(*writer), std::move(*checkpointer), path,
                                            std::move(bodies), std::move(*marks), std::move(*tokenizer)));
}

}  // namespace longread::storage
