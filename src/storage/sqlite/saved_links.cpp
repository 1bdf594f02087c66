#include "storage/sqlite/saved_links.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace longread::storage::sqlite {
namespace {

// The visible article an imported link names: its exact link first, else the same link over the other
// scheme or with the trailing slash toggled (services store what the reader saved; feeds say what the
// blog says). articles_link makes each a few index seeks.
constexpr const char* kArticleByLink =
    "SELECT a.id FROM articles a WHERE a.link IN (:exact, :scheme, :slash, :both) AND a.visible = 1"
    " ORDER BY a.link = :exact DESC, a.id LIMIT 1";
constexpr const char* kSaveImportedArticle =
    "INSERT INTO reading_list (reader_id, article_id, saved_at, read_at)"
    " VALUES (:reader_id, :article_id, :saved_at, :read_at) ON CONFLICT (reader_id, article_id) DO NOTHING";
constexpr const char* kCountLinks = "SELECT COUNT(*) FROM saved_links WHERE reader_id = :reader_id";
constexpr const char* kInsertLink =
    "INSERT INTO saved_links (reader_id, url, title, saved_at, read_at)"
    " VALUES (:reader_id, :url, :title, :saved_at, :read_at) ON CONFLICT (reader_id, url) DO NOTHING";
constexpr const char* kSelectLinks =
    "SELECT id, url, title, saved_at, read_at FROM saved_links WHERE reader_id = :reader_id"
    " ORDER BY saved_at DESC, id DESC LIMIT :limit OFFSET :offset";
constexpr const char* kSetLinkRead =
    "UPDATE saved_links SET read_at = :read_at WHERE reader_id = :reader_id AND id = :id";
constexpr const char* kDeleteLink = "DELETE FROM saved_links WHERE reader_id = :reader_id AND id = :id";
constexpr const char* kSelectFeedToken = "SELECT list_feed_token FROM readers WHERE id = :reader_id";
constexpr const char* kSetFeedToken = "UPDATE readers SET list_feed_token = :token WHERE id = :reader_id";
constexpr const char* kReaderByFeedToken = "SELECT id FROM readers WHERE list_feed_token = :token";

std::string other_scheme(std::string_view url) {
  if (url.starts_with("https://")) return "http://" + std::string(url.substr(8));
  if (url.starts_with("http://")) return "https://" + std::string(url.substr(7));
  return std::string(url);
}

std::string other_slash(std::string_view url) {
  if (url.ends_with('/')) return std::string(url.substr(0, url.size() - 1));
  return std::string(url) + "/";
}

Result<std::optional<std::int64_t>> article_by_link(Connection& db, std::string_view url) {
  auto q = db.query(kArticleByLink);
  if (!q) return db_error("cannot import reading list", q.error());
  const std::string scheme = other_scheme(url);
  q->bind(":exact", url)
      .bind(":scheme", scheme)
      .bind(":slash", other_slash(url))
      .bind(":both", other_slash(scheme));
  auto row = q->step();
  if (!row) return db_error("cannot import reading list", row.error());
  if (!*row) return std::optional<std::int64_t>{};
  return std::optional<std::int64_t>{q->int64(0)};
}

Result<void> not_found_unless_changed(Connection& db, std::int64_t link_id) {
  if (db.changes() > 0) return {};
  return fail(ErrorKind::kNotFound, fmt::format("store: no saved link {}", link_id),
              "That link is not on your reading list.");
}

}  // namespace

