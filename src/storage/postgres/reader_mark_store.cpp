#include "storage/postgres/reader_mark_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string>
#include <utility>

#include "storage/postgres/article_bodies.h"
#include "storage/postgres/reader_filter.h"
#include "storage/postgres/rows.h"
#include "storage/postgres/statement.h"

namespace longread::storage::postgres {
namespace {

// ------------------------------------------------------------------------------ votes

// Locks the article's row (not its key: votes and saves of it by others go on) so that its vote count and
// the reader's vote change together.
constexpr const char* kLockVisibleArticle =
    "SELECT 1 FROM articles WHERE id = :id AND visible = 1 FOR NO KEY UPDATE";
constexpr const char* kSelectVisibleArticle = "SELECT 1 FROM articles WHERE id = :id AND visible = 1";
constexpr const char* kInsertVote =
    "INSERT INTO votes (reader_id, article_id, created_at) VALUES (:reader_id, :article_id, :now)"
    " ON CONFLICT (reader_id, article_id) DO NOTHING";
constexpr const char* kDeleteVote =
    "DELETE FROM votes WHERE reader_id = :reader_id AND article_id = :article_id";
// The hot score follows votes: it is a generated column.
constexpr const char* kAddArticleVotes = "UPDATE articles SET votes = votes + :delta WHERE id = :id";
constexpr const char* kSelectArticleVotes =
    "SELECT a.votes, (EXISTS (SELECT 1 FROM votes v WHERE v.reader_id = :reader_id AND v.article_id = "
    "a.id))::int"
    " FROM articles a WHERE a.id = :id";

// Aging Top's period counts: the votes a period's start passes, in batches of votes. The period's row is
// locked, so two processes aging at once take turns.
constexpr const char* kSelectCountedFrom =
    "SELECT counted_from FROM vote_periods WHERE days = :days FOR UPDATE";
constexpr const char* kSelectAgingBatchEnd =
    "SELECT created_at FROM votes WHERE created_at >= :from AND created_at < :to"
    " ORDER BY created_at LIMIT 1 OFFSET :n";
constexpr const char* kCountVotesBetween =
    "SELECT COUNT(*) FROM votes WHERE created_at >= :from AND created_at < :to";
#define LONGREAD_PG_VOTES_BETWEEN                                                                     \
  " FROM (SELECT article_id, COUNT(*) AS n FROM votes WHERE created_at >= :from AND created_at < :to" \
  " GROUP BY article_id) AS c WHERE articles.id = c.article_id"
constexpr const char* kAgeWeekVotes =
    "UPDATE articles SET votes_week = votes_week - c.n" LONGREAD_PG_VOTES_BETWEEN;
constexpr const char* kAgeMonthVotes =
    "UPDATE articles SET votes_month = votes_month - c.n" LONGREAD_PG_VOTES_BETWEEN;
constexpr const char* kSetCountedFrom = "UPDATE vote_periods SET counted_from = :to WHERE days = :days";

// Sorted by id, as SQLite's index walks give them.
constexpr const char* kSelectVotedAmong =
    "SELECT article_id FROM votes WHERE reader_id = :reader_id AND article_id = ANY(:ids::bigint[])"
    " ORDER BY article_id";
constexpr const char* kSelectSavedAmong =
    "SELECT article_id FROM reading_list WHERE reader_id = :reader_id AND article_id = ANY(:ids::bigint[])"
    " ORDER BY article_id";

// ------------------------------------------------------------------------------ the reading list

constexpr const char* kInsertSaved =
    "INSERT INTO reading_list (reader_id, article_id, saved_at) VALUES (:reader_id, :article_id, :now)"
    " ON CONFLICT (reader_id, article_id) DO NOTHING";
constexpr const char* kDeleteSaved =
    "DELETE FROM reading_list WHERE reader_id = :reader_id AND article_id = :article_id";
constexpr const char* kSetRead =
    "UPDATE reading_list SET read_at = :read_at WHERE reader_id = :reader_id AND article_id = :article_id";
constexpr const char* kSelectReadingList =
    "SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL
    ", l.saved_at, l.read_at FROM reading_list l JOIN articles a ON a.id = l.article_id"
    " JOIN blogs b ON b.id = a.blog_id WHERE l.reader_id = :reader_id"
    " ORDER BY l.saved_at DESC, l.article_id DESC LIMIT :limit OFFSET :offset";
constexpr const char* kCountUnread =
    "SELECT COUNT(*) FROM reading_list WHERE reader_id = :reader_id AND read_at IS NULL";

// The visible article an imported link names: its exact link first, else the same link over the other
// scheme or with the trailing slash toggled (services store what the reader saved; feeds say what the
// blog says). articles_link makes each a few index seeks.
constexpr const char* kArticleByLink =
    "SELECT a.id FROM articles a WHERE a.link IN (:exact, :scheme, :slash, :both) AND a.visible = 1"
    " ORDER BY a.link = :exact DESC, a.id LIMIT 1";
constexpr const char* kSaveImportedArticle =
    "INSERT INTO reading_list (reader_id, article_id, saved_at, read_at)"
    " VALUES (:reader_id, :article_id, :saved_at, :read_at) ON CONFLICT (reader_id, article_id) DO NOTHING";
// Locked so that two imports of one reader at once cannot both pass kMaxSavedLinks.
constexpr const char* kLockReader = "SELECT id FROM readers WHERE id = :reader_id FOR UPDATE";
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

// ------------------------------------------------------------------------------ feed apps' streams

// A reader's marks on each row: an explicit mark wins; else an article dated before the horizon of its
// blog or of every blog is read. Horizons are one row per reader and blog, so "mark all as read" costs a
// row however large the stream. An integer 0/1, as the SQLite backend's.
#define LONGREAD_PG_STREAM_READ                                                                         \
  "COALESCE(r.is_read, (a.display_at < GREATEST(COALESCE(hg.read_before, 0), COALESCE(hb.read_before, " \
  "0)))::int)"
#define LONGREAD_PG_STREAM_MARKS                                                                          \
  ", a.display_at, " LONGREAD_PG_STREAM_READ ", (l.article_id IS NOT NULL)::int" LONGREAD_PG_ARTICLE_FROM \
  " LEFT JOIN article_reads r ON r.reader_id = :reader_id AND r.article_id = a.id"                        \
  " LEFT JOIN read_horizons hg ON hg.reader_id = :reader_id AND hg.blog_id = 0"                           \
  " LEFT JOIN read_horizons hb ON hb.reader_id = :reader_id AND hb.blog_id = a.blog_id"                   \
  " LEFT JOIN reading_list l ON l.reader_id = :reader_id AND l.article_id = a.id"
constexpr const char* kSelectStream =
    "SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD
    " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL LONGREAD_PG_STREAM_MARKS " WHERE a.visible = 1";
constexpr const char* kSelectItem = "SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD
                                    " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL LONGREAD_PG_STREAM_MARKS
                                    " WHERE a.visible = 1 AND a.id = :id";

constexpr const char* kMarkRead =
    "INSERT INTO article_reads (reader_id, article_id, is_read, changed_at)"
    " SELECT :reader_id::bigint, a.id, :is_read::integer, :now::bigint FROM articles a"
    " WHERE a.id = :id AND a.visible = 1"
    " ON CONFLICT (reader_id, article_id) DO UPDATE SET is_read = excluded.is_read,"
    " changed_at = excluded.changed_at";
constexpr const char* kRaiseHorizon =
    "INSERT INTO read_horizons (reader_id, blog_id, read_before) VALUES (:reader_id, :blog_id, :before)"
    " ON CONFLICT (reader_id, blog_id) DO UPDATE SET"
    " read_before = GREATEST(read_horizons.read_before, excluded.read_before)";
// Marks under the new horizon say nothing it does not (read) or are undone by it (kept unread): dropped,
// which keeps the table to what the reader touched since their last "mark all as read".
constexpr const char* kDropMarksUnderHorizon =
    "DELETE FROM article_reads WHERE reader_id = :reader_id AND article_id IN (SELECT r.article_id FROM "
    "article_reads r JOIN articles a ON a.id = r.article_id WHERE r.reader_id = :reader_id AND a.display_at "
    "< :before AND (:blog_id::bigint = 0 OR a.blog_id = :blog_id))";

std::unexpected<Error> no_visible_article(std::int64_t article_id) {
  return fail(ErrorKind::kNotFound, fmt::format("store: no visible article {}", article_id),
              "No such article.");
}

std::string other_scheme(std::string_view url) {
  if (url.starts_with("https://")) return "http://" + std::string(url.substr(8));
  if (url.starts_with("http://")) return "https://" + std::string(url.substr(7));
  return std::string(url);
}

std::string other_slash(std::string_view url) {
  if (url.ends_with('/')) return std::string(url.substr(0, url.size() - 1));
  return std::string(url) + "/";
}

std::unexpected<Error> no_saved_link(std::int64_t link_id) {
  return fail(ErrorKind::kNotFound, fmt::format("store: no saved link {}", link_id),
              "That link is not on your reading list.");
}

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

StreamItem read_item(const Rows& rows, int r, BodyDictionaries& bodies, const BodyDictionarySource& source) {
  StreamItem item;
  item.view = read_article_view(rows, r, bodies, source);
  item.display_at = rows.time(r, kArticleColumnCount);
  item.read = rows.flag(r, kArticleColumnCount + 1);
  item.starred = rows.flag(r, kArticleColumnCount + 2);
  return item;
}

std::vector<std::int64_t> first_column(const Rows& rows) {
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(rows.size()));
  for (int r = 0; r < rows.size(); ++r) out.push_back(rows.int64(r, 0));
  return out;
}

// One batch of aging `period` towards `target` (unix seconds) in one transaction: how many counts it
// lowered, or -1 when the period's start has reached the target.
Result<std::int64_t> age_votes_batch(Database& db, VotePeriod period, std::int64_t target) {
  static constexpr std::int64_t kAgingBatch = 10000;
  constexpr std::string_view kWhat = "cannot age period votes";
  const int days = period_days(period);
  std::int64_t result = -1;
  auto done = in_transaction(db.pool(), [&](Connection& c) -> Result<void> {
    result = -1;
    auto counted = run_query(c, kSelectCountedFrom, kWhat, [&](Query& q) { q.bind(":days", days); });
    if (!counted) return std::unexpected(counted.error());
    if (counted->empty()) return {};  // no period counts to age
    const std::int64_t from = counted->int64(0, 0);
    if (from >= target) return {};
    std::int64_t to = target;
    auto end = run_query(c, kSelectAgingBatchEnd, kWhat, [&](Query& q) {
      q.bind(":from", from).bind(":to", target).bind(":n", kAgingBatch);
    });
    if (!end) return std::unexpected(end.error());
    if (!end->empty()) to = std::max(end->int64(0, 0), from + 1);
    auto between = [&](Query& q) { q.bind(":from", from).bind(":to", to); };
    auto count = run_query(c, kCountVotesBetween, kWhat, between);
    if (!count) return std::unexpected(count.error());
    const std::int64_t n = count->int64(0, 0);
    if (n == 0 && to - from < 3600) return {};
    if (n > 0) {
      if (auto ok =
              run_query(c, period == VotePeriod::kWeek ? kAgeWeekVotes : kAgeMonthVotes, kWhat, between);
          !ok)
        return std::unexpected(ok.error());
    }
    if (auto ok =
            run_query(c, kSetCountedFrom, kWhat, [&](Query& q) { q.bind(":to", to).bind(":days", days); });
        !ok)
      return std::unexpected(ok.error());
    result = n;
    return {};
  });
  if (!done) return std::unexpected(done.error());
  return result;
}

}  // namespace

