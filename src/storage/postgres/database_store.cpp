#include "storage/postgres/database_store.h"

#include "storage/postgres/recent_search_index.h"
#include "storage/postgres/rows.h"
#include "storage/postgres/statement.h"

namespace longread::storage::postgres {
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

}  // namespace

Result<SiteStats> PgDatabaseStore::site_stats(TimePoint now) {
  auto rows = db_.pool().with([&](Connection& c) {
    Query q(c, kSiteStats);
    q.bind(":now", now);
    return q.run();
  });
  if (!rows) return db_error("cannot read the site's totals", rows.error());
  SiteStats stats;
  stats.blogs = rows->int64(0, 0);
  stats.blogs_due = rows->int64(0, 1);
  stats.blogs_paused = rows->int64(0, 2);
  stats.blogs_quarantined = rows->int64(0, 3);
  stats.blogs_failing = rows->int64(0, 4);
  stats.articles_visible = rows->int64(0, 5);
  stats.articles_junk = rows->int64(0, 6);
  stats.readers = rows->int64(0, 7);
  stats.subscribers = rows->int64(0, 8);
  stats.outbox_queued = rows->int64(0, 9);
  if (const auto sent = rows->optional_int64(0, 10)) stats.last_newsletter_sent = from_unix(*sent);
  stats.articles_held = rows->int64(0, 11);
  return stats;
}

Result<std::int64_t> PgDatabaseStore::data_version() {
  return db_.data_version();
}

Result<std::int64_t> PgDatabaseStore::vacuum() {
  // VACUUM makes the space of dead rows reusable and gives trailing empty pages back; the size is the
  // database's on disk, as SQLite's is its file's.
  auto rows = db_.pool().with([](Connection& c) -> Result<Rows> {
    if (auto ok = c.exec_script("VACUUM"); !ok) return std::unexpected(ok.error());
    return c.exec("SELECT pg_database_size(current_database())");
  });
  if (!rows) return db_error("cannot vacuum", rows.error());
  return rows->int64(0, 0);
}

Result<SearchIndexReport> PgDatabaseStore::maintain_search_index(const SearchIndexUpkeep& upkeep) {
  auto report = db_.pool().with([&](Connection& c) { return maintain_recent_search_index(c, upkeep); });
  if (!report) return db_error("cannot keep the search index", report.error());
  return report;
}

}  // namespace longread::storage::postgres
