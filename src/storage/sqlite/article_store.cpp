// The SQLite side of ArticleStore's reads: one article, listings (offset and keyset pages), the hot
// page with its per-blog cap, categories, counts, the simhash index and the junk review lists.
#include "storage/sqlite/sqlite_store.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/core.h>

#include "storage/listing_keys.h"
#include "storage/sqlite/article_rows.h"
#include "storage/sqlite/duplicate_log.h"
#include "storage/sqlite/personal_filters.h"
#include "storage/sqlite/query_helpers.h"

namespace longread::storage::sqlite {
namespace {

constexpr const char* kCountArticles = "SELECT COUNT(*) FROM articles";

// Originals only: an article already marked a duplicate never becomes the original of another.
constexpr const char* kSelectSimhashIndex =
    "SELECT id, blog_id, simhash, display_at FROM articles WHERE duplicate_of IS NULL AND simhash <> 0";

constexpr const char* kSelectCategories =
    "SELECT slug, name, visible_articles FROM categories ORDER BY name, slug";

// count_articles without filters, or by blog or category alone, reads the trigger-kept counts.
constexpr const char* kCountAllVisible = "SELECT COALESCE(SUM(visible_articles), 0) FROM categories";
constexpr const char* kCountVisibleInBlog = "SELECT visible_articles FROM blogs WHERE id = :blog_id";
constexpr const char* kCountVisibleInCategory =
    "SELECT visible_articles FROM categories WHERE slug = :category";

constexpr const char* kSelectFullArticle =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD
    " longread_body_part(a.body, 0, a.summary_html), longread_body_part(a.body, 1, a.content_html),"
    " longread_body_part(a.body, 2, a.text)," LONGREAD_ARTICLE_COLUMNS_TAIL LONGREAD_ARTICLE_FROM
    " WHERE a.id = :id";
// After the article columns: the parts of the sort key that ArticleView does not hold (display_at; the
// period's votes for Top by period), for the next page's cursor. The period's count is a column of its own
// (votes_week, votes_month: migration 0019), so Top by period is one walk of that period's partial index.
constexpr const char* kSelectListedArticles =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL
    ", a.display_at, 0" LONGREAD_ARTICLE_FROM;
constexpr const char* kSelectListedByWeek =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL
    ", a.display_at, a.votes_week" LONGREAD_ARTICLE_FROM;
constexpr const char* kSelectListedByMonth =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL
    ", a.display_at, a.votes_month" LONGREAD_ARTICLE_FROM;
constexpr const char* kCountListedArticles = "SELECT COUNT(*) FROM articles a";

// ArticleQuery filters, appended (as text without values) to the two statements above.
constexpr const char* kWhereAll = " WHERE 1 = 1";
constexpr const char* kWhereVisible = " WHERE a.visible = 1";
constexpr const char* kAndBlog = " AND a.blog_id = :blog_id";
constexpr const char* kAndCategory = " AND a.category = :category";
constexpr const char* kAndSince = " AND a.display_at >= :since";
constexpr const char* kAndUntil = " AND a.display_at < :until";
constexpr const char* kAndNotBlog = " AND a.blog_id <> :exclude_blog_id";
constexpr const char* kAndNotArticle = " AND a.id <> :exclude_article_id";
constexpr const char* kAndVoted = " AND a.votes > 0";
constexpr const char* kOrderNewest = " ORDER BY a.display_at DESC, a.id DESC";
constexpr const char* kOrderTop = " ORDER BY a.votes DESC, a.display_at DESC, a.id DESC";
constexpr const char* kOrderHot = " ORDER BY a.score DESC, a.display_at DESC, a.id DESC";
// The partial indexes of migration 0019 are used only when the query says their WHERE clause itself.
constexpr const char* kAndVotedThisWeek = " AND a.votes_week > 0";
constexpr const char* kAndVotedThisMonth = " AND a.votes_month > 0";
constexpr const char* kOrderWeek = " ORDER BY a.votes_week DESC, a.votes DESC, a.display_at DESC, a.id DESC";
constexpr const char* kOrderMonth =
    " ORDER BY a.votes_month DESC, a.votes DESC, a.display_at DESC, a.id DESC";
constexpr const char* kLimitOffset = " LIMIT :limit OFFSET :offset";
// Keyset pagination (ArticleQuery::after): the rows after the cursor's sort key, in the order's direction.
// A row value compared with `<` is the order's lexicographic "after" for an all-descending order, and
// SQLite seeks the listing's index to it (https://sqlite.org/rowvalue.html#scrolling_window_queries), so a
// deep page costs what the first does.
constexpr const char* kAfterNewest = " AND (a.display_at, a.id) < (:c_display_at, :c_id)";
constexpr const char* kAfterTop = " AND (a.votes, a.display_at, a.id) < (:c_votes, :c_display_at, :c_id)";
constexpr const char* kAfterHot = " AND (a.score, a.display_at, a.id) < (:c_score, :c_display_at, :c_id)";
constexpr const char* kAfterWeek =
    " AND (a.votes_week, a.votes, a.display_at, a.id) < (:c_period_votes, :c_votes, :c_display_at, :c_id)";
constexpr const char* kAfterMonth =
    " AND (a.votes_month, a.votes, a.display_at, a.id) < (:c_period_votes, :c_votes, :c_display_at, :c_id)";

#define LONGREAD_HOT_AFTER " AND (a.score, a.display_at, a.id) < (:c_score, :c_display_at, :c_id)"
// hot_page's walk down the hot order: the (id, blog_id) entries of articles_hot or articles_category_hot
// (migration 0018), then the page's rows by id.
// (hot_walk_sql), by category or not, resumed after a cursor (HotPageQuery::after) or not, with a reader's
// filters or not; and the entries a cursor held back.
constexpr const char* kWalkHotSelect = "SELECT a.id, a.blog_id, a.score, a.display_at FROM articles a WHERE";
constexpr const char* kWalkHotOrder = " ORDER BY a.score DESC, a.display_at DESC, a.id DESC";
constexpr const char* kSelectHotEntriesByIds =
    "SELECT a.id, a.blog_id, a.score, a.display_at, a.category FROM articles a"
    " WHERE a.id IN (SELECT value FROM json_each(:ids)) AND a.visible = 1";
constexpr const char* kSelectListedByIds =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL LONGREAD_ARTICLE_FROM
    " WHERE a.id IN (SELECT value FROM json_each(:ids))";

constexpr const char* kSelectRecentJunk =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL LONGREAD_ARTICLE_FROM
    " WHERE a.junk = 1 OR a.keep_override = 0 ORDER BY a.first_seen DESC, a.id DESC LIMIT :limit";

// A range of the articles_newest index (visible, display_at), then the shortest first.
constexpr const char* kSelectNearMisses =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL LONGREAD_ARTICLE_FROM
    " WHERE a.visible = 1 AND a.display_at >= :since AND a.junk = 0 AND a.keep_override IS NULL"
    " ORDER BY a.word_count, a.id DESC LIMIT :limit";

// The listing statement for a query: constant fragments chosen by which filters are set; values are bound.
std::string listing_sql(const char* select, const ArticleQuery& query, bool with_order) {
  std::string sql = select;
  sql += query.include_junk ? kWhereAll : kWhereVisible;
  if (query.blog_id) sql += kAndBlog;
  if (query.category) sql += kAndCategory;
  if (query.since) sql += kAndSince;
  if (query.until) sql += kAndUntil;
  if (query.exclude_blog_id) sql += kAndNotBlog;
  if (query.exclude_article_id) sql += kAndNotArticle;
  if (query.reader) sql += sqlite::reader_filter_sql(*query.reader);
  const bool week = query.vote_period == VotePeriod::kWeek;
  if (query.vote_period) {
    sql += week ? kAndVotedThisWeek : kAndVotedThisMonth;  // an article counts in a period by its votes then
  } else if (query.voted_only) {
    sql += kAndVoted;
  }
  const bool keyset = !query.after.empty();
  if (with_order && query.vote_period) {
    if (keyset) sql += week ? kAfterWeek : kAfterMonth;
    sql += week ? kOrderWeek : kOrderMonth;
    sql += kLimitOffset;
  } else if (with_order) {
    switch (query.order) {
      case ArticleOrder::kNewest:
        if (keyset) sql += kAfterNewest;
        sql += kOrderNewest;
        break;
      case ArticleOrder::kTop:
        if (keyset) sql += kAfterTop;
        sql += kOrderTop;
        break;
      case ArticleOrder::kHot:
        if (keyset) sql += kAfterHot;
        sql += kOrderHot;
        break;
    }
    sql += kLimitOffset;
  }
  return sql;
}

// hot_page's walk: the articles_hot or articles_category_hot index (migration 0018) from the top or from
// a cursor, less what the reader filtered out.
std::string hot_walk_sql(const HotPageQuery& query, bool after) {
  std::string sql = kWalkHotSelect;
  sql += query.category ? " a.category = :category AND a.visible = 1" : " a.visible = 1";
  if (query.reader) sql += sqlite::reader_filter_sql(*query.reader);
  if (after) sql += LONGREAD_HOT_AFTER;
  sql += kWalkHotOrder;
  return sql;
}

void bind_listing_filters(Query& q, const ArticleQuery& query) {
  if (query.blog_id) q.bind(":blog_id", *query.blog_id);
  if (query.category) q.bind(":category", *query.category);
  if (query.since) q.bind(":since", to_unix(*query.since));
  if (query.until) q.bind(":until", to_unix(*query.until));
  if (query.exclude_blog_id) q.bind(":exclude_blog_id", *query.exclude_blog_id);
  if (query.exclude_article_id) q.bind(":exclude_article_id", *query.exclude_article_id);
  if (query.reader) sqlite::bind_reader_filter(q, *query.reader);
}

}  // namespace

Result<std::optional<ArticleView>> SqliteStore::article(std::int64_t id) {
  return with_reader([&](Connection& db) -> Result<std::optional<ArticleView>> {
    auto q = db.query(kSelectFullArticle);
    if (!q) return db_error("cannot read article", q.error());
    q->bind(":id", id);
    auto row = q->step();
    // A body that cannot be decompressed fails this article's read, with the reason, and nothing else.
    if (!row) return db_error(fmt::format("cannot read article {}", id), row.error());
    if (!*row) return std::optional<ArticleView>{};
    return std::optional<ArticleView>{read_article_view(*q)};
  });
}

Result<std::vector<ArticleView>> SqliteStore::articles(const ArticleQuery& query) {
  auto page = article_page(query);
  if (!page) return std::unexpected(page.error());
  return std::move(page->articles);
}

Result<ArticlePage> SqliteStore::article_page(const ArticleQuery& query) {
  const int size = std::max(query.limit, 0);
  std::optional<Cursor> cursor;
  if (!query.after.empty()) {
    auto parsed = parse_cursor(query.after, cursor_arity(query), false);
    if (!parsed) return std::unexpected(parsed.error());
    cursor = std::move(*parsed);
  }
  auto db = readers_.acquire();
  if (!db) return std::unexpected(db.error());
  const char* select = !query.vote_period                       ? kSelectListedArticles
                       : query.vote_period == VotePeriod::kWeek ? kSelectListedByWeek
                                                                : kSelectListedByMonth;
  auto q = (*db)->query(listing_sql(select, query, true));
  if (!q) return db_error("cannot list articles", q.error());
  bind_listing_filters(*q, query);
  if (cursor) {
    const auto& k = cursor->key;
    if (query.vote_period) {
      q->bind(":c_period_votes", k[0]).bind(":c_votes", k[1]).bind(":c_display_at", k[2]).bind(":c_id", k[3]);
    } else if (query.order == ArticleOrder::kNewest) {
      q->bind(":c_display_at", k[0]).bind(":c_id", k[1]);
    } else if (query.order == ArticleOrder::kTop) {
      q->bind(":c_votes", k[0]).bind(":c_display_at", k[1]).bind(":c_id", k[2]);
    } else {
      auto score = score_from_bits(k[0]);
      if (!score) return std::unexpected(score.error());
      q->bind(":c_score", *score).bind(":c_display_at", k[1]).bind(":c_id", k[2]);
    }
  }
  q->bind(":limit", size + 1).bind(":offset", cursor ? 0 : std::max(query.offset, 0));
  ArticlePage out;
  std::vector<std::int64_t> last_key;
  for (;;) {
    auto row = q->step();
    if (!row) return db_error("cannot list articles", row.error());
    if (!*row) break;
    if (static_cast<int>(out.articles.size()) == size) {
      out.has_more = true;
      break;
    }
    out.articles.push_back(read_article_view(*q));
    const std::int64_t id = q->int64(0);
    const std::int64_t display_at = q->int64(kArticleColumnCount);
    if (query.vote_period) {
      last_key = {q->int64(kArticleColumnCount + 1), q->int64(24), display_at, id};
    } else if (query.order == ArticleOrder::kNewest) {
      last_key = {display_at, id};
    } else if (query.order == ArticleOrder::kTop) {
      last_key = {q->int64(24), display_at, id};
    } else {
      last_key = {score_bits(q->real(25)), display_at, id};
    }
  }
  if (out.has_more) out.next = encode_cursor(last_key);
  return out;
}

Result<std::int64_t> SqliteStore::count_articles(const ArticleQuery& query) {
  const bool only_blog_or_category = !query.include_junk && !query.since && !query.until &&
                                     !query.exclude_blog_id && !query.exclude_article_id &&
                                     !(query.blog_id && query.category) && !query.vote_period &&
                                     !query.voted_only && !query.reader;
  std::string sql;
  if (!only_blog_or_category) {
    sql = listing_sql(kCountListedArticles, query, false);
  } else if (query.blog_id) {
    sql = kCountVisibleInBlog;
  } else if (query.category) {
    sql = kCountVisibleInCategory;
  } else {
    sql = kCountAllVisible;
  }
  return with_reader([&](Connection& db) {
    // No row: no such blog or category (0).
    return read_int64(db, sql, "cannot count articles", [&](Query& q) { bind_listing_filters(q, query); });
  });
}

Result<HotPage> SqliteStore::hot_page(const HotPageQuery& query) {
  const int size = std::max(query.page_size, 1);
  const int page = query.after.empty() ? std::max(query.page, 1) : 1;
  if (query.per_blog_cap <= 0) {  // the plain hot order, one index walk
    return article_page({.category = query.category,
                         .order = ArticleOrder::kHot,
                         .exclude_blog_id = query.exclude_blog_id,
                         .limit = size,
                         .offset = (page - 1) * size,
                         .after = query.after,
                         .reader = query.reader});
  }
  std::optional<Cursor> cursor;
  double after_score = 0;
  if (!query.after.empty()) {
    auto parsed = parse_cursor(query.after, 3, true);
    if (!parsed) return std::unexpected(parsed.error());
    auto score = score_from_bits(parsed->key[0]);
    if (!score) return std::unexpected(score.error());
    after_score = *score;
    cursor = std::move(*parsed);
  }
  auto db = readers_.acquire();
  if (!db) return std::unexpected(db.error());
  HotCut state;
  std::int64_t position = 0;
  std::unordered_set<std::int64_t> held_ids;  // a held article whose score fell is not walked twice
  // The entries the cursor held back lead, in walk order, as long as they are still listed here.
  if (cursor && !cursor->held.empty()) {
    std::string held_sql = kSelectHotEntriesByIds;
    if (query.reader) held_sql += sqlite::reader_filter_sql(*query.reader);
    auto q = (*db)->query(held_sql);
    if (!q) return db_error("cannot list hot articles", q.error());
    q->bind(":ids", ids_json(cursor->held));
    if (query.reader) sqlite::bind_reader_filter(*q, *query.reader);
    std::vector<HotEntry> held;
    auto read = for_each_row(*q, "cannot list hot articles", [&](const Query& row) {
      const std::int64_t blog_id = row.int64(1);
      if (query.exclude_blog_id && blog_id == *query.exclude_blog_id) return;
      if (query.category && row.text(4) != *query.category) return;
      held.push_back(
          {.id = row.int64(0), .blog_id = blog_id, .score = row.real(2), .display_at = row.int64(3)});
    });
    if (!read) return std::unexpected(read.error());
    std::ranges::sort(held, [](const HotEntry& a, const HotEntry& b) {
      return std::tie(b.score, b.display_at, b.id) < std::tie(a.score, a.display_at, a.id);
    });
    for (HotEntry& e : held) {
      e.position = position++;
      held_ids.insert(e.id);
      state.carried.push_back(e);
    }
  }
  auto walk = (*db)->query(hot_walk_sql(query, cursor.has_value()));
  if (!walk) return db_error("cannot list hot articles", walk.error());
  if (query.category) walk->bind(":category", *query.category);
  if (query.reader) sqlite::bind_reader_filter(*walk, *query.reader);
  if (cursor) {
    walk->bind(":c_score", after_score).bind(":c_display_at", cursor->key[1]).bind(":c_id", cursor->key[2]);
  }
  // The key of the last entry the walk gave: where the next page's walk resumes.
  std::optional<HotEntry> last_walked;
  if (cursor)
    last_walked = HotEntry{.id = cursor->key[2], .score = after_score, .display_at = cursor->key[1]};
  auto next = [&]() -> Result<std::optional<HotEntry>> {
    for (;;) {
      auto row = walk->step();
      if (!row) return db_error("cannot list hot articles", row.error());
      if (!*row) return std::optional<HotEntry>{};
      const std::int64_t blog_id = walk->int64(1);
      HotEntry e{.id = walk->int64(0),
                 .blog_id = blog_id,
                 .position = position++,
                 .score = walk->real(2),
                 .display_at = walk->int64(3)};
      last_walked = e;
      if (query.exclude_blog_id && blog_id == *query.exclude_blog_id) continue;
      if (held_ids.contains(e.id)) continue;
      return std::optional<HotEntry>{e};
    }
  };
  HotPage out;
  auto cut = cut_hot_page(state, next, last_walked, page, size, query, out);
  if (!cut) return std::unexpected(cut.error());
  const std::vector<HotEntry> taken = std::move(*cut);
  if (taken.empty()) return out;
  std::vector<std::int64_t> ids;
  for (const HotEntry& e : taken) ids.push_back(e.id);
  auto rows = read_rows(
      **db, kSelectListedByIds, "cannot list hot articles", [&](Query& q) { q.bind(":ids", ids_json(ids)); },
      read_article_view);
  if (!rows) return std::unexpected(rows.error());
  std::unordered_map<std::int64_t, std::size_t> rank;
  for (std::size_t i = 0; i < ids.size(); ++i) rank.emplace(ids[i], i);
  std::ranges::sort(*rows, {}, [&](const ArticleView& v) { return rank.at(v.article.id); });
  out.articles = std::move(*rows);
  return out;
}

Result<std::vector<model::Category>> SqliteStore::categories() {
  return with_reader([](Connection& db) {
    return read_rows(
        db, kSelectCategories, "cannot list categories", [](Query&) {},
        [](const Query& q) {
          return model::Category{.slug = q.text(0), .name = q.text(1), .article_count = q.int64(2)};
        });
  });
}

Result<std::int64_t> SqliteStore::article_count() {
  return read_count(kCountArticles, "cannot count articles");
}

Result<std::vector<SimhashEntry>> SqliteStore::simhash_index() {
  return with_reader([&](Connection& db) {
    return read_rows(
        db, kSelectSimhashIndex, "cannot read simhash index", [](Query&) {},
        [](const Query& q) {
          return SimhashEntry{.id = q.int64(0),
                              .blog_id = q.int64(1),
                              .simhash = std::bit_cast<std::uint64_t>(q.int64(2)),
                              .date = from_unix(q.int64(3))};
        });
  });
}

Result<std::int64_t> SqliteStore::near_duplicate_log_head() {
  return with_reader([&](Connection& db) { return read_log_head(db); });
}

Result<std::vector<ArticleView>> SqliteStore::recent_junk(int limit) {
  return with_reader([&](Connection& db) {
    return read_rows(
        db, kSelectRecentJunk, "cannot list junk", [&](Query& q) { q.bind(":limit", std::max(limit, 0)); },
        read_article_view);
  });
}

Result<std::vector<ArticleView>> SqliteStore::near_misses(TimePoint since, int limit) {
  return with_reader([&](Connection& db) {
    return read_rows(
        db, kSelectNearMisses, "cannot list near misses",
        [&](Query& q) { q.bind(":since", to_unix(since)).bind(":limit", std::max(limit, 0)); },
        read_article_view);
  });
}

}  // namespace longread::storage::sqlite