// ---------------------------------------------------------------------------- votes

Result<VoteState> PgReaderMarkStore::set_vote(std::int64_t reader_id, std::int64_t article_id, bool vote,
                                              TimePoint now) {
  constexpr std::string_view kWhat = "cannot vote";
  VoteState state;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    state = {};
    auto visible = run_query(c, kLockVisibleArticle, "cannot read article",
                             [&](Query& q) { q.bind(":id", article_id); });
    if (!visible) return std::unexpected(visible.error());
    if (visible->empty()) return no_visible_article(article_id);
    auto changed = run_query(c, vote ? kInsertVote : kDeleteVote, kWhat, [&](Query& q) {
      q.bind(":reader_id", reader_id).bind(":article_id", article_id);
      if (vote) q.bind(":now", now);
    });
    if (!changed) return std::unexpected(changed.error());
    if (changed->affected() > 0) {  // a repeated vote (or unvote) changes nothing
      if (auto ok = run_query(c, kAddArticleVotes, kWhat,
                              [&](Query& q) { q.bind(":delta", vote ? 1 : -1).bind(":id", article_id); });
          !ok)
        return std::unexpected(ok.error());
    }
    auto rows = run_query(c, kSelectArticleVotes, kWhat,
                          [&](Query& q) { q.bind(":reader_id", reader_id).bind(":id", article_id); });
    if (!rows) return std::unexpected(rows.error());
    if (!rows->empty()) {
      state.votes = rows->int32(0, 0);
      state.voted = rows->flag(0, 1);
    }
    return {};
  });
  if (!done) return std::unexpected(done.error());
  return state;
}

