#include "storage/sqlite/suggestions.h"

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>

namespace longread::storage {

std::string_view to_string(SuggestionStatus status) noexcept {
  switch (status) {
    case SuggestionStatus::kPending:
      return "pending";
    case SuggestionStatus::kFound:
      return "found";
    case SuggestionStatus::kFailed:
      return "failed";
    case SuggestionStatus::kRefused:
      return "refused";
    case SuggestionStatus::kFollowed:
      return "followed";
    case SuggestionStatus::kApproved:
      return "approved";
    case SuggestionStatus::kRejected:
      return "rejected";
  }
  return "pending";
}

bool is_closed(SuggestionStatus status) noexcept {
  return status == SuggestionStatus::kFollowed || status == SuggestionStatus::kApproved ||
         status == SuggestionStatus::kRejected;
}

}  // namespace longread::storage

namespace longread::storage::sqlite {
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
// Uses index blog_suggestions_reader.
constexpr const char* kCountReaderSuggestionsSince =
    "SELECT COUNT(*) FROM blog_suggestions WHERE reader_id = :reader_id AND by_operator = 0"
    " AND created_at > :since";
constexpr const char* kInsertSuggestion =
    "INSERT INTO blog_suggestions (reader_id, by_operator, url, note, category, status, created_at)"
    " VALUES (:reader_id, :by_operator, :url, :note, :category, 'pending', :created_at)";
constexpr const char* kFailExhaustedSuggestions =
    "UPDATE blog_suggestions SET status = 'failed', error = :error, discovered_at = :now, lease_until = NULL"
    " WHERE status = 'pending' AND attempts >= :max_attempts AND (lease_until IS NULL OR lease_until <= "
    ":now)";
constexpr const char* kSelectClaimableSuggestions =
    "SELECT id FROM blog_suggestions WHERE status = 'pending' AND (lease_until IS NULL OR lease_until <= "
    ":now)"
    " ORDER BY id LIMIT :limit";
constexpr const char* kLeaseSuggestion =
    "UPDATE blog_suggestions SET lease_until = :lease_until, attempts = attempts + 1 WHERE id = :id";
constexpr const char* kReleaseSuggestion =
    "UPDATE blog_suggestions SET lease_until = NULL, attempts = MAX(attempts - 1, 0)"
    " WHERE id = :id AND status = 'pending' AND lease_until IS NOT NULL";
constexpr const char* kSelectSuggestionStatus = "SELECT status FROM blog_suggestions WHERE id = :id";
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

Suggestion read_suggestion(const Query& q) {
  Suggestion s;
  s.id = q.int64(0);
  s.reader_id = q.optional_int64(1);
  s.reader_email = q.text(2);
  s.by_operator = q.int64(3) != 0;
  s.url = q.text(4);
  s.note = q.text(5);
  s.category = q.text(6);
  // The CHECK constraint of migration 0022 admits only the known words.
  s.status = parse_status(q.text(7)).value_or(SuggestionStatus::kPending);
  s.created_at = from_unix(q.int64(8));
  s.attempts = q.integer(9);
  s.discovered_at = optional_time(q, 10);
  s.feed_url = q.text(11);
  s.site_url = q.text(12);
  s.title = q.text(13);
  s.format = q.text(14);
  s.entries = q.int64(15);
  s.newest_post = optional_time(q, 16);
  s.error = q.text(17);
  s.blog_id = q.optional_int64(18);
  s.decided_at = optional_time(q, 19);
  s.decided_by = q.text(20);
  s.reason = q.text(21);
  return s;
}

Result<void> load_posts(Connection& db, Suggestion& s) {
  auto q = db.query(kSelectSuggestionPosts);
  if (!q) return db_error("cannot read suggestion", q.error());
  q->bind(":id", s.id);
  for (;;) {
    auto row = q->step();
    if (!row) return db_error("cannot read suggestion", row.error());
    if (!*row) break;
    s.posts.push_back({.title = q->text(0),
                       .link = q->text(1),
                       .published = optional_time(*q, 2),
                       .junk = q->int64(3) != 0,
                       .junk_reason = q->text(4)});
  }
  return {};
}

// Rows of a listing, then the posts of each (the listing's statement is reset before the next one runs).
template <typename Bind>
Result<std::vector<Suggestion>> read_suggestions(Connection& db, const char* sql, Bind bind) {
  std::vector<Suggestion> out;
  {
    auto q = db.query(sql);
    if (!q) return db_error("cannot read suggestions", q.error());
    bind(*q);
    for (;;) {
      auto row = q->step();
      if (!row) return db_error("cannot read suggestions", row.error());
      if (!*row) break;
      out.push_back(read_suggestion(*q));
    }
  }
  for (auto& s : out) {
    if (auto ok = load_posts(db, s); !ok) return std::unexpected(ok.error());
  }
  return out;
}

Result<std::optional<SuggestionStatus>> status_of(Connection& db, std::int64_t id) {
  auto q = db.query(kSelectSuggestionStatus);
  if (!q) return db_error("cannot read suggestion", q.error());
  q->bind(":id", id);
  auto row = q->step();
  if (!row) return db_error("cannot read suggestion", row.error());
  if (!*row) return std::optional<SuggestionStatus>{};
  return parse_status(q->text(0));
}

Result<Suggestion> must_read(Connection& db, std::int64_t id) {
  auto s = suggestion(db, id);
  if (!s) return std::unexpected(s.error());
  if (!*s) return fail(ErrorKind::kNotFound, fmt::format("store: no suggestion {}", id));
  return std::move(**s);
}

}  // namespace

