#include "storage/sqlite/reader_api.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "storage/sqlite/article_rows.h"

namespace longread::storage::sqlite {
namespace {

constexpr const char* kCountAppPasswords = "SELECT COUNT(*) FROM app_passwords WHERE reader_id = :reader_id";
constexpr const char* kInsertAppPassword =
    "INSERT INTO app_passwords (reader_id, name, password_hash, created_at) VALUES (:reader_id, :name, "
    ":hash, :now)";
constexpr const char* kSelectAppPasswords =
    "SELECT id, name, password_hash, created_at, last_used_at FROM app_passwords WHERE reader_id = :reader_id"
    " ORDER BY created_at DESC, id DESC";
constexpr const char* kDeleteAppPassword =
    "DELETE FROM app_passwords WHERE reader_id = :reader_id AND id = :id";
constexpr const char* kDeleteExpiredTokens = "DELETE FROM api_tokens WHERE expires_at <= :now";
constexpr const char* kInsertToken =
    "INSERT INTO api_tokens (token_hash, app_password_id, reader_id, created_at, expires_at)"
    " SELECT :hash, id, reader_id, :now, :expires FROM app_passwords WHERE id = :app_password_id AND "
    "reader_id = "
    ":reader_id";
constexpr const char* kNoteAppPasswordUse = "UPDATE app_passwords SET last_used_at = :now WHERE id = :id";
constexpr const char* kSelectTokenReader =
    "SELECT reader_id FROM api_tokens WHERE token_hash = :hash AND expires_at > :now";

// A reader's marks on each row: an explicit mark wins; else an article dated before the horizon of its
// blog or of every blog is read. Horizons are one row per reader and blog, so "mark all as read" costs a
// row however large the stream.
#define LONGREAD_STREAM_READ \
  "COALESCE(r.is_read, a.display_at < MAX(COALESCE(hg.read_before, 0), COALESCE(hb.read_before, 0)))"
#define LONGREAD_STREAM_MARKS                                                                \
  ", a.display_at, " LONGREAD_STREAM_READ ", l.article_id IS NOT NULL" LONGREAD_ARTICLE_FROM \
  " LEFT JOIN article_reads r ON r.reader_id = :reader_id AND r.article_id = a.id"           \
  " LEFT JOIN read_horizons hg ON hg.reader_id = :reader_id AND hg.blog_id = 0"              \
  " LEFT JOIN read_horizons hb ON hb.reader_id = :reader_id AND hb.blog_id = a.blog_id"      \
  " LEFT JOIN reading_list l ON l.reader_id = :reader_id AND l.article_id = a.id"
constexpr const char* kSelectStream =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL LONGREAD_STREAM_MARKS
    " WHERE a.visible = 1";
constexpr const char* kSelectItem =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL LONGREAD_STREAM_MARKS
    " WHERE a.visible = 1 AND a.id = :id";

constexpr const char* kMarkRead =
    "INSERT INTO article_reads (reader_id, article_id, is_read, changed_at)"
    " SELECT :reader_id, a.id, :is_read, :now FROM articles a WHERE a.id = :id AND a.visible = 1"
    " ON CONFLICT (reader_id, article_id) DO UPDATE SET is_read = excluded.is_read, changed_at = "
    "excluded.changed_at";
constexpr const char* kRaiseHorizon =
    "INSERT INTO read_horizons (reader_id, blog_id, read_before) VALUES (:reader_id, :blog_id, :before)"
    " ON CONFLICT (reader_id, blog_id) DO UPDATE SET read_before = MAX(read_before, excluded.read_before)";
// Marks under the new horizon say nothing it does not (read) or are undone by it (kept unread): dropped,
// which keeps the table to what the reader touched since their last "mark all as read".
constexpr const char* kDropMarksUnderHorizon =
    "DELETE FROM article_reads WHERE reader_id = :reader_id AND article_id IN (SELECT r.article_id FROM "
    "article_reads r JOIN articles a ON a.id = r.article_id WHERE r.reader_id = :reader_id AND a.display_at "
    "< "
    ":before AND (:blog_id = 0 OR a.blog_id = :blog_id))";

std::unexpected<Error> bad_continuation() {
  return fail(ErrorKind::kInvalidInput, "store: malformed stream continuation",
              "That continuation is not valid.");
}

// "<display_at>.<id>": the last item of a page, where the next one starts.
std::string encode_continuation(std::int64_t display_at, std::int64_t id) {
  return fmt::format("{}.{}", display_at, id);
}

Result<std::pair<std::int64_t, std::int64_t>> parse_continuation(std::string_view text) {
  const std::size_t dot = text.find('.');
  if (dot == std::string_view::npos || text.size() > 40) return bad_continuation();
  std::int64_t at = 0;
  std::int64_t id = 0;
  const char* mid = text.data() + dot;
  const char* end = text.data() + text.size();
  if (auto r = std::from_chars(text.data(), mid, at); r.ec != std::errc{} || r.ptr != mid)
    return bad_continuation();
  if (auto r = std::from_chars(mid + 1, end, id); r.ec != std::errc{} || r.ptr != end || id <= 0)
    return bad_continuation();
  return std::pair{at, id};
}

StreamItem read_item(const Query& q) {
  StreamItem item;
  item.view = read_article_view(q);
  item.display_at = from_unix(q.int64(kArticleColumnCount));
  item.read = q.int64(kArticleColumnCount + 1) != 0;
  item.starred = q.int64(kArticleColumnCount + 2) != 0;
  return item;
}

}  // namespace

Result<std::int64_t> add_app_password(Connection& writer, std::int64_t reader_id, std::string_view name,
                                      std::string_view password_hash, TimePoint now) {
  auto tx = Transaction::begin(writer);
  if (!tx) return db_error("cannot add app password", tx.error());
  auto count = writer.query(kCountAppPasswords);
  if (!count) return db_error("cannot add app password", count.error());
  count->bind(":reader_id", reader_id);
  if (auto row = count->step(); !row) return db_error("cannot add app password", row.error());
  if (count->int64(0) >= kMaxAppPasswords)
    return fail(
        ErrorKind::kConflict, "store: too many app passwords",
        fmt::format("You have {} app passwords, the most there can be: revoke one first.", kMaxAppPasswords));
  auto q = writer.query(kInsertAppPassword);
  if (!q) return db_error("cannot add app password", q.error());
  q->bind(":reader_id", reader_id)
      .bind(":name", name)
      .bind(":hash", password_hash)
      .bind(":now", to_unix(now));
  if (auto ok = q->run(); !ok) return db_error("cannot add app password", ok.error());
  const std::int64_t id = writer.last_insert_rowid();
  if (auto ok = tx->commit(); !ok) return db_error("cannot add app password", ok.error());
  return id;
}

Result<std::vector<AppPassword>> app_passwords(Connection& db, std::int64_t reader_id) {
  auto q = db.query(kSelectAppPasswords);
  if (!q) return db_error("cannot read app passwords", q.error());
  q->bind(":reader_id", reader_id);
  std::vector<AppPassword> out;
  for (;;) {
    auto row = q->step();
    if (!row) return db_error("cannot read app passwords", row.error());
    if (!*row) break;
    AppPassword p{.id = q->int64(0),
                  .name = q->text(1),
                  .password_hash = q->text(2),
                  .created_at = from_unix(q->int64(3))};
    if (auto used = q->optional_int64(4)) p.last_used_at = from_unix(*used);
    out.push_back(std::move(p));
  }
  return out;
}

Result<void> revoke_app_password(Connection& writer, std::int64_t reader_id, std::int64_t app_password_id) {
  auto q = writer.query(kDeleteAppPassword);
  if (!q) return db_error("cannot revoke app password", q.error());
  q->bind(":reader_id", reader_id).bind(":id", app_password_id);
  if (auto ok = q->run(); !ok) return db_error("cannot revoke app password", ok.error());
  if (writer.changes() == 0)
    return fail(ErrorKind::kNotFound, fmt::format("store: no app password {}", app_password_id),
                "No such app password.");
  return {};
}

Result<void> add_api_token(Connection& writer, const ApiTokenRecord& token) {
  auto tx = Transaction::begin(writer);
  if (!tx) return db_error("cannot add API token", tx.error());
  auto expired = writer.query(kDeleteExpiredTokens);
  if (!expired) return db_error("cannot add API token", expired.error());
  expired->bind(":now", to_unix(token.created_at));
  if (auto ok = expired->run(); !ok) return db_error("cannot add API token", ok.error());
  auto q = writer.query(kInsertToken);
  if (!q) return db_error("cannot add API token", q.error());
  q->bind(":hash", token.token_hash)
      .bind(":now", to_unix(token.created_at))
      .bind(":expires", to_unix(token.expires_at))
      .bind(":app_password_id", token.app_password_id)
      .bind(":reader_id", token.reader_id);
  if (auto ok = q->run(); !ok) return db_error("cannot add API token", ok.error());
  if (writer.changes() == 0)
    return fail(ErrorKind::kNotFound, "store: the app password is gone", "That app password was revoked.");
  auto used = writer.query(kNoteAppPasswordUse);
  if (!used) return db_error("cannot add API token", used.error());
  used->bind(":now", to_unix(token.created_at)).bind(":id", token.app_password_id);
  if (auto ok = used->run(); !ok) return db_error("cannot add API token", ok.error());
  if (auto ok = tx->commit(); !ok) return db_error("cannot add API token", ok.error());
  return {};
}

Result<std::optional<std::int64_t>> api_token_reader(Connection& db, std::string_view token_hash,
                                                     TimePoint now) {
  auto q = db.query(kSelectTokenReader);
  if (!q) return db_error("cannot read API token", q.error());
  q->bind(":hash", token_hash).bind(":now", to_unix(now));
  auto row = q->step();
  if (!row) return db_error("cannot read API token", row.error());
  if (!*row) return std::optional<std::int64_t>{};
  return std::optional<std::int64_t>{q->int64(0)};
}

Result<StreamPage> reader_stream(Connection& db, std::int64_t reader_id, const StreamQuery& query) {
  std::optional<std::pair<std::int64_t, std::int64_t>> after;
  if (!query.after.empty()) {
    auto parsed = parse_continuation(query.after);
    if (!parsed) return std::unexpected(parsed.error());
    after = *parsed;
  }
  // Constant fragments chosen by which filters are set; every value is bound.
  std::string sql = kSelectStream;
  if (query.blog_id) sql += " AND a.blog_id = :blog_id";
  if (query.category) sql += " AND a.category = :category";
  if (query.starred_only) sql += " AND l.article_id IS NOT NULL";
  if (query.read) sql += " AND " LONGREAD_STREAM_READ " = :read";
  if (query.newer_than) sql += " AND a.display_at >= :newer_than";
  if (query.older_than) sql += " AND a.display_at < :older_than";
  if (after)
    sql += query.oldest_first ? " AND (a.display_at, a.id) > (:c_at, :c_id)"
                              : " AND (a.display_at, a.id) < (:c_at, :c_id)";
  sql += query.oldest_first ? " ORDER BY a.display_at, a.id" : " ORDER BY a.display_at DESC, a.id DESC";
  sql += " LIMIT :limit";
  auto q = db.query(sql);
  if (!q) return db_error("cannot read stream", q.error());
  q->bind(":reader_id", reader_id);
  if (query.blog_id) q->bind(":blog_id", *query.blog_id);
  if (query.category) q->bind(":category", *query.category);
  if (query.read) q->bind(":read", *query.read);
  if (query.newer_than) q->bind(":newer_than", to_unix(*query.newer_than));
  if (query.older_than) q->bind(":older_than", to_unix(*query.older_than));
  if (after) q->bind(":c_at", after->first).bind(":c_id", after->second);
  const int size = std::max(query.limit, 0);
  q->bind(":limit", size + 1);
  StreamPage page;
  for (;;) {
    auto row = q->step();
    if (!row) return db_error("cannot read stream", row.error());
    if (!*row) break;
    if (static_cast<int>(page.items.size()) == size) {
      const auto& last = page.items.back();
      page.next = encode_continuation(to_unix(last.display_at), last.view.article.id);
      break;
    }
    page.items.push_back(read_item(*q));
  }
  return page;
}

Result<std::vector<StreamItem>> reader_items(Connection& db, std::int64_t reader_id,
                                             const std::vector<std::int64_t>& article_ids) {
  std::vector<StreamItem> out;
  for (const std::int64_t id : article_ids) {
    auto q = db.query(kSelectItem);
    if (!q) return db_error("cannot read items", q.error());
    q->bind(":reader_id", reader_id).bind(":id", id);
    auto row = q->step();
    if (!row) return db_error("cannot read items", row.error());
    if (*row) out.push_back(read_item(*q));
  }
  return out;
}

Result<int> set_articles_read(Connection& writer, std::int64_t reader_id,
                              const std::vector<std::int64_t>& article_ids, bool read, TimePoint now) {
  auto tx = Transaction::begin(writer);
  if (!tx) return db_error("cannot mark read", tx.error());
  int marked = 0;
  for (const std::int64_t id : article_ids) {
    auto q = writer.query(kMarkRead);
    if (!q) return db_error("cannot mark read", q.error());
    q->bind(":reader_id", reader_id).bind(":is_read", read).bind(":now", to_unix(now)).bind(":id", id);
    if (auto ok = q->run(); !ok) return db_error("cannot mark read", ok.error());
    marked += writer.changes() > 0 ? 1 : 0;
  }
  if (auto ok = tx->commit(); !ok) return db_error("cannot mark read", ok.error());
  return marked;
}

Result<void> mark_stream_read(Connection& writer, std::int64_t reader_id, std::optional<std::int64_t> blog_id,
                              TimePoint before, TimePoint /*now*/) {
  auto tx = Transaction::begin(writer);
  if (!tx) return db_error("cannot mark all as read", tx.error());
  auto horizon = writer.query(kRaiseHorizon);
  if (!horizon) return db_error("cannot mark all as read", horizon.error());
  horizon->bind(":reader_id", reader_id)
      .bind(":blog_id", blog_id.value_or(0))
      .bind(":before", to_unix(before));
  if (auto ok = horizon->run(); !ok) return db_error("cannot mark all as read", ok.error());
  auto drop = writer.query(kDropMarksUnderHorizon);
  if (!drop) return db_error("cannot mark all as read", drop.error());
  drop->bind(":reader_id", reader_id).bind(":blog_id", blog_id.value_or(0)).bind(":before", to_unix(before));
  if (auto ok = drop->run(); !ok) return db_error("cannot mark all as read", ok.error());
  if (auto ok = tx->commit(); !ok) return db_error("cannot mark all as read", ok.error());
  return {};
}

}  // namespace longread::storage::sqlite
