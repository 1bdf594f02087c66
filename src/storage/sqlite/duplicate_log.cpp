#include "storage/sqlite/duplicate_log.h"

#include <bit>

#include <fmt/core.h>

#include "storage/sqlite/query_helpers.h"

namespace longread::storage::sqlite {
namespace {

constexpr const char* kSelectArticleKeys =
    "SELECT id, guid, content_hash, full_text_fetched, full_text_failures FROM articles WHERE blog_id = "
    ":blog_id";
// An original deleted meanwhile (a blog's cap, the operator) marks nothing, rather than failing the
// transaction on the foreign key.
constexpr const char* kMarkDuplicate =
    "UPDATE articles SET duplicate_of = :original, junk = 1, junk_reason = :reason,"
    " visible = CASE WHEN held = 1 THEN 0 WHEN keep_override IS NULL THEN 0 ELSE keep_override END"
    " WHERE id = :id AND EXISTS (SELECT 1 FROM articles o WHERE o.id = :original)";
constexpr const char* kSelectLogHead = "SELECT COALESCE(MAX(seq), 0) FROM near_duplicate_log";
constexpr const char* kSelectLogTail = "SELECT COALESCE(MIN(seq), 0) FROM near_duplicate_log";
constexpr const char* kSelectLogged =
    "SELECT l.seq, a.id, a.blog_id, a.simhash, a.display_at FROM near_duplicate_log l"
    " JOIN articles a ON a.id = l.article_id"
    " WHERE l.seq > :after AND a.duplicate_of IS NULL AND a.simhash <> 0 ORDER BY l.seq";
constexpr const char* kInsertLogged = "INSERT INTO near_duplicate_log (seq, article_id) VALUES (:seq, :id)";
constexpr const char* kPruneLog = "DELETE FROM near_duplicate_log WHERE seq <= :last_dropped";

}  // namespace

Result<std::vector<StoredArticleKey>> read_article_keys(Connection& db, std::int64_t blog_id) {
  return read_rows(
      db, kSelectArticleKeys, "cannot read article keys", [&](Query& q) { q.bind(":blog_id", blog_id); },
      [](const Query& q) {
        return StoredArticleKey{.id = q.int64(0),
                                .guid = q.text(1),
                                .content_hash = q.text(2),
                                .full_text_fetched = q.int64(3) != 0,
                                .full_text_failures = static_cast<int>(q.int64(4))};
      });
}

Result<void> write_duplicate_marks(Connection& db,
                                   std::span<const std::pair<std::int64_t, std::int64_t>> marks) {
  auto marked = run_each(db, kMarkDuplicate, "cannot mark duplicate", marks, [](Query& q, const auto& mark) {
    const auto& [article_id, original_id] = mark;
    q.bind(":id", article_id).bind(":original", original_id);
    q.bind(":reason", fmt::format("duplicate of article {}", original_id));
  });
  if (!marked) return std::unexpected(marked.error());
  return {};
}

Result<std::int64_t> read_log_head(Connection& db) {
  return read_int64(db, kSelectLogHead, "cannot read the near-duplicate log");
}

Result<std::vector<StoredArticleKey>> SqliteDuplicateDecision::article_keys(std::int64_t blog_id) {
  return read_article_keys(db_, blog_id);
}

Result<LoggedOriginals> SqliteDuplicateDecision::originals_since(std::int64_t after_seq) {
  constexpr std::string_view kFailed = "cannot read the near-duplicate log";
  LoggedOriginals out;
  auto head = read_log_head(db_);
  if (!head) return std::unexpected(head.error());
  auto tail = read_int64(db_, kSelectLogTail, kFailed);
  if (!tail) return std::unexpected(tail.error());
  out.last_seq = *head;
  // Places are consecutive, and only the oldest are ever dropped: a gap after `after_seq` is a pruned one.
  out.complete = *head <= after_seq || *tail <= after_seq + 1;
  auto rows = read_rows(
      db_, kSelectLogged, kFailed, [&](Query& q) { q.bind(":after", after_seq); },
      [](const Query& q) {
        return LoggedOriginal{.seq = q.int64(0),
                              .entry = {.id = q.int64(1),
                                        .blog_id = q.int64(2),
                                        .simhash = std::bit_cast<std::uint64_t>(q.int64(3)),
                                        .date = from_unix(q.int64(4))}};
      });
  if (!rows) return std::unexpected(rows.error());
  out.originals = std::move(*rows);
  return out;
}

Result<std::int64_t> SqliteDuplicateDecision::log_originals(std::span<const std::int64_t> ids) {
  constexpr std::string_view kFailed = "cannot write the near-duplicate log";
  auto head = read_log_head(db_);
  if (!head) return std::unexpected(head.error());
  if (ids.empty()) return *head;
  std::int64_t seq = *head;
  for (const std::int64_t id : ids) {
    ++seq;
    if (auto ok = run(db_, kInsertLogged, kFailed, [&](Query& q) { q.bind(":seq", seq).bind(":id", id); });
        !ok)
      return std::unexpected(ok.error());
  }
  if (seq > kNearDuplicateLogKept) {
    if (auto ok = run(db_, kPruneLog, kFailed,
                      [&](Query& q) { q.bind(":last_dropped", seq - kNearDuplicateLogKept); });
        !ok)
      return std::unexpected(ok.error());
  }
  return *head + 1;
}

Result<void> SqliteDuplicateDecision::mark_duplicates(
    std::span<const std::pair<std::int64_t, std::int64_t>> marks) {
  return write_duplicate_marks(db_, marks);
}

}  // namespace longread::storage::sqlite