Result<Suggestion> add_suggestion(Connection& writer, const NewSuggestion& in) {
  auto tx = Transaction::begin(writer);
  if (!tx) return db_error("cannot add suggestion", tx.error());
  if (in.per_day > 0 && in.reader_id && !in.by_operator) {
    auto q = writer.query(kCountReaderSuggestionsSince);
    if (!q) return db_error("cannot add suggestion", q.error());
    q->bind(":reader_id", *in.reader_id).bind(":since", to_unix(in.now - std::chrono::hours(24)));
    auto row = q->step();
    if (!row) return db_error("cannot add suggestion", row.error());
    if (q->int64(0) >= in.per_day) {
      return fail(
          ErrorKind::kRateLimited,
          fmt::format("store: reader {} is at {} suggestions a day", *in.reader_id, in.per_day),
          fmt::format("You have suggested {} blogs in the last 24 hours, the most a reader may. Please "
                      "try again tomorrow.",
                      in.per_day));
    }
  }
  {
    auto q = writer.query(kInsertSuggestion);
    if (!q) return db_error("cannot add suggestion", q.error());
    q->bind(":reader_id", in.reader_id).bind(":by_operator", in.by_operator).bind(":url", in.url);
    q->bind(":note", in.note).bind(":category", in.category).bind(":created_at", to_unix(in.now));
    if (auto ok = q->run(); !ok) return db_error("cannot add suggestion", ok.error());
  }
  const std::int64_t id = writer.last_insert_rowid();
  if (auto ok = tx->commit(); !ok) return db_error("cannot add suggestion", ok.error());
  return must_read(writer, id);
}

Result<std::vector<Suggestion>> claim_suggestions(Connection& writer, TimePoint now, TimePoint lease_until,
                                                  int limit, int max_attempts) {
  std::vector<std::int64_t> ids;
  {
    auto tx = Transaction::begin(writer);
    if (!tx) return db_error("cannot claim suggestions", tx.error());
    {
      auto q = writer.query(kFailExhaustedSuggestions);
      if (!q) return db_error("cannot claim suggestions", q.error());
      q->bind(":error", fmt::format("discovery did not finish after {} attempts", max_attempts));
      q->bind(":now", to_unix(now)).bind(":max_attempts", max_attempts);
      if (auto ok = q->run(); !ok) return db_error("cannot claim suggestions", ok.error());
    }
    {
      auto q = writer.query(kSelectClaimableSuggestions);
      if (!q) return db_error("cannot claim suggestions", q.error());
      q->bind(":now", to_unix(now)).bind(":limit", limit);
      for (;;) {
        auto row = q->step();
        if (!row) return db_error("cannot claim suggestions", row.error());
        if (!*row) break;
        ids.push_back(q->int64(0));
      }
    }
    for (const auto id : ids) {
      auto q = writer.query(kLeaseSuggestion);
      if (!q) return db_error("cannot claim suggestions", q.error());
      q->bind(":lease_until", to_unix(lease_until)).bind(":id", id);
      if (auto ok = q->run(); !ok) return db_error("cannot claim suggestions", ok.error());
    }
    if (auto ok = tx->commit(); !ok) return db_error("cannot claim suggestions", ok.error());
  }
  std::vector<Suggestion> out;
  for (const auto id : ids) {
    auto s = must_read(writer, id);
    if (!s) return std::unexpected(s.error());
    out.push_back(std::move(*s));
  }
  return out;
}

Result<void> release_suggestion(Connection& writer, std::int64_t id) {
  auto q = writer.query(kReleaseSuggestion);
  if (!q) return db_error("cannot release suggestion", q.error());
  q->bind(":id", id);
  if (auto ok = q->run(); !ok) return db_error("cannot release suggestion", ok.error());
  return {};
}