Result<std::int64_t> PgReaderMarkStore::age_period_votes(TimePoint now) {
  std::int64_t aged = 0;
  // The week first: its start then stays at or after the month's, as the vote triggers assume (a vote that
  // counts in the week counts in the month).
  for (const VotePeriod period : {VotePeriod::kWeek, VotePeriod::kMonth}) {
    const std::int64_t target = to_unix(now) - std::int64_t{period_days(period)} * 86400;
    for (;;) {
      auto batch = age_votes_batch(db_, period, target);
      if (!batch) return std::unexpected(batch.error());
      if (*batch < 0) break;  // reached the target
      aged += *batch;
    }
  }
  return aged;
}

Result<ReaderMarks> PgReaderMarkStore::reader_marks(std::int64_t reader_id,
                                                    const std::vector<std::int64_t>& article_ids) {
  ReaderMarks marks;
  if (article_ids.empty()) return marks;
  constexpr std::string_view kWhat = "cannot read reader marks";
  const std::string ids = id_array(article_ids);
  auto lease = db_.pool().acquire();
  auto bind = [&](Query& q) { q.bind(":reader_id", reader_id).bind(":ids", ids); };
  auto voted = run_query(*lease, kSelectVotedAmong, kWhat, bind);
  if (!voted) return std::unexpected(voted.error());
  marks.voted = first_column(*voted);
  auto saved = run_query(*lease, kSelectSavedAmong, kWhat, bind);
  if (!saved) return std::unexpected(saved.error());
  marks.saved = first_column(*saved);
  auto read = run_query(*lease,
                        "SELECT a.id FROM articles a WHERE a.id = ANY(:ids::bigint[]) AND " +
                            read_expression("a") + " = 1 ORDER BY a.id",
                        "cannot read read marks",
                        [&](Query& q) { q.bind(":ids", ids).bind(":filter_reader", reader_id); });
  if (!read) return std::unexpected(read.error());
  marks.read = first_column(*read);
  return marks;
}

