#include "storage/postgres/suggestion_store.h"

#include <algorithm>
#include <string>
#include <utility>

#include "storage/postgres/statement.h"

namespace longread::storage::postgres {
namespace {

#define LONGREAD_SUGGESTION_SELECT                                                                       \
  "SELECT s.id, s.reader_id, COALESCE(r.email, ''), s.by_operator, s.url, s.note, s.category, s.status," \
  " s.created_at, s.attempts, s.discovered_at, s.feed_url, s.site_url, s.title, s.format, s.entries,"    \
  " s.newest_post_at, s.error, s.blog_id, s.decided_at, s.decided_by, s.reason"                          \
  " FROM blog_suggestions s LEFT JOIN readers r ON r.id = s.reader_id"
constexpr const char* kSelectSuggestion = LONGREAD_SUGGESTION_SELECT " WHERE s.id = :id";
constexpr const char* kSelectReaderSuggestions =
    LONGREAD_SUGGESTION_SELECT " WHERE s.reader_id = :reader_id ORDER BY s.id DESC LIMIT :limit";
// Open ones first: those an operator still has to look at.
constexpr const char* kSelectSuggestions = LONGREAD_SUGGESTION_SELECT
    " ORDER BY CASE WHEN s.status IN ('pending', 'found', 'failed', 'refused') THEN 0 ELSE 1 END,"
    " s.id DESC LIMIT :limit";
#undef LONGREAD_SUGGESTION_SELECT
constexpr const char* kSelectSuggestionPosts =
    "SELECT title, link, published_at, junk, junk_reason FROM blog_suggestion_posts"
    " WHERE suggestion_id = :id ORDER BY position";
// The suggesting reader's row, locked, so that two suggestions of one reader at once are counted one after
// the other against the daily limit. NO KEY UPDATE leaves rows that refer to the reader free to be written.
constexpr const char* kLockReader = "SELECT 1 FROM readers WHERE id = :reader_id FOR NO KEY UPDATE";
// Uses index blog_suggestions_reader.
constexpr const char* kCountReaderSuggestionsSince =
    "SELECT COUNT(*) FROM blog_suggestions WHERE reader_id = :reader_id AND by_operator = 0"
    " AND created_at > :since";
constexpr const char* kInsertSuggestion =
    "INSERT INTO blog_suggestions (reader_id, by_operator, url, note, category, status, created_at)"
    " VALUES (:reader_id, :by_operator, :url, :note, :category, 'pending', :created_at) RETURNING id";
// Rows another worker is claiming at this moment are skipped (SKIP LOCKED) here and in the claim: they are
// that worker's, and waiting for them could only deadlock.
constexpr const char* kFailExhaustedSuggestions =
    "UPDATE blog_suggestions SET status = 'failed', error = :error, discovered_at = :now, lease_until = NULL"
    " WHERE id IN (SELECT id FROM blog_suggestions WHERE status = 'pending' AND attempts >= :max_attempts"
    "  AND (lease_until IS NULL OR lease_until <= :now) FOR UPDATE SKIP LOCKED)";
constexpr const char* kClaimSuggestions =
    "UPDATE blog_suggestions SET lease_until = :lease_until, attempts = attempts + 1"
    " WHERE id IN (SELECT id FROM blog_suggestions WHERE status = 'pending'"
    "  AND (lease_until IS NULL OR lease_until <= :now) ORDER BY id LIMIT :limit FOR UPDATE SKIP LOCKED)"
    " RETURNING id";
constexpr const char* kReleaseSuggestion =
    "UPDATE blog_suggestions SET lease_until = NULL, attempts = GREATEST(attempts - 1, 0)"
    " WHERE id = :id AND status = 'pending' AND lease_until IS NOT NULL";
// Locked until the transaction ends: a finding and a decision on one suggestion never interleave.
constexpr const char* kSelectSuggestionStatus =
    "SELECT status FROM blog_suggestions WHERE id = :id FOR UPDATE";
constexpr const char* kSaveSuggestionFinding =
    "UPDATE blog_suggestions SET status = :status, discovered_at = :at, lease_until = NULL,"
    " feed_url = :feed_url, site_url = :site_url, title = :title, format = :format, entries = :entries,"
    " newest_post_at = :newest_post_at, error = :error, blog_id = :blog_id WHERE id = :id";
constexpr const char* kDeleteSuggestionPosts = "DELETE FROM blog_suggestion_posts WHERE suggestion_id = :id";
constexpr const char* kInsertSuggestionPost =
    "INSERT INTO blog_suggestion_posts (suggestion_id, position, title, link, published_at, junk, "
    "junk_reason)"
    " VALUES (:id, :position, :title, :link, :published_at, :junk, :junk_reason)";
constexpr const char* kDecideSuggestion =
    "UPDATE blog_suggestions SET status = :status, decided_at = :at, decided_by = :decided_by,"
    " blog_id = COALESCE(:blog_id, blog_id), reason = :reason, lease_until = NULL WHERE id = :id";
// When the earliest pending suggestion may be claimed.
constexpr const char* kNextSuggestionDue =
    "SELECT MIN(COALESCE(lease_until, created_at)) FROM blog_suggestions WHERE status = 'pending'";

std::optional<SuggestionStatus> parse_status(std::string_view text) {
  for (auto s : {SuggestionStatus::kPending, SuggestionStatus::kFound, SuggestionStatus::kFailed,
                 SuggestionStatus::kRefused, SuggestionStatus::kFollowed, SuggestionStatus::kApproved,
                 SuggestionStatus::kRejected}) {
    if (to_string(s) == text) return s;
  }
  return std::nullopt;
}

Suggestion read_suggestion(const Rows& rows, int r) {
  Suggestion s;
  s.id = rows.int64(r, 0);
  s.reader_id = rows.optional_int64(r, 1);
  s.reader_email = rows.string(r, 2);
  s.by_operator = rows.flag(r, 3);
  s.url = rows.string(r, 4);
  s.note = rows.string(r, 5);
  s.category = rows.string(r, 6);
  // The CHECK constraint admits only the known words.
  s.status = parse_status(rows.text(r, 7)).value_or(SuggestionStatus::kPending);
  s.created_at = rows.time(r, 8);
  s.attempts = rows.int32(r, 9);
  s.discovered_at = rows.optional_time(r, 10);
  s.feed_url = rows.string(r, 11);
  s.site_url = rows.string(r, 12);
  s.title = rows.string(r, 13);
  s.format = rows.string(r, 14);
  s.entries = rows.int64(r, 15);
  s.newest_post = rows.optional_time(r, 16);
  s.error = rows.string(r, 17);
  s.blog_id = rows.optional_int64(r, 18);
  s.decided_at = rows.optional_time(r, 19);
  s.decided_by = rows.string(r, 20);
  s.reason = rows.string(r, 21);
  return s;
}

// Rows of a listing, each with its posts.
template <typename Bind>
Result<std::vector<Suggestion>> read_suggestions(Connection& c, const char* sql, Bind bind) {
  auto rows = run_query(c, sql, "cannot read suggestions", bind);
  if (!rows) return std::unexpected(rows.error());
  std::vector<Suggestion> out;
  for (int r = 0; r < rows->size(); ++r) out.push_back(read_suggestion(*rows, r));
  for (auto& s : out) {
    auto posts = run_query(c, kSelectSuggestionPosts, "cannot read suggestion",
                           [&](Query& q) { q.bind(":id", s.id); });
    if (!posts) return std::unexpected(posts.error());
    for (int r = 0; r < posts->size(); ++r) {
      s.posts.push_back({.title = posts->string(r, 0),
                         .link = posts->string(r, 1),
                         .published = posts->optional_time(r, 2),
                         .junk = posts->flag(r, 3),
                         .junk_reason = posts->string(r, 4)});
    }
  }
  return out;
}

Result<std::optional<Suggestion>> read_one(Connection& c, std::int64_t id) {
  auto rows = read_suggestions(c, kSelectSuggestion, [&](Query& q) { q.bind(":id", id); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::optional<Suggestion>{};
  return std::optional<Suggestion>{std::move(rows->front())};
}

Result<Suggestion> must_read(Connection& c, std::int64_t id) {
  auto s = read_one(c, id);
  if (!s) return std::unexpected(s.error());
  if (!*s) return fail(ErrorKind::kNotFound, fmt::format("store: no suggestion {}", id));
  return std::move(**s);
}

// The status of suggestion `id`, its row locked for the rest of the transaction; nullopt: no such one.
Result<std::optional<SuggestionStatus>> lock_status(Connection& c, std::int64_t id) {
  auto rows =
      run_query(c, kSelectSuggestionStatus, "cannot read suggestion", [&](Query& q) { q.bind(":id", id); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::optional<SuggestionStatus>{};
  return parse_status(rows->text(0, 0));
}

}  // namespace

Result<Suggestion> PgSuggestionStore::add_suggestion(const NewSuggestion& in) {
  constexpr std::string_view kFailed = "cannot add suggestion";
  std::int64_t id = 0;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    id = 0;
    if (in.per_day > 0 && in.reader_id && !in.by_operator) {
      if (auto ok =
              run_query(c, kLockReader, kFailed, [&](Query& q) { q.bind(":reader_id", *in.reader_id); });
          !ok)
        return std::unexpected(ok.error());
      auto count = run_query(c, kCountReaderSuggestionsSince, kFailed, [&](Query& q) {
        q.bind(":reader_id", *in.reader_id).bind(":since", in.now - std::chrono::hours(24));
      });
      if (!count) return std::unexpected(count.error());
      if (count->int64(0, 0) >= in.per_day) {
        return fail(
            ErrorKind::kRateLimited,
            fmt::format("store: reader {} is at {} suggestions a day", *in.reader_id, in.per_day),
            fmt::format("You have suggested {} blogs in the last 24 hours, the most a reader may. Please "
                        "try again tomorrow.",
                        in.per_day));
      }
    }
    auto rows = run_query(c, kInsertSuggestion, kFailed, [&](Query& q) {
      q.bind(":reader_id", in.reader_id).bind(":by_operator", in.by_operator).bind(":url", in.url);
      q.bind(":note", in.note).bind(":category", in.category).bind(":created_at", in.now);
    });
    if (!rows) return std::unexpected(rows.error());
    id = rows->int64(0, 0);
    return {};
  });
  if (!done) return std::unexpected(done.error());
  Pool::Lease lease = db_.pool().acquire();
  return must_read(*lease, id);
}

Result<std::vector<Suggestion>> PgSuggestionStore::claim_suggestions(TimePoint now, TimePoint lease_until,
                                                                     int limit, int max_attempts) {
  constexpr std::string_view kFailed = "cannot claim suggestions";
  std::vector<std::int64_t> ids;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    ids.clear();
    if (auto ok = run_query(c, kFailExhaustedSuggestions, kFailed,
                            [&](Query& q) {
                              q.bind(":error",
                                     fmt::format("discovery did not finish after {} attempts", max_attempts));
                              q.bind(":now", now).bind(":max_attempts", max_attempts);
                            });
        !ok) {
      return std::unexpected(ok.error());
    }
    auto rows = run_query(c, kClaimSuggestions, kFailed, [&](Query& q) {
      q.bind(":lease_until", lease_until).bind(":now", now).bind(":limit", sql_limit(limit));
    });
    if (!rows) return std::unexpected(rows.error());
    for (int r = 0; r < rows->size(); ++r) ids.push_back(rows->int64(r, 0));
    return {};
  });
  if (!done) return std::unexpected(done.error());
  std::ranges::sort(ids);  // the claim's order, oldest first (RETURNING has none)
  Pool::Lease lease = db_.pool().acquire();
  std::vector<Suggestion> out;
  for (const auto id : ids) {
    auto s = must_read(*lease, id);
    if (!s) return std::unexpected(s.error());
    out.push_back(std::move(*s));
  }
  return out;
}

Result<void> PgSuggestionStore::release_suggestion(std::int64_t id) {
  auto rows = run_pooled(db_.pool(), kReleaseSuggestion, "cannot release suggestion",
                         [&](Query& q) { q.bind(":id", id); });
  if (!rows) return std::unexpected(rows.error());
  return {};
}

Result<void> PgSuggestionStore::save_suggestion_finding(std::int64_t id, const SuggestionFinding& finding) {
  constexpr std::string_view kFailed = "cannot save suggestion";
  return in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    auto status = lock_status(c, id);
    if (!status) return std::unexpected(status.error());
    if (!*status) return fail(ErrorKind::kNotFound, fmt::format("store: no suggestion {}", id));
    if (**status != SuggestionStatus::kPending) {
      return fail(ErrorKind::kConflict,
                  fmt::format("store: suggestion {} is {}, not pending", id, to_string(**status)));
    }
    if (auto ok =
            run_query(c, kSaveSuggestionFinding, kFailed,
                      [&](Query& q) {
                        q.bind(":status", to_string(finding.status)).bind(":at", finding.at);
                        q.bind(":feed_url", finding.feed_url).bind(":site_url", finding.site_url);
                        q.bind(":title", finding.title).bind(":format", finding.format);
                        q.bind(":entries", finding.entries).bind(":newest_post_at", finding.newest_post);
                        q.bind(":error", finding.error).bind(":blog_id", finding.blog_id).bind(":id", id);
                      });
        !ok) {
      return std::unexpected(ok.error());
    }
    if (auto ok = run_query(c, kDeleteSuggestionPosts, kFailed, [&](Query& q) { q.bind(":id", id); }); !ok)
      return std::unexpected(ok.error());
    for (std::size_t i = 0; i < finding.posts.size(); ++i) {
      const auto& p = finding.posts[i];
      if (auto ok =
              run_query(c, kInsertSuggestionPost, kFailed,
                        [&](Query& q) {
                          q.bind(":id", id).bind(":position", static_cast<std::int64_t>(i));
                          q.bind(":title", p.title).bind(":link", p.link).bind(":published_at", p.published);
                          q.bind(":junk", p.junk).bind(":junk_reason", p.junk_reason);
                        });
          !ok) {
        return std::unexpected(ok.error());
      }
    }
    return {};
  });
}

