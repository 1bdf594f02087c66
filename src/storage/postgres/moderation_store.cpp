#include "storage/postgres/moderation_store.h"

#include <algorithm>

#include "storage/postgres/statement.h"

namespace longread::storage::postgres {
namespace {

// Flagging needs an article the site shows, or one already held (a reader may still hold a page opened
// before the hold). The row stays locked until the flag is recorded, so flags on one article are counted
// one after the other against the hold's threshold; NO KEY UPDATE leaves rows that refer to it free.
constexpr const char* kSelectFlaggable =
    "SELECT held, flag_decision FROM articles WHERE id = :id AND (visible = 1 OR held = 1) FOR NO KEY UPDATE";
// The flagging reader's row, locked likewise, so that one reader's flags at once meet the daily limit in
// turn.
constexpr const char* kLockReader = "SELECT 1 FROM readers WHERE id = :reader_id FOR NO KEY UPDATE";
constexpr const char* kSelectReaderFlag =
    "SELECT reason FROM article_flags WHERE article_id = :article_id AND reader_id = :reader_id";
// The daily limit reads a range of article_flags_reader.
constexpr const char* kCountReaderFlagsSince =
    "SELECT COUNT(*) FROM article_flags WHERE reader_id = :reader_id AND created_at > :since";
constexpr const char* kInsertFlag =
    "INSERT INTO article_flags (article_id, reader_id, reason, created_at)"
    " VALUES (:article_id, :reader_id, :reason, :now)";
constexpr const char* kCountFlags = "SELECT COUNT(*) FROM article_flags WHERE article_id = :article_id";
// The hold: only while no operator decided, and only on an article still shown. visible = 0 goes through
// the visible-count trigger of the schema.
constexpr const char* kHoldArticle =
    "UPDATE articles SET held = 1, hold_threshold = :threshold, visible = 0"
    " WHERE id = :id AND held = 0 AND flag_decision = '' AND visible = 1";
// Deleting the row fires article_flags_lift_hold, which shows a held article again when its flags fall
// below the count that held it.
constexpr const char* kDeleteFlag =
    "DELETE FROM article_flags WHERE article_id = :article_id AND reader_id = :reader_id";
constexpr const char* kSelectFlagState =
    "SELECT a.held, a.flag_decision, (SELECT COUNT(*) FROM article_flags f WHERE f.article_id = a.id)"
    " FROM articles a WHERE a.id = :id";
// Newest flag first; one row per flagged article with its counts by reason.
constexpr const char* kSelectFlagged =
    "SELECT a.id, a.blog_id, a.title, a.link, b.title, b.site_url, a.held, a.flag_decision, a.keep_override,"
    " f.n, f.spam, f.ai, f.not_article, f.broken_link, f.last_at"
    " FROM (SELECT article_id, COUNT(*) AS n, COUNT(*) FILTER (WHERE reason = 'spam') AS spam,"
    "  COUNT(*) FILTER (WHERE reason = 'ai') AS ai, COUNT(*) FILTER (WHERE reason = 'not_article') AS "
    "not_article,"
    "  COUNT(*) FILTER (WHERE reason = 'broken_link') AS broken_link,"
    "  MAX(created_at) AS last_at FROM article_flags GROUP BY article_id) f"
    " JOIN articles a ON a.id = f.article_id JOIN blogs b ON b.id = a.blog_id"
    " ORDER BY f.last_at DESC, a.id DESC LIMIT :limit";
// Keep: the hold goes and the article is shown as the filter and any override say; an operator's junk
// override is handed back to the filter (keeping is the opposite decision).
constexpr const char* kDecideKeep =
    "UPDATE articles SET flag_decision = 'keep', held = 0, hold_threshold = 0,"
    " keep_override = CASE WHEN keep_override = 0 THEN NULL ELSE keep_override END,"
    " visible = CASE WHEN keep_override IS NULL OR keep_override = 0 THEN 1 - junk ELSE 1 END"
    " WHERE id = :id";
constexpr const char* kDecideJunk =
    "UPDATE articles SET flag_decision = 'junk', held = 0, hold_threshold = 0, keep_override = 0, visible = 0"
    " WHERE id = :id";

std::unexpected<Error> no_article(std::int64_t article_id) {
  return fail(ErrorKind::kNotFound, fmt::format("store: no article {}", article_id), "No such article.");
}

Result<std::optional<FlagReason>> reader_flag(Connection& c, std::int64_t article_id,
                                              std::int64_t reader_id) {
  auto rows = run_query(c, kSelectReaderFlag, "cannot read flag",
                        [&](Query& q) { q.bind(":article_id", article_id).bind(":reader_id", reader_id); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::optional<FlagReason>{};
  // A reason this version does not know (a newer one wrote it) still counts as a flag.
  return std::optional<FlagReason>(parse_flag_reason(rows->text(0, 0)).value_or(FlagReason::kSpam));
}

Result<FlagState> read_flag_state(Connection& c, std::int64_t article_id,
                                  std::optional<std::int64_t> reader_id) {
  FlagState state;
  auto rows =
      run_query(c, kSelectFlagState, "cannot read flags", [&](Query& q) { q.bind(":id", article_id); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return no_article(article_id);
  state.held = rows->flag(0, 0);
  state.decision = rows->string(0, 1);
  state.flags = rows->int32(0, 2);
  if (reader_id) {
    auto mine = reader_flag(c, article_id, *reader_id);
    if (!mine) return std::unexpected(mine.error());
    state.reader_flag = *mine;
  }
  return state;
}

Result<std::int64_t> count(Connection& c, const char* sql, auto&& bind) {
  auto rows = run_query(c, sql, "cannot count flags", bind);
  if (!rows) return std::unexpected(rows.error());
  return rows->empty() ? 0 : rows->int64(0, 0);
}

}  // namespace

Result<FlagResult> PgModerationStore::flag_article(std::int64_t reader_id, std::int64_t article_id,
                                                   FlagReason reason, TimePoint now, const FlagRules& rules) {
  constexpr std::string_view kFailed = "cannot flag article";
  FlagResult result;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    result = FlagResult{};
    auto flaggable = run_query(c, kSelectFlaggable, kFailed, [&](Query& q) { q.bind(":id", article_id); });
    if (!flaggable) return std::unexpected(flaggable.error());
    if (flaggable->empty()) {
      return fail(ErrorKind::kNotFound, fmt::format("store: no visible article {}", article_id),
                  "No such article.");
    }
    if (auto ok = run_query(c, kLockReader, kFailed, [&](Query& q) { q.bind(":reader_id", reader_id); }); !ok)
      return std::unexpected(ok.error());
    auto mine = reader_flag(c, article_id, reader_id);
    if (!mine) return std::unexpected(mine.error());
    if (*mine) {
      result.outcome = FlagOutcome::kAlreadyFlagged;
    } else {
      auto today = count(c, kCountReaderFlagsSince, [&](Query& q) {
        q.bind(":reader_id", reader_id).bind(":since", now - std::chrono::hours(24));
      });
      if (!today) return std::unexpected(today.error());
      if (*today >= rules.flags_per_day) {
        result.outcome = FlagOutcome::kOverDailyLimit;
      } else {
        if (auto ok = run_query(c, kInsertFlag, kFailed,
                                [&](Query& q) {
                                  q.bind(":article_id", article_id).bind(":reader_id", reader_id);
                                  q.bind(":reason", flag_reason_name(reason)).bind(":now", now);
                                });
            !ok) {
          return std::unexpected(ok.error());
        }
        auto flags = count(c, kCountFlags, [&](Query& q) { q.bind(":article_id", article_id); });
        if (!flags) return std::unexpected(flags.error());
        if (*flags >= rules.flags_to_hide) {
          if (auto ok = run_query(
                  c, kHoldArticle, "cannot hold article",
                  [&](Query& q) { q.bind(":threshold", rules.flags_to_hide).bind(":id", article_id); });
              !ok) {
            return std::unexpected(ok.error());
          }
        }
      }
    }
    auto state = read_flag_state(c, article_id, reader_id);
    if (!state) return std::unexpected(state.error());
    result.state = std::move(*state);
    return {};
  });
  if (!done) return std::unexpected(done.error());
  return result;
}

Result<bool> PgModerationStore::withdraw_flag(std::int64_t reader_id, std::int64_t article_id) {
  auto rows = run_pooled(db_.pool(), kDeleteFlag, "cannot withdraw flag",
                         [&](Query& q) { q.bind(":article_id", article_id).bind(":reader_id", reader_id); });
  if (!rows) return std::unexpected(rows.error());
  return rows->affected() > 0;
}

Result<FlagState> PgModerationStore::flag_state(std::int64_t article_id,
                                                std::optional<std::int64_t> reader_id) {
  Pool::Lease lease = db_.pool().acquire();
  return read_flag_state(*lease, article_id, reader_id);
}

Result<std::vector<FlaggedArticle>> PgModerationStore::flagged_articles(int limit) {
  auto rows = run_pooled(db_.pool(), kSelectFlagged, "cannot list flagged articles",
                         [&](Query& q) { q.bind(":limit", std::max(limit, 0)); });
  if (!rows) return std::unexpected(rows.error());
  std::vector<FlaggedArticle> out;
  for (int r = 0; r < rows->size(); ++r) {
    FlaggedArticle f{
        .article_id = rows->int64(r, 0),
        .blog_id = rows->int64(r, 1),
        .title = rows->string(r, 2),
        .link = rows->string(r, 3),
        .blog_title = rows->string(r, 4),
        .blog_site_url = rows->string(r, 5),
        .flags = rows->int32(r, 9),
        .by_reason = {rows->int32(r, 10), rows->int32(r, 11), rows->int32(r, 12), rows->int32(r, 13)},
        .last_flag_at = rows->time(r, 14),
        .held = rows->flag(r, 6),
        .decision = rows->string(r, 7),
        .keep_override = std::nullopt};
    if (const auto keep = rows->optional_int64(r, 8)) f.keep_override = *keep != 0;
    out.push_back(std::move(f));
  }
  return out;
}

Result<void> PgModerationStore::decide_flags(std::int64_t article_id, FlagDecision decision) {
  auto rows = run_pooled(db_.pool(), decision == FlagDecision::kKeep ? kDecideKeep : kDecideJunk,
                         "cannot decide flags", [&](Query& q) { q.bind(":id", article_id); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->affected() == 0) return no_article(article_id);
  return {};
}

}  // namespace longread::storage::postgres