// ---------------------------------------------------------------------------- the reading list

Result<void> PgReaderMarkStore::set_saved(std::int64_t reader_id, std::int64_t article_id, bool saved,
                                          TimePoint now) {
  constexpr std::string_view kWhat = "cannot change reading list";
  return in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    if (saved) {
      auto visible = run_query(c, kSelectVisibleArticle, "cannot read article",
                               [&](Query& q) { q.bind(":id", article_id); });
      if (!visible) return std::unexpected(visible.error());
      if (visible->empty()) return no_visible_article(article_id);
    }
    auto rows = run_query(c, saved ? kInsertSaved : kDeleteSaved, kWhat, [&](Query& q) {
      q.bind(":reader_id", reader_id).bind(":article_id", article_id);
      if (saved) q.bind(":now", now);
    });
    if (!rows) return std::unexpected(rows.error());
    return {};
  });
}

Result<void> PgReaderMarkStore::set_read(std::int64_t reader_id, std::int64_t article_id, bool read,
                                         TimePoint now) {
  auto rows = run_pooled(db_.pool(), kSetRead, "cannot mark read", [&](Query& q) {
    q.bind(":reader_id", reader_id).bind(":article_id", article_id);
    q.bind(":read_at", read ? std::optional<TimePoint>(now) : std::nullopt);
  });
  if (!rows) return std::unexpected(rows.error());
  if (rows->affected() == 0) {
    return fail(ErrorKind::kNotFound, fmt::format("store: article {} is not on the reading list", article_id),
                "That article is not on your reading list.");
  }
  return {};
}

