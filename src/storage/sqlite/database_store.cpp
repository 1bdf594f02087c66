// The SQLite side of DatabaseStore: the site's totals, the data version, VACUUM and merging the search index.
#include "storage/sqlite/sqlite_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <system_error>

#include <fmt/core.h>

#include "storage/sqlite/query_helpers.h"

namespace longread::storage::sqlite {
namespace {

// Each count reads an index or a small table; visible articles are the per-blog counts the store keeps.
constexpr const char* kSiteStats =
    "SELECT (SELECT COUNT(*) FROM blogs),"
    " (SELECT COUNT(*) FROM blogs WHERE paused = 0 AND quarantined = 0 AND"
    "  (next_due_at IS NULL OR next_due_at <= :now)),"
    " (SELECT COUNT(*) FROM blogs WHERE paused = 1),"
    " (SELECT COUNT(*) FROM blogs WHERE quarantined = 1),"
    " (SELECT COUNT(*) FROM blogs WHERE consecutive_failures > 0),"
    " (SELECT COALESCE(SUM(visible_articles), 0) FROM blogs),"
    " (SELECT COUNT(*) FROM articles WHERE junk = 1),"
    " (SELECT COUNT(*) FROM readers),"
    " (SELECT COUNT(*) FROM subscribers WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL),"
    " (SELECT COUNT(*) FROM mail_outbox),"
    " (SELECT MAX(updated_at) FROM newsletter_deliveries WHERE state = 'sent'),"
    " (SELECT COUNT(*) FROM articles WHERE held = 1)";

constexpr const char* kDataVersion = "PRAGMA data_version";

}  // namespace

Result<SiteStats> SqliteStore::site_stats(TimePoint now) {
  return with_reader([&](Connection& db) {
    return read_one(
        db, kSiteStats, "cannot read the site's totals", [&](Query& q) { q.bind(":now", to_unix(now)); },
        [](const Query& q) {
          SiteStats stats;
          stats.blogs = q.int64(0);
          stats.blogs_due = q.int64(1);
          stats.blogs_paused = q.int64(2);
          stats.blogs_quarantined = q.int64(3);
          stats.blogs_failing = q.int64(4);
          stats.articles_visible = q.int64(5);
          stats.articles_junk = q.int64(6);
          stats.readers = q.int64(7);
          stats.subscribers = q.int64(8);
          stats.outbox_queued = q.int64(9);
          if (const auto sent = q.optional_int64(10)) stats.last_newsletter_sent = from_unix(*sent);
          stats.articles_held = q.int64(11);
          return stats;
        });
  });
}

// PRAGMA data_version on a connection that never writes changes whenever any other connection, of
// this process or another (the CLI's `keep`, a second crawler), commits: a cheap, exact version of
// the data for the site's page cache.
Result<std::int64_t> SqliteStore::data_version() {
  std::lock_guard lock(version_mutex_);
  if (!version_) {
    auto connection = Connection::open(path_, false);
    if (!connection) return std::unexpected(connection.error());
    version_ = std::move(*connection);
  }
  return read_int64(*version_, kDataVersion, "cannot read data version");
}

Result<std::int64_t> SqliteStore::vacuum() {
  return with_writer([&](Connection& db) -> Result<std::int64_t> {
    // VACUUM writes a new copy of the database (https://sqlite.org/lang_vacuum.html), then the WAL
    // checkpoint moves it into the file and TRUNCATE gives the WAL's space back.
    if (auto ok = db.exec("VACUUM"); !ok) return db_error("cannot vacuum", ok.error());
    if (auto ok = db.exec("PRAGMA wal_checkpoint(TRUNCATE)"); !ok)
      return db_error("cannot vacuum", ok.error());
    std::error_code ec;
    const auto size = std::filesystem::file_size(path_, ec);
    if (ec) return fail(ErrorKind::kStorage, fmt::format("store: cannot vacuum: {}", ec.message()));
    return static_cast<std::int64_t>(size);
  });
}

Result<SearchIndexReport> SqliteStore::maintain_search_index(const SearchIndexUpkeep& upkeep) {
  return with_writer([&](Connection& db) -> Result<SearchIndexReport> {
    // FTS5's 'merge' command merges index segments until about that many pages are written, when some
    // level holds 'usermerge' (4) segments or more or a merge is under way; the total number of changes
    // grows by 2 or more when it did any work (https://sqlite.org/fts5.html, "The 'merge' Command").
    const int before = sqlite3_total_changes(db.raw());
    const std::string sql = fmt::format("INSERT INTO articles_fts(articles_fts, rank) VALUES('merge', {})",
                                        std::max(1, upkeep.merge_pages));
    if (auto ok = db.exec(sql.c_str()); !ok) return db_error("cannot merge the search index", ok.error());
    const bool merged = sqlite3_total_changes(db.raw()) - before >= 2;
    return SearchIndexReport{
        .changed = merged,
        .summary = merged ? fmt::format("merged search index segments (up to {} pages)", upkeep.merge_pages)
                          : "search index segments already merged"};
  });
}

}  // namespace longread::storage::sqlite