Result<ImportSummary> import_reading_list(Connection& writer, std::int64_t reader_id,
                                          const std::vector<ImportedLink>& links, TimePoint now) {
  auto tx = Transaction::begin(writer);
  if (!tx) return db_error("cannot import reading list", tx.error());
  auto count = writer.query(kCountLinks);
  if (!count) return db_error("cannot import reading list", count.error());
  count->bind(":reader_id", reader_id);
  if (auto row = count->step(); !row) return db_error("cannot import reading list", row.error());
  std::int64_t kept = count->int64(0);
  ImportSummary summary;
  for (const ImportedLink& link : links) {
    const TimePoint saved_at = link.saved_at ? std::min(*link.saved_at, now) : now;
    // Read in the other service: read here from the import on.
    auto bind_read_at = [&](Query& q) {
      if (link.read) {
        q.bind(":read_at", to_unix(now));
      } else {
        q.bind_null(":read_at");
      }
    };
    auto article = article_by_link(writer, link.url);
    if (!article) return std::unexpected(article.error());
    if (*article) {
      auto q = writer.query(kSaveImportedArticle);
      if (!q) return db_error("cannot import reading list", q.error());
      q->bind(":reader_id", reader_id).bind(":article_id", **article).bind(":saved_at", to_unix(saved_at));
      bind_read_at(*q);
      if (auto ok = q->run(); !ok) return db_error("cannot import reading list", ok.error());
      ++(writer.changes() > 0 ? summary.articles : summary.already);
      continue;
    }
    if (kept >= kMaxSavedLinks) {
      ++summary.over_limit;
      continue;
    }
    auto q = writer.query(kInsertLink);
    if (!q) return db_error("cannot import reading list", q.error());
    q->bind(":reader_id", reader_id)
        .bind(":url", link.url)
        .bind(":title", link.title)
        .bind(":saved_at", to_unix(saved_at));
    bind_read_at(*q);
    if (auto ok = q->run(); !ok) return db_error("cannot import reading list", ok.error());
    if (writer.changes() > 0) {
      ++summary.links;
      ++kept;
    } else {
      ++summary.already;
    }
  }
  if (auto ok = tx->commit(); !ok) return db_error("cannot import reading list", ok.error());
  return summary;
}

Result<std::vector<SavedLink>> saved_links(Connection& db, std::int64_t reader_id, int limit, int offset) {
  auto q = db.query(kSelectLinks);
  if (!q) return db_error("cannot read saved links", q.error());
  q->bind(":reader_id", reader_id).bind(":limit", std::max(limit, 0)).bind(":offset", std::max(offset, 0));
  std::vector<SavedLink> out;
  for (;;) {
    auto row = q->step();
    if (!row) return db_error("cannot read saved links", row.error());
    if (!*row) break;
    SavedLink link{
        .id = q->int64(0), .url = q->text(1), .title = q->text(2), .saved_at = from_unix(q->int64(3))};
    if (auto read = q->optional_int64(4)) link.read_at = from_unix(*read);
    out.push_back(std::move(link));
  }
  return out;
}

Result<void> set_saved_link_read(Connection& writer, std::int64_t reader_id, std::int64_t link_id, bool read,
                                 TimePoint now) {
  auto q = writer.query(kSetLinkRead);
  if (!q) return db_error("cannot mark saved link", q.error());
  q->bind(":reader_id", reader_id).bind(":id", link_id);
  q->bind(":read_at", read ? std::optional<std::int64_t>(to_unix(now)) : std::nullopt);
  if (auto ok = q->run(); !ok) return db_error("cannot mark saved link", ok.error());
  return not_found_unless_changed(writer, link_id);
}

Result<void> remove_saved_link(Connection& writer, std::int64_t reader_id, std::int64_t link_id) {
  auto q = writer.query(kDeleteLink);
  if (!q) return db_error("cannot remove saved link", q.error());
  q->bind(":reader_id", reader_id).bind(":id", link_id);
  if (auto ok = q->run(); !ok) return db_error("cannot remove saved link", ok.error());
  return not_found_unless_changed(writer, link_id);
}

Result<std::optional<std::string>> reading_list_feed_token(Connection& db, std::int64_t reader_id) {
  auto q = db.query(kSelectFeedToken);
  if (!q) return db_error("cannot read feed token", q.error());
  q->bind(":reader_id", reader_id);
  auto row = q->step();
  if (!row) return db_error("cannot read feed token", row.error());
  if (!*row || q->is_null(0)) return std::optional<std::string>{};
  return std::optional<std::string>{q->text(0)};
}

Result<void> set_reading_list_feed_token(Connection& writer, std::int64_t reader_id,
                                         const std::optional<std::string>& token) {
  auto q = writer.query(kSetFeedToken);
  if (!q) return db_error("cannot set feed token", q.error());
  q->bind(":reader_id", reader_id).bind(":token", token);
  if (auto ok = q->run(); !ok) return db_error("cannot set feed token", ok.error());
  if (writer.changes() == 0)
    return fail(ErrorKind::kNotFound, fmt::format("store: no reader {}", reader_id), "No such account.");
  return {};
}

Result<std::optional<std::int64_t>> reader_by_reading_list_feed_token(Connection& db,
                                                                      std::string_view token) {
  auto q = db.query(kReaderByFeedToken);
  if (!q) return db_error("cannot read feed token", q.error());
  q->bind(":token", token);
  auto row = q->step();
  if (!row) return db_error("cannot read feed token", row.error());
  if (!*row) return std::optional<std::int64_t>{};
  return std::optional<std::int64_t>{q->int64(0)};
}

}  // namespace longread::storage::sqlite
