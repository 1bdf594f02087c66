#include "storage/sqlite/moderation.h"

#include <fmt/core.h>

namespace longread::storage {

std::string_view flag_reason_name(FlagReason reason) {
  switch (reason) {
    case FlagReason::kSpam:
      return "spam";
    case FlagReason::kAiGenerated:
      return "ai";
    case FlagReason::kNotAnArticle:
      return "not_article";
    case FlagReason::kBrokenLink:
      return "broken_link";
  }
  return "spam";
}

std::string_view flag_reason_label(FlagReason reason) {
  switch (reason) {
    case FlagReason::kSpam:
      return "spam";
    case FlagReason::kAiGenerated:
      return "AI-generated";
    case FlagReason::kNotAnArticle:
      return "not an article";
    case FlagReason::kBrokenLink:
      return "broken link";
  }
  return "spam";
}

std::optional<FlagReason> parse_flag_reason(std::string_view name) {
  for (const FlagReason reason : kFlagReasons) {
    if (flag_reason_name(reason) == name) return reason;
  }
  return std::nullopt;
}

namespace sqlite {
namespace {

// Flagging needs an article the site shows, or one already held (a reader may still hold a page opened
// before the hold).
constexpr const char* kSelectFlaggable =
    "SELECT held, flag_decision FROM articles WHERE id = :id AND (visible = 1 OR held = 1)";
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
// the search-index and visible-count triggers (migrations 0003, 0004, 0021).
constexpr const char* kHoldArticle =
    "UPDATE articles SET held = 1, hold_threshold = :threshold, visible = 0"
    " WHERE id = :id AND held = 0 AND flag_decision = '' AND visible = 1";
// Deleting the row fires article_flags_lift_hold (migration 0023), which shows a held article again when
// its flags fall below the count that held it.
constexpr const char* kDeleteFlag =
    "DELETE FROM article_flags WHERE article_id = :article_id AND reader_id = :reader_id";
constexpr const char* kSelectFlagState =
    "SELECT a.held, a.flag_decision, (SELECT COUNT(*) FROM article_flags f WHERE f.article_id = a.id)"
    " FROM articles a WHERE a.id = :id";
// Newest flag first; one row per flagged article with its counts by reason.
constexpr const char* kSelectFlagged =
    "SELECT a.id, a.blog_id, a.title, a.link, b.title, b.site_url, a.held, a.flag_decision, a.keep_override,"
    " f.n, f.spam, f.ai, f.not_article, f.broken_link, f.last_at"
    " FROM (SELECT article_id, COUNT(*) AS n, SUM(reason = 'spam') AS spam, SUM(reason = 'ai') AS ai,"
    "  SUM(reason = 'not_article') AS not_article, SUM(reason = 'broken_link') AS broken_link,"
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

std::unexpected<Error> flag_error(std::string_view what, const Error& cause) {
  return fail(ErrorKind::kStorage, fmt::format("store: {}: {}", what, cause.message));
}

std::unexpected<Error> no_article(std::int64_t article_id) {
  return fail(ErrorKind::kNotFound, fmt::format("store: no visible article {}", article_id),
              "No such article.");
}

Result<std::optional<FlagReason>> reader_flag(Connection& db, std::int64_t article_id,
                                              std::int64_t reader_id) {
  auto q = db.query(kSelectReaderFlag);
  if (!q) return flag_error("cannot read flag", q.error());
  q->bind(":article_id", article_id).bind(":reader_id", reader_id);
  auto row = q->step();
  if (!row) return flag_error("cannot read flag", row.error());
  if (!*row) return std::optional<FlagReason>{};
  // A reason this version does not know (a newer one wrote it) still counts as a flag.
  return std::optional<FlagReason>(parse_flag_reason(q->text(0)).value_or(FlagReason::kSpam));
}

Result<std::int64_t> count(Connection& db, const char* sql, auto&& bind) {
  auto q = db.query(sql);
  if (!q) return flag_error("cannot count flags", q.error());
  bind(*q);
  auto row = q->step();
  if (!row) return flag_error("cannot count flags", row.error());
  return *row ? q->int64(0) : 0;
}

Result<void> run(Connection& db, const char* sql, std::string_view what, auto&& bind) {
  auto q = db.query(sql);
  if (!q) return flag_error(what, q.error());
  bind(*q);
  if (auto ok = q->run(); !ok) return flag_error(what, ok.error());
  return {};
}

}  // namespace

Result<FlagState> flag_state(Connection& db, std::int64_t article_id, std::optional<std::int64_t> reader_id) {
  FlagState state;
  {
    auto q = db.query(kSelectFlagState);
    if (!q) return flag_error("cannot read flags", q.error());
    q->bind(":id", article_id);
    auto row = q->step();
    if (!row) return flag_error("cannot read flags", row.error());
    if (!*row)
      return fail(ErrorKind::kNotFound, fmt::format("store: no article {}", article_id), "No such article.");
    state.held = q->int64(0) != 0;
    state.decision = q->text(1);
    state.flags = q->integer(2);
  }
  if (reader_id) {
    auto mine = reader_flag(db, article_id, *reader_id);
    if (!mine) return std::unexpected(mine.error());
    state.reader_flag = *mine;
  }
  return state;
}

Result<FlagResult> flag_article(Connection& writer, std::int64_t reader_id, std::int64_t article_id,
                                FlagReason reason, TimePoint now, const FlagRules& rules) {
  auto tx = Transaction::begin(writer);
  if (!tx) return flag_error("cannot flag article", tx.error());
  {
    auto q = writer.query(kSelectFlaggable);
    if (!q) return flag_error("cannot flag article", q.error());
    q->bind(":id", article_id);
    auto row = q->step();
    if (!row) return flag_error("cannot flag article", row.error());
    if (!*row) return no_article(article_id);
  }
  auto mine = reader_flag(writer, article_id, reader_id);
  if (!mine) return std::unexpected(mine.error());
  FlagResult result;
  if (*mine) {
    result.outcome = FlagOutcome::kAlreadyFlagged;
  } else {
    auto today = count(writer, kCountReaderFlagsSince, [&](Query& q) {
      q.bind(":reader_id", reader_id).bind(":since", to_unix(now - std::chrono::hours(24)));
    });
    if (!today) return std::unexpected(today.error());
    if (*today >= rules.flags_per_day) {
      result.outcome = FlagOutcome::kOverDailyLimit;
    } else {
      if (auto ok = run(writer, kInsertFlag, "cannot flag article",
                        [&](Query& q) {
                          q.bind(":article_id", article_id).bind(":reader_id", reader_id);
                          q.bind(":reason", flag_reason_name(reason)).bind(":now", to_unix(now));
                        });
          !ok) {
        return std::unexpected(ok.error());
      }
      auto flags = count(writer, kCountFlags, [&](Query& q) { q.bind(":article_id", article_id); });
      if (!flags) return std::unexpected(flags.error());
      if (*flags >= rules.flags_to_hide) {
        if (auto ok =
                run(writer, kHoldArticle, "cannot hold article",
                    [&](Query& q) { q.bind(":threshold", rules.flags_to_hide).bind(":id", article_id); });
            !ok) {
          return std::unexpected(ok.error());
        }
      }
    }
  }
  auto state = flag_state(writer, article_id, reader_id);
  if (!state) return std::unexpected(state.error());
  result.state = std::move(*state);
  if (result.outcome == FlagOutcome::kFlagged) {
    if (auto ok = tx->commit(); !ok) return flag_error("cannot flag article", ok.error());
  }
  return result;
}

Result<bool> withdraw_flag(Connection& writer, std::int64_t reader_id, std::int64_t article_id) {
  if (auto ok = run(writer, kDeleteFlag, "cannot withdraw flag",
                    [&](Query& q) { q.bind(":article_id", article_id).bind(":reader_id", reader_id); });
      !ok) {
    return std::unexpected(ok.error());
  }
  return writer.changes() > 0;
}

Result<std::vector<FlaggedArticle>> flagged_articles(Connection& db, int limit) {
  auto q = db.query(kSelectFlagged);
  if (!q) return flag_error("cannot list flagged articles", q.error());
  q->bind(":limit", std::max(limit, 0));
  std::vector<FlaggedArticle> out;
  while (true) {
    auto row = q->step();
    if (!row) return flag_error("cannot list flagged articles", row.error());
    if (!*row) break;
    FlaggedArticle f{.article_id = q->int64(0),
                     .blog_id = q->int64(1),
                     .title = q->text(2),
                     .link = q->text(3),
                     .blog_title = q->text(4),
                     .blog_site_url = q->text(5),
                     .flags = q->integer(9),
                     .by_reason = {q->integer(10), q->integer(11), q->integer(12), q->integer(13)},
                     .last_flag_at = from_unix(q->int64(14)),
                     .held = q->int64(6) != 0,
                     .decision = q->text(7),
                     .keep_override = std::nullopt};
    if (const auto keep = q->optional_int64(8)) f.keep_override = *keep != 0;
    out.push_back(std::move(f));
  }
  return out;
}

Result<void> decide_flags(Connection& writer, std::int64_t article_id, FlagDecision decision) {
  if (auto ok = run(writer, decision == FlagDecision::kKeep ? kDecideKeep : kDecideJunk,
                    "cannot decide flags", [&](Query& q) { q.bind(":id", article_id); });
      !ok) {
    return std::unexpected(ok.error());
  }
  if (writer.changes() == 0) {
    return fail(ErrorKind::kNotFound, fmt::format("store: no article {}", article_id), "No such article.");
  }
  return {};
}

}  // namespace sqlite
}  // namespace longread::storage