Result<std::vector<SavedArticle>> PgReaderMarkStore::reading_list(std::int64_t reader_id, int limit,
                                                                  int offset) {
  auto rows = run_pooled(db_.pool(), kSelectReadingList, "cannot read reading list", [&](Query& q) {
    q.bind(":reader_id", reader_id).bind(":limit", std::max(limit, 0)).bind(":offset", std::max(offset, 0));
  });
  if (!rows) return std::unexpected(rows.error());
  std::vector<SavedArticle> out;
  for (int r = 0; r < rows->size(); ++r) {
    out.push_back({.view = read_article_view(*rows, r, db_.bodies(), PgPoolBodyDictionaries(db_.pool())),
                   .saved_at = rows->time(r, kArticleColumnCount),
                   .read_at = rows->optional_time(r, kArticleColumnCount + 1)});
  }
  return out;
}

Result<std::int64_t> PgReaderMarkStore::reading_list_unread(std::int64_t reader_id) {
  auto rows = run_pooled(db_.pool(), kCountUnread, "cannot count reading list",
                         [&](Query& q) { q.bind(":reader_id", reader_id); });
  if (!rows) return std::unexpected(rows.error());
  return rows->int64(0, 0);
}

Result<ImportSummary> PgReaderMarkStore::import_reading_list(std::int64_t reader_id,
                                                             const std::vector<ImportedLink>& links,
                                                             TimePoint now) {
  constexpr std::string_view kWhat = "cannot import reading list";
  ImportSummary summary;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    summary = {};
    auto bind_reader = [&](Query& q) { q.bind(":reader_id", reader_id); };
    if (auto locked = run_query(c, kLockReader, kWhat, bind_reader); !locked)
      return std::unexpected(locked.error());
    auto count = run_query(c, kCountLinks, kWhat, bind_reader);
    if (!count) return std::unexpected(count.error());
    std::int64_t kept = count->int64(0, 0);
    for (const ImportedLink& link : links) {
      const TimePoint saved_at = link.saved_at ? std::min(*link.saved_at, now) : now;
      // Read in the other service: read here from the import on.
      auto bind_read_at = [&](Query& q) {
        if (link.read) {
          q.bind(":read_at", now);
        } else {
          q.bind(":read_at", std::nullopt);
        }
      };
      const std::string scheme = other_scheme(link.url);
      auto article = run_query(c, kArticleByLink, kWhat, [&](Query& q) {
        q.bind(":exact", link.url)
            .bind(":scheme", scheme)
            .bind(":slash", other_slash(link.url))
            .bind(":both", other_slash(scheme));
      });
      if (!article) return std::unexpected(article.error());
      if (!article->empty()) {
        auto saved = run_query(c, kSaveImportedArticle, kWhat, [&](Query& q) {
          q.bind(":reader_id", reader_id)
              .bind(":article_id", article->int64(0, 0))
              .bind(":saved_at", saved_at);
          bind_read_at(q);
        });
        if (!saved) return std::unexpected(saved.error());
        ++(saved->affected() > 0 ? summary.articles : summary.already);
        continue;
      }
      if (kept >= kMaxSavedLinks) {
        ++summary.over_limit;
        continue;
      }
      auto inserted = run_query(c, kInsertLink, kWhat, [&](Query& q) {
        q.bind(":reader_id", reader_id)
            .bind(":url", link.url)
            .bind(":title", link.title)
            .bind(":saved_at", saved_at);
        bind_read_at(q);
      });
      if (!inserted) return std::unexpected(inserted.error());
      if (inserted->affected() > 0) {
        ++summary.links;
        ++kept;
      } else {
        ++summary.already;
      }
    }
    return {};
  });
  if (!done) return std::unexpected(done.error());
  return summary;
}

