// The SQLite side of ReaderMarkStore: votes and their period counts, the reading list, saved links
// (saved_links.cpp) and the feed-app stream (reader_api.cpp).
#include "storage/sqlite/sqlite_store.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "storage/sqlite/article_rows.h"
#include "storage/sqlite/personal_filters.h"
#include "storage/sqlite/query_helpers.h"
#include "storage/sqlite/reader_api.h"
#include "storage/sqlite/saved_links.h"

namespace longread::storage::sqlite {
namespace {

constexpr const char* kSelectVisibleArticle = "SELECT 1 FROM articles WHERE id = :id AND visible = 1";
constexpr const char* kInsertVote =
    "INSERT INTO votes (reader_id, article_id, created_at) VALUES (:reader_id, :article_id, :now)"
    " ON CONFLICT (reader_id, article_id) DO NOTHING";
constexpr const char* kDeleteVote =
    "DELETE FROM votes WHERE reader_id = :reader_id AND article_id = :article_id";
// The hot score follows votes: it is a generated column (migration 0006).
constexpr const char* kAddArticleVotes = "UPDATE articles SET votes = votes + :delta WHERE id = :id";
// Aging Top's period counts (migration 0019): the votes a period's start passes, in batches of votes.
constexpr const char* kSelectCountedFrom = "SELECT counted_from FROM vote_periods WHERE days = :days";
constexpr const char* kSelectAgingBatchEnd =
    "SELECT created_at FROM votes WHERE created_at >= :from AND created_at < :to"
    " ORDER BY created_at LIMIT 1 OFFSET :n";
constexpr const char* kCountVotesBetween =
    "SELECT COUNT(*) FROM votes WHERE created_at >= :from AND created_at < :to";
#define LONGREAD_VOTES_BETWEEN                                                                        \
  " FROM (SELECT article_id, COUNT(*) AS n FROM votes WHERE created_at >= :from AND created_at < :to" \
  " GROUP BY article_id) AS c WHERE articles.id = c.article_id"
constexpr const char* kAgeWeekVotes =
    "UPDATE articles SET votes_week = votes_week - c.n" LONGREAD_VOTES_BETWEEN;
constexpr const char* kAgeMonthVotes =
    "UPDATE articles SET votes_month = votes_month - c.n" LONGREAD_VOTES_BETWEEN;
constexpr const char* kSetCountedFrom = "UPDATE vote_periods SET counted_from = :to WHERE days = :days";
constexpr const char* kSelectArticleVotes =
    "SELECT a.votes, EXISTS (SELECT 1 FROM votes v WHERE v.reader_id = :reader_id AND v.article_id = a.id)"
    " FROM articles a WHERE a.id = :id";
constexpr const char* kSelectVotedAmong =
    "SELECT article_id FROM votes WHERE reader_id = :reader_id AND article_id IN (SELECT value FROM "
    "json_each(:ids))";
constexpr const char* kSelectSavedAmong =
    "SELECT article_id FROM reading_list WHERE reader_id = :reader_id AND article_id IN (SELECT value FROM "
    "json_each(:ids))";

constexpr const char* kInsertSaved =
    "INSERT INTO reading_list (reader_id, article_id, saved_at) VALUES (:reader_id, :article_id, :now)"
    " ON CONFLICT (reader_id, article_id) DO NOTHING";
constexpr const char* kDeleteSaved =
    "DELETE FROM reading_list WHERE reader_id = :reader_id AND article_id = :article_id";
constexpr const char* kSetRead =
    "UPDATE reading_list SET read_at = :read_at WHERE reader_id = :reader_id AND article_id = :article_id";
constexpr const char* kSelectReadingList =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL
    ", l.saved_at, l.read_at FROM reading_list l JOIN articles a ON a.id = l.article_id"
    " JOIN blogs b ON b.id = a.blog_id WHERE l.reader_id = :reader_id"
    " ORDER BY l.saved_at DESC, l.article_id DESC LIMIT :limit OFFSET :offset";
constexpr const char* kCountUnread =
    "SELECT COUNT(*) FROM reading_list WHERE reader_id = :reader_id AND read_at IS NULL";

Result<void> visible_article(Connection& db, std::int64_t article_id) {
  auto found = read_optional(
      db, kSelectVisibleArticle, "cannot read article", [&](Query& q) { q.bind(":id", article_id); },
      [](const Query&) { return true; });
  if (!found) return std::unexpected(found.error());
  if (!*found) {
    return fail(ErrorKind::kNotFound, fmt::format("store: no visible article {}", article_id),
                "No such article.");
  }
  return {};
}

// One transaction of age_period_votes: moves `period`'s start towards `target` over at most
// kAgingBatch votes (all votes of one second together) and takes them out of its counts. Returns how
// many it took out, or -1 when the start had already reached the target. An idle site writes nothing
// until an hour has passed or a vote leaves the period, so the page cache is not emptied every minute.
Result<std::int64_t> age_votes_batch(Connection& db, VotePeriod period, std::int64_t target) {
  static constexpr std::int64_t kAgingBatch = 10000;
  constexpr std::string_view kFailed = "cannot age period votes";
  const int days = period_days(period);
  // Not in_transaction: a batch with nothing to age rolls back rather than commits.
  auto tx = Transaction::begin(db);
  if (!tx) return db_error(kFailed, tx.error());
  auto counted_from = read_optional(
      db, kSelectCountedFrom, kFailed, [&](Query& q) { q.bind(":days", days); },
      [](const Query& q) { return q.int64(0); });
  if (!counted_from) return std::unexpected(counted_from.error());
  if (!*counted_from) return std::int64_t{-1};  // a database from before the period counts has none to age
  const std::int64_t from = **counted_from;
  if (from >= target) return std::int64_t{-1};
  auto batch_end = read_optional(
      db, kSelectAgingBatchEnd, kFailed,
      [&](Query& q) { q.bind(":from", from).bind(":to", target).bind(":n", kAgingBatch); },
      [](const Query& q) { return q.int64(0); });
  if (!batch_end) return std::unexpected(batch_end.error());
  const std::int64_t to = *batch_end ? std::max(**batch_end, from + 1) : target;
  auto count =
      read_int64(db, kCountVotesBetween, kFailed, [&](Query& q) { q.bind(":from", from).bind(":to", to); });
  if (!count) return count;
  if (*count == 0 && to - from < 3600) return std::int64_t{-1};
  if (*count > 0) {
    auto ok = run(db, period == VotePeriod::kWeek ? kAgeWeekVotes : kAgeMonthVotes, kFailed,
                  [&](Query& q) { q.bind(":from", from).bind(":to", to); });
    if (!ok) return std::unexpected(ok.error());
  }
  if (auto ok = run(db, kSetCountedFrom, kFailed, [&](Query& q) { q.bind(":to", to).bind(":days", days); });
      !ok) {
    return std::unexpected(ok.error());
  }
  if (auto ok = tx->commit(); !ok) return db_error(kFailed, ok.error());
  return count;
}

}  // namespace

Result<VoteState> SqliteStore::set_vote(std::int64_t reader_id, std::int64_t article_id, bool vote,
                                        TimePoint now) {
  constexpr std::string_view kFailed = "cannot vote";
  return in_write_transaction(kFailed, [&](Connection& db) -> Result<VoteState> {
    if (auto visible = visible_article(db, article_id); !visible) {
      return std::unexpected(visible.error());
    }
    auto changed = run_changes(db, vote ? kInsertVote : kDeleteVote, kFailed, [&](Query& q) {
      q.bind(":reader_id", reader_id).bind(":article_id", article_id);
      if (vote) q.bind(":now", to_unix(now));
    });
    if (!changed) return std::unexpected(changed.error());
    if (*changed > 0) {  // a repeated vote (or unvote) changes nothing
      auto ok = run(db, kAddArticleVotes, kFailed,
                    [&](Query& q) { q.bind(":delta", vote ? 1 : -1).bind(":id", article_id); });
      if (!ok) return std::unexpected(ok.error());
    }
    return read_one(
        db, kSelectArticleVotes, kFailed,
        [&](Query& q) { q.bind(":reader_id", reader_id).bind(":id", article_id); },
        [](const Query& q) {
          VoteState state;
          state.votes = q.integer(0);
          state.voted = q.int64(1) != 0;
          return state;
        });
  });
}

Result<std::int64_t> SqliteStore::age_period_votes(TimePoint now) {
  std::lock_guard lock(writer_mutex_);
  std::int64_t aged = 0;
  // The week first: its start then stays at or after the month's, as the triggers of migration 0019
  // assume (a vote that counts in the week counts in the month).
  for (const VotePeriod period : {VotePeriod::kWeek, VotePeriod::kMonth}) {
    const int days = period_days(period);
    const std::int64_t target = to_unix(now) - std::int64_t{days} * 86400;
    for (;;) {
      auto batch = age_votes_batch(*writer_, period, target);
      if (!batch) return std::unexpected(batch.error());
      if (*batch < 0) break;  // reached the target
      aged += *batch;
    }
  }
  return aged;
}

Result<ReaderMarks> SqliteStore::reader_marks(std::int64_t reader_id,
                                              const std::vector<std::int64_t>& article_ids) {
  ReaderMarks marks;
  if (article_ids.empty()) return marks;
  return with_reader([&](Connection& db) -> Result<ReaderMarks> {
    const std::string ids = ids_json(article_ids);
    for (const bool voted : {true, false}) {
      auto q = db.query(voted ? kSelectVotedAmong : kSelectSavedAmong);
      if (!q) return db_error("cannot read reader marks", q.error());
      q->bind(":reader_id", reader_id).bind(":ids", ids);
      auto read = for_each_row(*q, "cannot read reader marks", [&](const Query& row) {
        (voted ? marks.voted : marks.saved).push_back(row.int64(0));
      });
      if (!read) return std::unexpected(read.error());
    }
    auto read = sqlite::read_among(db, reader_id, ids);
    if (!read) return std::unexpected(read.error());
    marks.read = std::move(*read);
    return marks;
  });
}

Result<void> SqliteStore::set_saved(std::int64_t reader_id, std::int64_t article_id, bool saved,
                                    TimePoint now) {
  constexpr std::string_view kFailed = "cannot change reading list";
  return in_write_transaction(kFailed, [&](Connection& db) -> Result<void> {
    if (saved) {
      if (auto visible = visible_article(db, article_id); !visible) return std::unexpected(visible.error());
    }
    return run(db, saved ? kInsertSaved : kDeleteSaved, kFailed, [&](Query& q) {
      q.bind(":reader_id", reader_id).bind(":article_id", article_id);
      if (saved) q.bind(":now", to_unix(now));
    });
  });
}

Result<void> SqliteStore::set_read(std::int64_t reader_id, std::int64_t article_id, bool read,
                                   TimePoint now) {
  auto changed = write_changes(kSetRead, "cannot mark read", [&](Query& q) {
    q.bind(":reader_id", reader_id).bind(":article_id", article_id);
    q.bind(":read_at", read ? std::optional<std::int64_t>(to_unix(now)) : std::nullopt);
  });
  if (!changed) return std::unexpected(changed.error());
  if (!*changed) {
    return fail(ErrorKind::kNotFound, fmt::format("store: article {} is not on the reading list", article_id),
                "That article is not on your reading list.");
  }
  return {};
}

Result<std::vector<SavedArticle>> SqliteStore::reading_list(std::int64_t reader_id, int limit, int offset) {
  return with_reader([&](Connection& db) {
    return read_rows(
        db, kSelectReadingList, "cannot read reading list",
        [&](Query& q) {
          q.bind(":reader_id", reader_id)
              .bind(":limit", std::max(limit, 0))
              .bind(":offset", std::max(offset, 0));
        },
        [](const Query& q) {
          return SavedArticle{.view = read_article_view(q),
                              .saved_at = from_unix(q.int64(kArticleColumnCount)),
                              .read_at = optional_time(q, kArticleColumnCount + 1)};
        });
  });
}

Result<std::int64_t> SqliteStore::reading_list_unread(std::int64_t reader_id) {
  return with_reader([&](Connection& db) {
    return read_int64(db, kCountUnread, "cannot count reading list",
                      [&](Query& q) { q.bind(":reader_id", reader_id); });
  });
}

// --- the portable reading list (saved_links.cpp)
Result<ImportSummary> SqliteStore::import_reading_list(std::int64_t reader_id,
                                                       const std::vector<ImportedLink>& links,
                                                       TimePoint now) {
  return with_writer([&](Connection& db) { return sqlite::import_reading_list(db, reader_id, links, now); });
}

Result<std::vector<SavedLink>> SqliteStore::saved_links(std::int64_t reader_id, int limit, int offset) {
  return with_reader([&](Connection& db) { return sqlite::saved_links(db, reader_id, limit, offset); });
}

Result<void> SqliteStore::set_saved_link_read(std::int64_t reader_id, std::int64_t link_id, bool read,
                                              TimePoint now) {
  return with_writer(
      [&](Connection& db) { return sqlite::set_saved_link_read(db, reader_id, link_id, read, now); });
}

Result<void> SqliteStore::remove_saved_link(std::int64_t reader_id, std::int64_t link_id) {
  return with_writer([&](Connection& db) { return sqlite::remove_saved_link(db, reader_id, link_id); });
}

Result<std::optional<std::string>> SqliteStore::reading_list_feed_token(std::int64_t reader_id) {
  return with_reader([&](Connection& db) { return sqlite::reading_list_feed_token(db, reader_id); });
}

Result<void> SqliteStore::set_reading_list_feed_token(std::int64_t reader_id,
                                                      std::optional<std::string> token) {
  return with_writer(
      [&](Connection& db) { return sqlite::set_reading_list_feed_token(db, reader_id, token); });
}

Result<std::optional<std::int64_t>> SqliteStore::reader_by_reading_list_feed_token(std::string_view token) {
  return with_reader([&](Connection& db) { return sqlite::reader_by_reading_list_feed_token(db, token); });
}

Result<StreamPage> SqliteStore::reader_stream(std::int64_t reader_id, const StreamQuery& query) {
  return with_reader([&](Connection& db) { return sqlite::reader_stream(db, reader_id, query); });
}

Result<std::vector<StreamItem>> SqliteStore::reader_items(std::int64_t reader_id,
                                                          const std::vector<std::int64_t>& article_ids) {
  return with_reader([&](Connection& db) { return sqlite::reader_items(db, reader_id, article_ids); });
}

Result<int> SqliteStore::set_articles_read(std::int64_t reader_id,
                                           const std::vector<std::int64_t>& article_ids, bool read,
                                           TimePoint now) {
  return with_writer(
      [&](Connection& db) { return sqlite::set_articles_read(db, reader_id, article_ids, read, now); });
}

Result<void> SqliteStore::mark_stream_read(std::int64_t reader_id, std::optional<std::int64_t> blog_id,
                                           TimePoint before, TimePoint now) {
  return with_writer(
      [&](Connection& db) { return sqlite::mark_stream_read(db, reader_id, blog_id, before, now); });
}

}  // namespace longread::storage::sqlite