Result<Suggestion> PgSuggestionStore::decide_suggestion(std::int64_t id, const SuggestionDecision& decision) {
  if (decision.status != SuggestionStatus::kApproved && decision.status != SuggestionStatus::kRejected) {
    return fail(ErrorKind::kInvalidInput, "store: a decision approves or rejects");
  }
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    auto status = lock_status(c, id);
    if (!status) return std::unexpected(status.error());
    if (!*status) return fail(ErrorKind::kNotFound, fmt::format("store: no suggestion {}", id));
    const bool allowed =
        decision.status == SuggestionStatus::kApproved
            ? **status == SuggestionStatus::kFound
            : **status != SuggestionStatus::kApproved && **status != SuggestionStatus::kRejected;
    if (!allowed) {
      return fail(ErrorKind::kConflict, fmt::format("store: suggestion {} is {}: cannot be {}", id,
                                                    to_string(**status), to_string(decision.status)));
    }
    auto rows = run_query(c, kDecideSuggestion, "cannot decide suggestion", [&](Query& q) {
      q.bind(":status", to_string(decision.status)).bind(":at", decision.at);
      q.bind(":decided_by", decision.decided_by).bind(":blog_id", decision.blog_id);
      q.bind(":reason", decision.reason).bind(":id", id);
    });
    if (!rows) return std::unexpected(rows.error());
    return {};
  });
  if (!done) return std::unexpected(done.error());
  Pool::Lease lease = db_.pool().acquire();
  return must_read(*lease, id);
}

Result<std::optional<Suggestion>> PgSuggestionStore::suggestion(std::int64_t id) {
  Pool::Lease lease = db_.pool().acquire();
  return read_one(*lease, id);
}

Result<std::vector<Suggestion>> PgSuggestionStore::reader_suggestions(std::int64_t reader_id, int limit) {
  Pool::Lease lease = db_.pool().acquire();
  return read_suggestions(*lease, kSelectReaderSuggestions, [&](Query& q) {
    q.bind(":reader_id", reader_id).bind(":limit", sql_limit(limit));
  });
}

Result<std::vector<Suggestion>> PgSuggestionStore::suggestions(int limit) {
  Pool::Lease lease = db_.pool().acquire();
  return read_suggestions(*lease, kSelectSuggestions, [&](Query& q) { q.bind(":limit", sql_limit(limit)); });
}

Result<std::optional<TimePoint>> PgSuggestionStore::next_suggestion_due() {
  auto rows = run_pooled(db_.pool(), kNextSuggestionDue, "cannot read suggestions");
  if (!rows) return std::unexpected(rows.error());
  return rows->optional_time(0, 0);
}

}  // namespace longread::storage::postgres