Result<std::vector<SavedLink>> PgReaderMarkStore::saved_links(std::int64_t reader_id, int limit, int offset) {
  auto rows = run_pooled(db_.pool(), kSelectLinks, "cannot read saved links", [&](Query& q) {
    q.bind(":reader_id", reader_id).bind(":limit", std::max(limit, 0)).bind(":offset", std::max(offset, 0));
  });
  if (!rows) return std::unexpected(rows.error());
  std::vector<SavedLink> out;
  for (int r = 0; r < rows->size(); ++r) {
    out.push_back({.id = rows->int64(r, 0),
                   .url = rows->string(r, 1),
                   .title = rows->string(r, 2),
                   .saved_at = rows->time(r, 3),
                   .read_at = rows->optional_time(r, 4)});
  }
  return out;
}

Result<void> PgReaderMarkStore::set_saved_link_read(std::int64_t reader_id, std::int64_t link_id, bool read,
                                                    TimePoint now) {
  auto rows = run_pooled(db_.pool(), kSetLinkRead, "cannot mark saved link", [&](Query& q) {
    q.bind(":reader_id", reader_id).bind(":id", link_id);
    q.bind(":read_at", read ? std::optional<TimePoint>(now) : std::nullopt);
  });
  if (!rows) return std::unexpected(rows.error());
  if (rows->affected() == 0) return no_saved_link(link_id);
  return {};
}