Result<void> save_suggestion_finding(Connection& writer, std::int64_t id, const SuggestionFinding& finding) {
  auto tx = Transaction::begin(writer);
  if (!tx) return db_error("cannot save suggestion", tx.error());
  auto status = status_of(writer, id);
  if (!status) return std::unexpected(status.error());
  if (!*status) return fail(ErrorKind::kNotFound, fmt::format("store: no suggestion {}", id));
  if (**status != SuggestionStatus::kPending) {
    return fail(ErrorKind::kConflict,
                fmt::format("store: suggestion {} is {}, not pending", id, to_string(**status)));
  }
  {
    auto q = writer.query(kSaveSuggestionFinding);
    if (!q) return db_error("cannot save suggestion", q.error());
    q->bind(":status", to_string(finding.status)).bind(":at", to_unix(finding.at));
    q->bind(":feed_url", finding.feed_url).bind(":site_url", finding.site_url).bind(":title", finding.title);
    q->bind(":format", finding.format).bind(":entries", finding.entries);
    q->bind(":newest_post_at", optional_unix(finding.newest_post)).bind(":error", finding.error);
    q->bind(":blog_id", finding.blog_id).bind(":id", id);
    if (auto ok = q->run(); !ok) return db_error("cannot save suggestion", ok.error());
  }
  {
    auto q = writer.query(kDeleteSuggestionPosts);
    if (!q) return db_error("cannot save suggestion", q.error());
    q->bind(":id", id);
    if (auto ok = q->run(); !ok) return db_error("cannot save suggestion", ok.error());
  }
  for (std::size_t i = 0; i < finding.posts.size(); ++i) {
    const auto& p = finding.posts[i];
    auto q = writer.query(kInsertSuggestionPost);
    if (!q) return db_error("cannot save suggestion", q.error());
    q->bind(":id", id).bind(":position", static_cast<std::int64_t>(i)).bind(":title", p.title);
    q->bind(":link", p.link).bind(":published_at", optional_unix(p.published)).bind(":junk", p.junk);
    q->bind(":junk_reason", p.junk_reason);
    if (auto ok = q->run(); !ok) return db_error("cannot save suggestion", ok.error());
  }
  if (auto ok = tx->commit(); !ok) return db_error("cannot save suggestion", ok.error());
  return {};
}

Result<Suggestion> decide_suggestion(Connection& writer, std::int64_t id,
                                     const SuggestionDecision& decision) {
  if (decision.status != SuggestionStatus::kApproved && decision.status != SuggestionStatus::kRejected) {
    return fail(ErrorKind::kInvalidInput, "store: a decision approves or rejects");
  }
  {
    auto tx = Transaction::begin(writer);
    if (!tx) return db_error("cannot decide suggestion", tx.error());
    auto status = status_of(writer, id);
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
    auto q = writer.query(kDecideSuggestion);
    if (!q) return db_error("cannot decide suggestion", q.error());
    q->bind(":status", to_string(decision.status)).bind(":at", to_unix(decision.at));
    q->bind(":decided_by", decision.decided_by).bind(":blog_id", decision.blog_id);
    q->bind(":reason", decision.reason).bind(":id", id);
    if (auto ok = q->run(); !ok) return db_error("cannot decide suggestion", ok.error());
    if (auto ok = tx->commit(); !ok) return db_error("cannot decide suggestion", ok.error());
  }
  return must_read(writer, id);
}

Result<std::optional<Suggestion>> suggestion(Connection& db, std::int64_t id) {
  auto rows = read_suggestions(db, kSelectSuggestion, [&](Query& q) { q.bind(":id", id); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::optional<Suggestion>{};
  return std::optional<Suggestion>{std::move(rows->front())};
}

Result<std::vector<Suggestion>> reader_suggestions(Connection& db, std::int64_t reader_id, int limit) {
  return read_suggestions(db, kSelectReaderSuggestions,
                          [&](Query& q) { q.bind(":reader_id", reader_id).bind(":limit", limit); });
}

Result<std::vector<Suggestion>> suggestions(Connection& db, int limit) {
  return read_suggestions(db, kSelectSuggestions, [&](Query& q) { q.bind(":limit", limit); });
}

Result<std::optional<TimePoint>> next_suggestion_due(Connection& db) {
  auto q = db.query(kNextSuggestionDue);
  if (!q) return db_error("cannot read suggestions", q.error());
  auto row = q->step();
  if (!row) return db_error("cannot read suggestions", row.error());
  return optional_time(*q, 0);
}

}  // namespace longread::storage::sqlite