Result<void> PgReaderMarkStore::remove_saved_link(std::int64_t reader_id, std::int64_t link_id) {
  auto rows = run_pooled(db_.pool(), kDeleteLink, "cannot remove saved link",
                         [&](Query& q) { q.bind(":reader_id", reader_id).bind(":id", link_id); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->affected() == 0) return no_saved_link(link_id);
  return {};
}

Result<std::optional<std::string>> PgReaderMarkStore::reading_list_feed_token(std::int64_t reader_id) {
  auto rows = run_pooled(db_.pool(), kSelectFeedToken, "cannot read feed token",
                         [&](Query& q) { q.bind(":reader_id", reader_id); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty() || rows->null(0, 0)) return std::optional<std::string>{};
  return std::optional<std::string>{rows->string(0, 0)};
}

Result<void> PgReaderMarkStore::set_reading_list_feed_token(std::int64_t reader_id,
                                                            std::optional<std::string> token) {
  auto rows = run_pooled(db_.pool(), kSetFeedToken, "cannot set feed token",
                         [&](Query& q) { q.bind(":reader_id", reader_id).bind(":token", token); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->affected() == 0)
    return fail(ErrorKind::kNotFound, fmt::format("store: no reader {}", reader_id), "No such account.");
  return {};
}

Result<std::optional<std::int64_t>> PgReaderMarkStore::reader_by_reading_list_feed_token(
    std::string_view token) {
  auto rows = run_pooled(db_.pool(), kReaderByFeedToken, "cannot read feed token",
                         [&](Query& q) { q.bind(":token", token); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::optional<std::int64_t>{};
  return std::optional<std::int64_t>{rows->int64(0, 0)};
}

// ---------------------------------------------------------------------------- feed apps' streams

Result<StreamPage> PgReaderMarkStore::reader_stream(std::int64_t reader_id, const StreamQuery& query) {
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
  if (query.read) sql += " AND " LONGREAD_PG_STREAM_READ " = :read";
  if (query.newer_than) sql += " AND a.display_at >= :newer_than";
  if (query.older_than) sql += " AND a.display_at < :older_than";
  if (after)
    sql += query.oldest_first ? " AND (a.display_at, a.id) > (:c_at::bigint, :c_id::bigint)"
                              : " AND (a.display_at, a.id) < (:c_at::bigint, :c_id::bigint)";
  sql += query.oldest_first ? " ORDER BY a.display_at, a.id" : " ORDER BY a.display_at DESC, a.id DESC";
  sql += " LIMIT :limit";
  const int size = std::max(query.limit, 0);
  auto rows = run_pooled(db_.pool(), sql, "cannot read stream", [&](Query& q) {
    q.bind(":reader_id", reader_id);
    if (query.blog_id) q.bind(":blog_id", *query.blog_id);
    if (query.category) q.bind(":category", *query.category);
    if (query.read) q.bind(":read", *query.read);
    if (query.newer_than) q.bind(":newer_than", *query.newer_than);
    if (query.older_than) q.bind(":older_than", *query.older_than);
    if (after) q.bind(":c_at", after->first).bind(":c_id", after->second);
    q.bind(":limit", size + 1);
  });
  if (!rows) return std::unexpected(rows.error());
  StreamPage page;
  for (int r = 0; r < rows->size(); ++r) {
    if (static_cast<int>(page.items.size()) == size) {
      if (!page.items.empty()) {
        const auto& last = page.items.back();
        page.next = encode_continuation(to_unix(last.display_at), last.view.article.id);
      }
      break;
    }
    page.items.push_back(read_item(*rows, r, db_.bodies(), PgPoolBodyDictionaries(db_.pool())));
  }
  return page;
}

Result<std::vector<StreamItem>> PgReaderMarkStore::reader_items(
    std::int64_t reader_id, const std::vector<std::int64_t>& article_ids) {
  std::vector<StreamItem> out;
  auto lease = db_.pool().acquire();
  for (const std::int64_t id : article_ids) {
    auto rows = run_query(*lease, kSelectItem, "cannot read items",
                          [&](Query& q) { q.bind(":reader_id", reader_id).bind(":id", id); });
    if (!rows) return std::unexpected(rows.error());
    if (!rows->empty()) out.push_back(read_item(*rows, 0, db_.bodies(), PgBodyDictionaries(*lease)));
  }
  return out;
}

Result<int> PgReaderMarkStore::set_articles_read(std::int64_t reader_id,
                                                 const std::vector<std::int64_t>& article_ids, bool read,
                                                 TimePoint now) {
  int marked = 0;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    marked = 0;
    for (const std::int64_t id : article_ids) {
      auto rows = run_query(c, kMarkRead, "cannot mark read", [&](Query& q) {
        q.bind(":reader_id", reader_id).bind(":is_read", read).bind(":now", now).bind(":id", id);
      });
      if (!rows) return std::unexpected(rows.error());
      marked += rows->affected() > 0 ? 1 : 0;
    }
    return {};
  });
  if (!done) return std::unexpected(done.error());
  return marked;
}

Result<void> PgReaderMarkStore::mark_stream_read(std::int64_t reader_id, std::optional<std::int64_t> blog_id,
                                                 TimePoint before, TimePoint /*now*/) {
  constexpr std::string_view kWhat = "cannot mark all as read";
  return in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    auto bind = [&](Query& q) {
      q.bind(":reader_id", reader_id).bind(":blog_id", blog_id.value_or(0)).bind(":before", before);
    };
    if (auto ok = run_query(c, kRaiseHorizon, kWhat, bind); !ok) return std::unexpected(ok.error());
    if (auto ok = run_query(c, kDropMarksUnderHorizon, kWhat, bind); !ok) return std::unexpected(ok.error());
    return {};
  });
}

}  // namespace longread::storage::postgres
