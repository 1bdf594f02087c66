#include "storage/postgres/article_store.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <deque>
#include <optional>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "storage/listing_keys.h"
#include "storage/postgres/article_bodies.h"
#include "storage/postgres/crawl_save.h"
#include "storage/postgres/duplicate_log.h"
#include "storage/postgres/reader_filter.h"
#include "storage/postgres/rows.h"
#include "storage/postgres/search_run.h"
#include "storage/postgres/statement.h"
#include "storage/postgres/vector_columns.h"
#include "storage/search_snippet.h"
#include "storage/search_terms.h"
#include "storage/values.h"

namespace longread::storage::postgres {
namespace {

#define LONGREAD_PG_LISTED \
  "SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL
// After the article columns: the parts of the sort key that ArticleView does not hold (display_at; the
// period's votes for Top by period), for the next page's cursor.
constexpr const char* kSelectListed = LONGREAD_PG_LISTED ", a.display_at, 0" LONGREAD_PG_ARTICLE_FROM;
constexpr const char* kSelectListedByWeek =
    LONGREAD_PG_LISTED ", a.display_at, a.votes_week" LONGREAD_PG_ARTICLE_FROM;
constexpr const char* kSelectListedByMonth =
    LONGREAD_PG_LISTED ", a.display_at, a.votes_month" LONGREAD_PG_ARTICLE_FROM;

// Keyset pagination (ArticleQuery::after): the rows after the cursor's sort key, in the order's direction.
// A row comparison with `<` is the order's lexicographic "after" for an all-descending order, and
// PostgreSQL seeks the listing's index to it, so a deep page costs what the first does.
constexpr const char* kAfterNewest = " AND (a.display_at, a.id) < (:c_display_at::bigint, :c_id::bigint)";
constexpr const char* kAfterTop =
    " AND (a.votes, a.display_at, a.id) < (:c_votes::integer, :c_display_at::bigint, :c_id::bigint)";
constexpr const char* kAfterHot =
    " AND (a.score, a.display_at, a.id) < (:c_score::double precision, :c_display_at::bigint, :c_id::bigint)";
constexpr const char* kAfterWeek =
    " AND (a.votes_week, a.votes, a.display_at, a.id) < (:c_period_votes::integer, :c_votes::integer,"
    " :c_display_at::bigint, :c_id::bigint)";
constexpr const char* kAfterMonth =
    " AND (a.votes_month, a.votes, a.display_at, a.id) < (:c_period_votes::integer, :c_votes::integer,"
    " :c_display_at::bigint, :c_id::bigint)";

// How many entries of the hot order hot_page reads per round trip.
constexpr int kHotWalkBatch = 200;

// The listing statement for a query: constant fragments chosen by which filters are set; values are bound.
std::string listing_sql(const char* select, const ArticleQuery& query, bool with_order) {
  std::string sql = select;
  sql += query.include_junk ? " WHERE 1 = 1" : " WHERE a.visible = 1";
  if (query.blog_id) sql += " AND a.blog_id = :blog_id";
  if (query.category) sql += " AND a.category = :category";
  if (query.since) sql += " AND a.display_at >= :since";
  if (query.until) sql += " AND a.display_at < :until";
  if (query.exclude_blog_id) sql += " AND a.blog_id <> :exclude_blog_id";
  if (query.exclude_article_id) sql += " AND a.id <> :exclude_article_id";
  if (query.reader) sql += reader_filter_sql(*query.reader);
  const bool week = query.vote_period == VotePeriod::kWeek;
  if (query.vote_period) {
    // An article counts in a period by its votes then; the partial index is used only when the query says
    // its WHERE clause itself.
    sql += week ? " AND a.votes_week > 0" : " AND a.votes_month > 0";
  } else if (query.voted_only) {
    sql += " AND a.votes > 0";
  }
  const bool keyset = !query.after.empty();
  if (!with_order) return sql;
  if (query.vote_period) {
    if (keyset) sql += week ? kAfterWeek : kAfterMonth;
    sql += week ? " ORDER BY a.votes_week DESC, a.votes DESC, a.display_at DESC, a.id DESC"
                : " ORDER BY a.votes_month DESC, a.votes DESC, a.display_at DESC, a.id DESC";
  } else {
    switch (query.order) {
      case ArticleOrder::kNewest:
        if (keyset) sql += kAfterNewest;
        sql += " ORDER BY a.display_at DESC, a.id DESC";
        break;
      case ArticleOrder::kTop:
        if (keyset) sql += kAfterTop;
        sql += " ORDER BY a.votes DESC, a.display_at DESC, a.id DESC";
        break;
      case ArticleOrder::kHot:
        if (keyset) sql += kAfterHot;
        sql += " ORDER BY a.score DESC, a.display_at DESC, a.id DESC";
        break;
    }
  }
  sql += " LIMIT :limit OFFSET :offset";
  return sql;
}

void bind_listing_filters(Query& q, const ArticleQuery& query) {
  if (query.blog_id) q.bind(":blog_id", *query.blog_id);
  if (query.category) q.bind(":category", *query.category);
  if (query.since) q.bind(":since", *query.since);
  if (query.until) q.bind(":until", *query.until);
  if (query.exclude_blog_id) q.bind(":exclude_blog_id", *query.exclude_blog_id);
  if (query.exclude_article_id) q.bind(":exclude_article_id", *query.exclude_article_id);
  if (query.reader) bind_reader_filter(q, *query.reader);
}

// hot_page's walk: the articles_hot or articles_category_hot index, from the top or after a key, less what
// the reader filtered out, a batch at a time.
std::string hot_walk_sql(const HotPageQuery& query, bool after) {
  std::string sql = "SELECT a.id, a.blog_id, a.score, a.display_at FROM articles a WHERE";
  sql += query.category ? " a.category = :category AND a.visible = 1" : " a.visible = 1";
  if (query.reader) sql += reader_filter_sql(*query.reader);
  if (after) sql += kAfterHot;
  sql += " ORDER BY a.score DESC, a.display_at DESC, a.id DESC LIMIT :batch";
  return sql;
}

constexpr const char* kSetKeepOverride =
    "UPDATE articles SET keep_override = :keep::integer,"
    " flag_decision = CASE WHEN :keep::integer IS NULL OR NOT EXISTS (SELECT 1 FROM article_flags f"
    "  WHERE f.article_id = articles.id) THEN flag_decision WHEN :keep::integer = 1 THEN 'keep' ELSE 'junk' "
    "END,"
    " held = CASE WHEN :keep::integer IS NULL THEN held ELSE 0 END,"
    " hold_threshold = CASE WHEN :keep::integer IS NULL THEN hold_threshold ELSE 0 END,"
    " visible = CASE WHEN :keep::integer IS NOT NULL THEN :keep::integer WHEN held = 1 THEN 0 ELSE 1 - junk "
    "END"
    " WHERE id = :id";

// Only a changed verdict is written; duplicates keep their mark.
constexpr const char* kSetVerdict =
    "UPDATE articles SET junk = :junk, junk_reason = :reason,"
    " visible = CASE WHEN held = 1 THEN 0 WHEN keep_override IS NULL THEN 1 - :junk ELSE keep_override END"
    " WHERE id = :id AND duplicate_of IS NULL AND (junk <> :junk OR junk_reason <> :reason)";

// Only an article whose derived text differs is written. A new text or excerpt is packed with the stored
// summary and content (:body_changed); the body is kept as it is otherwise.
constexpr const char* kSetText =
    "UPDATE articles SET" LONGREAD_PG_SET_BODY_WHEN_CHANGED
    ","
    " word_count = :word_count,"
    " reading_minutes = :reading_minutes, simhash = :simhash," LONGREAD_PG_SET_VECTORS
    " WHERE id = :id AND (:body_changed::integer = 1 OR word_count <> :word_count"
    " OR reading_minutes <> :reading_minutes OR simhash <> :simhash)";

// The body converter on PostgreSQL: rows whose parts are still in their own columns (stored before migration
// 0009, or copied in by `db copy`), or whose excerpt is (packed before the frame held it), to pack into one
// frame, and frames packed with another dictionary than the newest (:dictionary), to pack again.
// octet_length reads a TOASTed value's size from its header, without reading the value.
#define LONGREAD_PG_BODY_TO_PACK                                                          \
  "(octet_length(excerpt) > 0 OR body IS NULL AND (octet_length(summary_html) > 0"        \
  " OR octet_length(content_html) > 0 OR octet_length(text) > 0) OR body IS NOT NULL AND" \
  " body_dictionary IS DISTINCT FROM :dictionary::bigint)"
// Search vectors to make as the crawler makes them: none made by longread yet (no rank vector: stored before
// migration 0004; no phrase filter: before 0007, or written by another tool, whose vectors the trigger made
// with the server's parser), a search vector with positions (before 0008), which nothing reads any more, or
// one that still holds the common words (no bitmap of them: before 0011, or made by the trigger), or a
// bitmap stored out of line (before 0012): its stored size is its length, where a value in the row has a
// header besides; or no lead filter (before 0013, whose rank vector still holds the text's lead); or no
// word ids (before 0015, whose words are still a tsvector).
#define LONGREAD_PG_VECTORS_TO_MAKE                                                      \
  "(rank_vector IS NULL OR phrase_filter IS NULL OR common_words IS NULL OR "            \
  "pg_column_size(common_words) = octet_length(common_words) OR lead_filter IS NULL OR " \
  "search_words IS NULL)"
constexpr const char* kSelectUncompacted =
    "SELECT id FROM articles WHERE id > :after AND (" LONGREAD_PG_BODY_TO_PACK
    " OR " LONGREAD_PG_VECTORS_TO_MAKE ") ORDER BY id LIMIT :batch";
// The batch's rows, whether each needs packing and whether it needs its vectors made, and its parts, locked
// until the batch commits: a crawl that rewrites one of them meanwhile waits, and is never undone by a
// repack of what was read before it.
constexpr const char* kSelectToCompact =
    "SELECT a.id, a.title, " LONGREAD_PG_BODY_TO_PACK ", " LONGREAD_PG_VECTORS_TO_MAKE
    ", " LONGREAD_PG_BODY_COLUMNS
    " FROM articles a WHERE a.id = ANY(:ids::bigint[]) ORDER BY a.id FOR UPDATE";
// A row's frame and the dictionary it names; one statement a row, the batch's in pipelines.
constexpr const char* kPackBody =
    "UPDATE articles SET body = :body::bytea, body_dictionary = :dictionary::bigint, summary_html = '',"
    " content_html = '', text = '', excerpt = '' WHERE id = :id";
// Training samples: the newest articles' parts, whichever form they are stored in.
constexpr const char* kSelectSamples =
    "SELECT " LONGREAD_PG_BODY_COLUMNS " FROM articles a ORDER BY a.id DESC LIMIT :limit";
// ZDICT names a dictionary by a hash of it: the same samples trained again give the one already stored.
constexpr const char* kInsertDictionary =
    "INSERT INTO body_dictionaries (dict_id, created_at, samples, dict) VALUES (:id, :now, :samples, "
    ":dict::bytea) ON CONFLICT (dict_id) DO NOTHING";
// Whether the site holds at least :least articles, without counting them all.
constexpr const char* kHasArticles =
    "SELECT (count(*) >= :least)::int FROM (SELECT 1 FROM articles LIMIT :least) s";
// Serialises the first dictionary's training across processes: the second to take it finds the first's
// dictionary and trains none.
constexpr const char* kLockFirstDictionary = "SELECT pg_advisory_xact_lock(5186420093317458023)";
// Vectors are made for such rows as the crawler makes them (all five, in their binary forms), so a row's
// filter describes the very words its search vector holds. One statement a row, the batch's in pipelines.
constexpr const char* kFillSearchVectors = "UPDATE articles SET" LONGREAD_PG_SET_VECTORS " WHERE id = :id";

}  // namespace

Result<std::vector<StoredArticleKey>> PgArticleStore::article_keys(std::int64_t blog_id) {
  Pool::Lease lease = db_.pool().acquire();
  return read_article_keys(*lease, blog_id);
}

Result<SaveStats> PgArticleStore::save_crawl(const CrawlRecord& record) {
  auto results = save_crawls(std::span(&record, 1));
  if (!results) return std::unexpected(results.error());
  return std::move(results->front());
}

// The search vectors and the packed bodies are made here, on the crawler's thread that built the record,
// rather than while the save holds its transaction (or on the database server, which every crawler shares).
Result<void> PgArticleStore::prepare_crawl(CrawlRecord& record) {
  std::vector<PreparedSearchVectors> vectors;
  vectors.reserve(record.articles.size());
  for (const model::Article& a : record.articles)
    vectors.push_back(search_vectors(db_.tokenizer(), db_.common_words(), a.title, a.text));
  std::vector<std::string> bodies;
  bodies.reserve(record.articles.size());
  auto packed = db_.pool().with([&](Connection& c) -> Result<void> {
    auto dictionary = db_.bodies().current_id(PgBodyDictionaries(c));
    if (!dictionary) return std::unexpected(dictionary.error());
    for (const model::Article& a : record.articles) {
      auto body = pack_body(db_.bodies(), c, *dictionary,
                            {.summary_html = a.summary_html,
                             .content_html = a.content_html,
                             .text = a.text,
                             .excerpt = a.excerpt});
      if (!body) return std::unexpected(body.error());
      bodies.push_back(body->value_or(""));
    }
    return {};
  });
  if (!packed) return packed;
  record.prepared_search = std::move(vectors);
  record.prepared_bodies = std::move(bodies);
  return {};
}

namespace {
// For the rest of the save's transaction only.
constexpr const char* kGenericPlans = "SET LOCAL plan_cache_mode = force_generic_plan";
// A generic plan is made from the server's statistics of the moment, and kept until they change. Made on
// an empty articles table, the lookup of a record's stored guids is a sequential scan (nothing to scan
// yet), which the crawl would then run on a table growing by a thousand rows a second until the next
// automatic ANALYZE. From this many rows in the statistics on, every generic plan of the save walks an
// index; a plan made before, in the server's own mode, is dropped by the ANALYZE that counted them.
constexpr double kGenericPlanRows = 1000;
}  // namespace

Result<bool> PgArticleStore::generic_plans_fit(Connection& conn) {
  if (generic_plans_fit_.load(std::memory_order_relaxed)) return true;
  auto rows = conn.exec("SELECT reltuples FROM pg_class WHERE oid = 'articles'::regclass");
  if (!rows) return std::unexpected(rows.error());
  const bool fit = !rows->empty() && rows->real(0, 0) >= kGenericPlanRows;
  if (fit) generic_plans_fit_.store(true, std::memory_order_relaxed);
  return fit;
}

namespace {

// save_crawls' first step: the group's records that write their blog's row alone, saved together
// (save_blog_states) when there are at least two and no blog has two records in the group (its records
// are then saved in their order, one by one). Each record's result, or nullopt where the record is left to
// be saved on its own; all nullopt when saving them together failed and was undone.
Result<std::vector<std::optional<Result<SaveStats>>>> save_states_together(
    Connection& c, std::span<const CrawlRecord> records) {
  std::vector<std::optional<Result<SaveStats>>> out(records.size());
  std::unordered_set<std::int64_t> blogs;
  for (const CrawlRecord& record : records) {
    if (!blogs.insert(record.blog_id).second) return out;
  }
  std::vector<const CrawlRecord*> together;
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!writes_blog_state_only(records[i])) continue;
    together.push_back(&records[i]);
    at.push_back(i);
  }
  if (together.size() < 2) return out;
  if (auto ok = c.exec_script("SAVEPOINT states"); !ok) return std::unexpected(ok.error());
  auto saved = save_blog_states(c, together);
  if (!saved) {
    if (auto ok = c.exec_script("ROLLBACK TO SAVEPOINT states"); !ok) return std::unexpected(ok.error());
  } else {
    for (std::size_t k = 0; k < at.size(); ++k) out[at[k]] = std::move((*saved)[k]);
  }
  if (auto ok = c.exec_script("RELEASE SAVEPOINT states"); !ok) return std::unexpected(ok.error());
  return out;
}

}  // namespace

Result<std::vector<Result<SaveStats>>> PgArticleStore::save_crawls(std::span<const CrawlRecord> records,
                                                                   const DecideDuplicates& decide) {
  std::vector<Result<SaveStats>> results;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    results.clear();
    // Every statement of a save finds its rows by key (a blog's id and its guids, article ids), so one
    // plan serves every value. Left to choose (plan_cache_mode = auto), the server planned the lookup of a
    // record's stored guids and most multi-row inserts again on every call, their guessed generic costs
    // never beating the custom ones: a fifth of the server's statement time in a second pass.
    auto fit = generic_plans_fit(c);
    if (!fit) return std::unexpected(fit.error());
    if (*fit) {
      if (auto generic = c.exec_script(kGenericPlans); !generic) return generic;
    }
    // The records that write their blog's row alone (most of an hourly pass: 304s and failures) are
    // saved first, all in one round trip; if that fails, the savepoint undoes it and each is saved below
    // on its own, so a failing one is rolled back alone as any record is.
    auto states = save_states_together(c, records);
    if (!states) return std::unexpected(states.error());
    VisibleCounts counts;
    for (std::size_t i = 0; i < records.size(); ++i) {
      if ((*states)[i]) {
        results.push_back(std::move(*(*states)[i]));
        continue;
      }
      const CrawlRecord& record = records[i];
      // One record's failure undoes that record alone: the others of the group are still saved.
      if (auto ok = c.exec_script("SAVEPOINT record"); !ok) return ok;
      VisibleCounts record_counts;
      auto stats = save_record(c, record, record_counts, db_.tokenizer(), db_.common_words(), db_.bodies());
      if (!stats) {
        if (auto ok = c.exec_script("ROLLBACK TO SAVEPOINT record"); !ok) return ok;
      } else {
        counts.add(record_counts);
      }
      if (auto ok = c.exec_script("RELEASE SAVEPOINT record"); !ok) return ok;
      results.push_back(std::move(stats));
    }
    if (!decide) return counts.write(c);
    // The inserts above, most of the work, run beside other crawlers' saves; the decision runs one at a
    // time, last, so that it sees every group committed before it. The shared counters are written under the
    // lock too: a holder marking an article of a category never waits for a row another saver locked first.
    if (auto locked = lock_for_decision(c); !locked) return locked;
    if (auto written = counts.write(c); !written) return written;
    PgDuplicateDecision decision(c);
    return decide(decision, results);
  });
  if (!done) return db_error("cannot save crawl", done.error());
  return results;
}

Result<std::int64_t> PgArticleStore::count_recent_articles(std::int64_t blog_id, TimePoint since) {
  // An undated article's date is when it was first seen, so the undated posts of the blog's first crawl
  // (its whole back catalogue) are not counted as recent: only those that appeared after it.
  auto rows = run_pooled(
      db_.pool(),
      "SELECT COUNT(*) FROM articles WHERE blog_id = :blog_id AND display_at >= :since"
      " AND (undated = 0 OR first_seen > (SELECT MIN(first_seen) FROM articles WHERE blog_id = :blog_id))",
      "cannot count recent articles", [&](Query& q) { q.bind(":blog_id", blog_id).bind(":since", since); });
  if (!rows) return std::unexpected(rows.error());
  return rows->int64(0, 0);
}

Result<std::optional<ArticleView>> PgArticleStore::article(std::int64_t id) {
  const std::string what = fmt::format("cannot read article {}", id);
  auto rows =
      run_pooled(db_.pool(),
                 "SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL
                 ", " LONGREAD_PG_BODY_PARTS LONGREAD_PG_ARTICLE_FROM " WHERE a.id = :id",
                 what, [&](Query& q) { q.bind(":id", id); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::optional<ArticleView>{};
  ArticleView view = read_article_fields(*rows, 0);
  if (auto ok = read_article_body(db_.bodies(), PgPoolBodyDictionaries(db_.pool()), *rows, 0, view.article);
      !ok)
    return db_error(what, ok.error());
  return std::optional<ArticleView>{std::move(view)};
}

Result<std::vector<ArticleView>> PgArticleStore::articles(const ArticleQuery& query) {
  auto page = article_page(query);
  if (!page) return std::unexpected(page.error());
  return std::move(page->articles);
}

Result<std::int64_t> PgArticleStore::count_articles(const ArticleQuery& query) {
  const bool only_blog_or_category = !query.include_junk && !query.since && !query.until &&
                                     !query.exclude_blog_id && !query.exclude_article_id &&
                                     !(query.blog_id && query.category) && !query.vote_period &&
                                     !query.voted_only && !query.reader;
  std::string sql;
  if (!only_blog_or_category) {
    sql = listing_sql("SELECT COUNT(*) FROM articles a", query, false);
  } else if (query.blog_id) {
    sql = "SELECT visible_articles FROM blogs WHERE id = :blog_id";
  } else if (query.category) {
    sql = "SELECT visible_articles FROM categories WHERE slug = :category";
  } else {
    sql = "SELECT COALESCE(SUM(visible_articles), 0) FROM categories";
  }
  auto rows =
      run_pooled(db_.pool(), sql, "cannot count articles", [&](Query& q) { bind_listing_filters(q, query); });
  if (!rows) return std::unexpected(rows.error());
  return rows->empty() ? 0 : rows->int64(0, 0);  // no row: no such blog or category
}

Result<ArticlePage> PgArticleStore::article_page(const ArticleQuery& query) {
  const int size = std::max(query.limit, 0);
  std::optional<Cursor> cursor;
  if (!query.after.empty()) {
    auto parsed = parse_cursor(query.after, cursor_arity(query), false);
    if (!parsed) return std::unexpected(parsed.error());
    cursor = std::move(*parsed);
  }
  const char* select = !query.vote_period                       ? kSelectListed
                       : query.vote_period == VotePeriod::kWeek ? kSelectListedByWeek
                                                                : kSelectListedByMonth;
  std::optional<double> after_score;
  if (cursor && !query.vote_period && query.order == ArticleOrder::kHot) {
    auto score = score_from_bits(cursor->key[0]);
    if (!score) return std::unexpected(score.error());
    after_score = *score;
  }
  auto rows = run_pooled(db_.pool(), listing_sql(select, query, true), "cannot list articles", [&](Query& q) {
    bind_listing_filters(q, query);
    if (cursor) {
      const auto& k = cursor->key;
      if (query.vote_period) {
        q.bind(":c_period_votes", k[0])
            .bind(":c_votes", k[1])
            .bind(":c_display_at", k[2])
            .bind(":c_id", k[3]);
      } else if (query.order == ArticleOrder::kNewest) {
        q.bind(":c_display_at", k[0]).bind(":c_id", k[1]);
      } else if (query.order == ArticleOrder::kTop) {
        q.bind(":c_votes", k[0]).bind(":c_display_at", k[1]).bind(":c_id", k[2]);
      } else {
        q.bind(":c_score", *after_score).bind(":c_display_at", k[1]).bind(":c_id", k[2]);
      }
    }
    q.bind(":limit", size + 1).bind(":offset", cursor ? 0 : std::max(query.offset, 0));
  });
  if (!rows) return std::unexpected(rows.error());
  ArticlePage out;
  std::vector<std::int64_t> last_key;
  for (int r = 0; r < rows->size(); ++r) {
    if (static_cast<int>(out.articles.size()) == size) {
      out.has_more = true;
      break;
    }
    out.articles.push_back(read_article_view(*rows, r, db_.bodies(), PgPoolBodyDictionaries(db_.pool())));
    const std::int64_t id = rows->int64(r, 0);
    const std::int64_t display_at = rows->int64(r, kArticleColumnCount);
    if (query.vote_period) {
      last_key = {rows->int64(r, kArticleColumnCount + 1), rows->int64(r, 24), display_at, id};
    } else if (query.order == ArticleOrder::kNewest) {
      last_key = {display_at, id};
    } else if (query.order == ArticleOrder::kTop) {
      last_key = {rows->int64(r, 24), display_at, id};
    } else {
      last_key = {score_bits(rows->real(r, 25)), display_at, id};
    }
  }
  if (out.has_more) out.next = encode_cursor(last_key);
  return out;
}

Result<HotPage> PgArticleStore::hot_page(const HotPageQuery& query) {
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
  Pool::Lease conn = db_.pool().acquire();
  HotCut state;
  std::int64_t position = 0;
  std::unordered_set<std::int64_t> held_ids;  // a held article whose score fell is not walked twice
  // The entries the cursor held back lead, in walk order, as long as they are still listed here.
  if (cursor && !cursor->held.empty()) {
    std::string held_sql =
        "SELECT a.id, a.blog_id, a.score, a.display_at, a.category FROM articles a"
        " WHERE a.id = ANY(:ids::bigint[]) AND a.visible = 1";
    if (query.reader) held_sql += reader_filter_sql(*query.reader);
    Query q(*conn, held_sql);
    q.bind(":ids", id_array(cursor->held));
    if (query.reader) bind_reader_filter(q, *query.reader);
    auto rows = q.run();
    if (!rows) return db_error("cannot list hot articles", rows.error());
    std::vector<HotEntry> held;
    for (int r = 0; r < rows->size(); ++r) {
      const std::int64_t blog_id = rows->int64(r, 1);
      if (query.exclude_blog_id && blog_id == *query.exclude_blog_id) continue;
      if (query.category && rows->text(r, 4) != *query.category) continue;
      held.push_back({.id = rows->int64(r, 0),
                      .blog_id = blog_id,
                      .score = rows->real(r, 2),
                      .display_at = rows->int64(r, 3)});
    }
    std::ranges::sort(held, [](const HotEntry& a, const HotEntry& b) {
      return std::tie(b.score, b.display_at, b.id) < std::tie(a.score, a.display_at, a.id);
    });
    for (HotEntry& e : held) {
      e.position = position++;
      held_ids.insert(e.id);
      state.carried.push_back(e);
    }
  }
  // The walk down the hot index, read a batch at a time from where the last batch ended (keyset), so a
  // page reads about what it uses rather than every visible article.
  std::optional<HotEntry>
      last_walked;  // the key of the last entry the walk gave: where the next page resumes
  if (cursor)
    last_walked = HotEntry{.id = cursor->key[2], .score = after_score, .display_at = cursor->key[1]};
  std::deque<HotEntry> batch;
  bool walk_done = false;
  auto fetch = [&]() -> Result<void> {
    Query walk(*conn, hot_walk_sql(query, last_walked.has_value()));
    if (query.category) walk.bind(":category", *query.category);
    if (query.reader) bind_reader_filter(walk, *query.reader);
    if (last_walked) {
      walk.bind(":c_score", last_walked->score)
          .bind(":c_display_at", last_walked->display_at)
          .bind(":c_id", last_walked->id);
    }
    walk.bind(":batch", kHotWalkBatch);
    auto rows = walk.run();
    if (!rows) return std::unexpected(rows.error());
    for (int r = 0; r < rows->size(); ++r) {
      batch.push_back({.id = rows->int64(r, 0),
                       .blog_id = rows->int64(r, 1),
                       .score = rows->real(r, 2),
                       .display_at = rows->int64(r, 3)});
    }
    walk_done = rows->size() < kHotWalkBatch;
    return {};
  };
  auto next = [&]() -> Result<std::optional<HotEntry>> {
    for (;;) {
      if (batch.empty()) {
        if (walk_done) return std::optional<HotEntry>{};
        if (auto ok = fetch(); !ok) return db_error("cannot list hot articles", ok.error());
        if (batch.empty()) return std::optional<HotEntry>{};
      }
      HotEntry e = batch.front();
      batch.pop_front();
      e.position = position++;
      last_walked = e;
      if (query.exclude_blog_id && e.blog_id == *query.exclude_blog_id) continue;
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
  Query q(*conn, "SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD
                 " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL LONGREAD_PG_ARTICLE_FROM
                 " WHERE a.id = ANY(:ids::bigint[])");
  q.bind(":ids", id_array(ids));
  auto rows = q.run();
  if (!rows) return db_error("cannot list hot articles", rows.error());
  std::unordered_map<std::int64_t, std::size_t> rank;
  for (std::size_t i = 0; i < ids.size(); ++i) rank.emplace(ids[i], i);
  std::vector<ArticleView> views;
  for (int r = 0; r < rows->size(); ++r)
    views.push_back(read_article_view(*rows, r, db_.bodies(), PgBodyDictionaries(*conn)));
  std::ranges::sort(views, {}, [&](const ArticleView& v) { return rank.at(v.article.id); });
  out.articles = std::move(views);
  return out;
}

Result<std::vector<SearchHit>> PgArticleStore::search(std::string_view query, int limit, int offset,
                                                      const std::optional<ReaderFilter>& reader) {
  const std::vector<std::string> terms = search_terms(query);
  std::vector<SearchHit> hits;
  if (terms.empty()) return hits;
  const SearchPlan plan = plan_search(db_.tokenizer(), db_.common_words(), terms, reader);
  // None of the terms has a word: a query that matches nothing, as on SQLite.
  if (plan.match.empty()) return hits;
  auto rows = db_.pool().with([&](Connection& c) -> Result<Rows> {
    SearchRun run(c, db_, plan);
    return run.page(limit, offset);
  });
  if (!rows) {
    // query_canceled (57014): the server stopped a statement at what was left of the budget.
    if (rows.error().kind == ErrorKind::kTimeout || rows.error().message.find("57014") != std::string::npos) {
      return fail(ErrorKind::kTimeout,
                  fmt::format("store: search ran past its {} ms budget", kSearchBudget.count()),
                  "That search took too long. Try more specific words.");
    }
    return db_error("cannot search", rows.error());
  }
  // The snippets, from the page's texts, as SQLite's search makes them.
  const std::vector<std::vector<std::string>> term_words = db_.tokenizer().term_words(terms);
  hits.reserve(static_cast<std::size_t>(rows->size()));
  const PgPoolBodyDictionaries dictionaries(db_.pool());
  for (int r = 0; r < rows->size(); ++r) {
    // One body that cannot be read gets no snippet rather than failing the page, as on SQLite.
    // The frame is unpacked once, for the snippet and the excerpt.
    ArticleView view = read_article_fields(*rows, r);
    std::string snippet;
    if (auto body =
            stored_body(db_.bodies(), dictionaries, *rows, r, kArticleFrameColumn, kArticleColumnCount)) {
      snippet = search_snippet(db_.tokenizer(), term_words, body->text);
      view.article.excerpt = std::move(body->excerpt);
    }
    hits.push_back({.view = std::move(view), .snippet = std::move(snippet)});
  }
  return hits;
}

Result<std::vector<model::Category>> PgArticleStore::categories() {
  auto rows = run_pooled(
      db_.pool(),
      "SELECT slug, name, visible_articles FROM categories ORDER BY name COLLATE \"C\", slug COLLATE "
      "\"C\"",
      "cannot list categories");
  if (!rows) return std::unexpected(rows.error());
  std::vector<model::Category> out;
  for (int r = 0; r < rows->size(); ++r) {
    out.push_back(
        {.slug = rows->string(r, 0), .name = rows->string(r, 1), .article_count = rows->int64(r, 2)});
  }
  return out;
}

Result<std::int64_t> PgArticleStore::article_count() {
  auto rows = run_pooled(db_.pool(), "SELECT COUNT(*) FROM articles", "cannot count articles");
  if (!rows) return std::unexpected(rows.error());
  return rows->int64(0, 0);
}

Result<void> PgArticleStore::set_keep_override(std::int64_t article_id, std::optional<bool> keep) {
  std::optional<std::int64_t> value;
  if (keep) value = *keep ? 1 : 0;
  auto rows = run_pooled(db_.pool(), kSetKeepOverride, "cannot set keep override",
                         [&](Query& q) { q.bind(":keep", value).bind(":id", article_id); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->affected() == 0)
    return fail(ErrorKind::kNotFound, fmt::format("store: no article {}", article_id));
  return {};
}

Result<std::int64_t> PgArticleStore::set_verdicts(std::span<const VerdictUpdate> updates) {
  std::int64_t changed = 0;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    changed = 0;
    for (const auto& update : updates) {
      Query q(c, kSetVerdict);
      q.bind(":junk", update.junk ? 1 : 0).bind(":reason", update.junk ? update.reason : std::string());
      q.bind(":id", update.article_id);
      auto rows = q.run();
      if (!rows) return std::unexpected(rows.error());
      changed += rows->affected();
    }
    return {};
  });
  if (!done) return db_error("cannot set verdicts", done.error());
  return changed;
}

Result<std::int64_t> PgArticleStore::set_texts(std::span<const TextUpdate> updates) {
  std::int64_t changed = 0;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    changed = 0;
    // The titles, for the search vectors made with each new text.
    std::vector<std::int64_t> ids;
    ids.reserve(updates.size());
    for (const auto& update : updates) ids.push_back(update.article_id);
    // And the stored bodies, to pack each new text with the stored summary and content.
    Query select(c, "SELECT a.id, a.title, " LONGREAD_PG_BODY_COLUMNS
                    " FROM articles a WHERE a.id = ANY(:ids::bigint[])");
    select.bind(":ids", id_array(ids));
    auto titles = select.run();
    if (!titles) return std::unexpected(titles.error());
    const PgBodyDictionaries dictionaries(c);
    std::unordered_map<std::int64_t, std::pair<std::string, ArticleBody>> stored;
    for (int r = 0; r < titles->size(); ++r) {
      auto body = stored_body(db_.bodies(), dictionaries, *titles, r, 2);
      if (!body) return std::unexpected(body.error());
      stored.emplace(titles->int64(r, 0), std::pair{titles->string(r, 1), std::move(*body)});
    }
    std::optional<std::uint32_t> dictionary;
    for (const auto& update : updates) {
      const auto row = stored.find(update.article_id);
      if (row == stored.end()) continue;  // deleted since: nothing to write
      const auto& [title, before] = row->second;
      const SearchVectors vectors = search_vectors(db_.tokenizer(), db_.common_words(), title, update.text);
      const bool body_changed = before.text != update.text || before.excerpt != update.excerpt;
      std::optional<std::string> body;
      if (body_changed) {
        if (!dictionary) {
          auto newest = db_.bodies().current_id(dictionaries);
          if (!newest) return std::unexpected(newest.error());
          dictionary = *newest;
        }
        auto made = pack_body(db_.bodies(), c, *dictionary,
                              {.summary_html = before.summary_html,
                               .content_html = before.content_html,
                               .text = update.text,
                               .excerpt = update.excerpt});
        if (!made) return std::unexpected(made.error());
        body = std::move(*made);
      }
      Query q(c, kSetText);
      q.bind(":body_changed", body_changed);
      bind_body(q, body);
      bind_search_vectors(q, vectors);
      q.bind(":excerpt", "");  // the frame holds it
      q.bind(":word_count", update.word_count).bind(":reading_minutes", update.reading_minutes);
      q.bind(":simhash", std::bit_cast<std::int64_t>(update.simhash)).bind(":id", update.article_id);
      auto rows = q.run();
      if (!rows) return std::unexpected(rows.error());
      changed += rows->affected();
    }
    return {};
  });
  if (!done) return db_error("cannot set texts", done.error());
  return changed;
}

// Trains a dictionary on the newest articles' bodies and stores it as the newest; nullopt when there are too
// few articles to learn from.
Result<std::optional<std::uint32_t>> PgArticleStore::train_body_dictionary(Connection& c) {
  Query samples(c, kSelectSamples);
  samples.bind(":limit", kBodyDictionarySamples);
  auto rows = samples.run();
  if (!rows) return std::unexpected(rows.error());
  BodyDictionaryTrainer trainer;
  const PgBodyDictionaries dictionaries(c);
  for (int r = 0; r < rows->size(); ++r) {
    auto body = stored_body(db_.bodies(), dictionaries, *rows, r, 0);
    if (!body) continue;                                             // unreadable: not a sample
    if (body->content_html.empty() && body->text.empty()) continue;  // pruned
    trainer.add(body->view());
  }
  auto trained = trainer.train();
  if (!trained) return std::unexpected(trained.error());
  if (!*trained) return std::optional<std::uint32_t>{};
  const auto& [id, dict] = **trained;
  Query insert(c, kInsertDictionary);
  insert.bind(":id", static_cast<std::int64_t>(id))
      .bind(":samples", static_cast<std::int64_t>(trainer.samples()));
  insert.bind(":now", std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now()));
  insert.bind(":dict", Binary{dict});
  if (auto ok = insert.run(); !ok) return std::unexpected(ok.error());
  return std::optional<std::uint32_t>{id};
}

Result<std::optional<std::uint32_t>> PgArticleStore::train_first_body_dictionary() {
  std::optional<std::uint32_t> trained;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    auto current = db_.bodies().current_id(PgBodyDictionaries(c));
    if (!current) return std::unexpected(current.error());
    if (*current != 0) return {};
    Query enough(c, kHasArticles);
    enough.bind(":least", kMinBodyDictionarySamples);
    auto rows = enough.run();
    if (!rows) return std::unexpected(rows.error());
    if (rows->size() != 1 || rows->int64(0, 0) == 0) return {};
    if (auto locked = Query(c, kLockFirstDictionary).run(); !locked) return std::unexpected(locked.error());
    auto newest = db_.bodies().current_id(PgBodyDictionaries(c));
    if (!newest) return std::unexpected(newest.error());
    if (*newest != 0) return {};
    auto id = train_body_dictionary(c);
    if (!id) return std::unexpected(id.error());
    trained = *id;
    return {};
  });
  if (!done) return db_error("cannot train body dictionary", done.error());
  return trained;
}

Result<CompactBatch> PgArticleStore::compact_bodies(const CompactOptions& options) {
  CompactBatch out;
  out.last_id = options.after_id;
  if (options.after_id == 0) {
    auto trained = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
      auto current = db_.bodies().current_id(PgBodyDictionaries(c));
      if (!current) return std::unexpected(current.error());
      if (*current != 0 && !options.retrain) return {};
      auto id = train_body_dictionary(c);
      if (!id) return std::unexpected(id.error());
      out.trained_dictionary = *id;
      return {};
    });
    if (!trained) return db_error("cannot train body dictionary", trained.error());
  }
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    out.converted = 0;
    out.last_id = options.after_id;
    out.unreadable.clear();
    const PgBodyDictionaries dictionaries(c);
    auto dictionary = db_.bodies().current_id(dictionaries);
    if (!dictionary) return std::unexpected(dictionary.error());
    Query select(c, kSelectUncompacted);
    select.bind(":after", options.after_id).bind(":batch", std::max(options.batch, 1));
    select.bind(":dictionary", static_cast<std::int64_t>(*dictionary));
    auto rows = select.run();
    if (!rows) return std::unexpected(rows.error());
    std::vector<std::int64_t> ids;
    for (int r = 0; r < rows->size(); ++r) ids.push_back(rows->int64(r, 0));
    out.done = static_cast<int>(ids.size()) < std::max(options.batch, 1);
    if (ids.empty()) return {};
    // Each row selected needs its body packed, its vectors and filter made, or both.
    Query read(c, kSelectToCompact);
    read.bind(":ids", id_array(ids)).bind(":dictionary", static_cast<std::int64_t>(*dictionary));
    auto parts = read.run();
    if (!parts) return std::unexpected(parts.error());
    std::vector<Statement> writes;
    for (int r = 0; r < parts->size(); ++r) {
      const std::int64_t id = parts->int64(r, 0);
      auto body = stored_body(db_.bodies(), dictionaries, *parts, r, 4);
      if (!body) {
        out.unreadable.push_back(id);
        continue;
      }
      if (parts->text(r, 2) == "t") {
        auto frame = pack_body(db_.bodies(), c, *dictionary, body->view());
        if (!frame) return std::unexpected(frame.error());
        if (*frame) {
          Query pack(c, kPackBody);
          pack.prepared().bind(":id", id).bind(":body", Binary{**frame});
          pack.bind(":dictionary", static_cast<std::int64_t>(body_dictionary_id(**frame)));
          auto statement = pack.statement();
          if (!statement) return std::unexpected(statement.error());
          writes.push_back(std::move(*statement));
        }
      }
      if (parts->text(r, 3) == "t") {
        Query fill(c, kFillSearchVectors);
        fill.prepared().bind(":id", id);
        bind_search_vectors(
            fill, search_vectors(db_.tokenizer(), db_.common_words(), parts->text(r, 1), body->text));
        auto statement = fill.statement();
        if (!statement) return std::unexpected(statement.error());
        writes.push_back(std::move(*statement));
      }
    }
    if (auto ok = run_pipelined(c, writes); !ok) return std::unexpected(ok.error());
    out.converted = static_cast<std::int64_t>(ids.size() - out.unreadable.size());
    out.last_id = ids.back();
    if (options.hold_before_commit.count() > 0) std::this_thread::sleep_for(options.hold_before_commit);
    return {};
  });
  if (!done) return db_error("cannot compact bodies", done.error());
  return out;
}

Result<std::vector<SimhashEntry>> PgArticleStore::simhash_index() {
  // Originals only: an article already marked a duplicate never becomes the original of another.
  auto rows = run_pooled(db_.pool(), kSelectOriginals, "cannot read simhash index", [](Query&) {});
  if (!rows) return std::unexpected(rows.error());
  std::vector<SimhashEntry> out;
  out.reserve(static_cast<std::size_t>(rows->size()));
  for (int r = 0; r < rows->size(); ++r) {
    out.push_back({.id = rows->int64(r, 0),
                   .blog_id = rows->int64(r, 1),
                   .simhash = std::bit_cast<std::uint64_t>(rows->int64(r, 2)),
                   .date = rows->time(r, 3)});
  }
  return out;
}

Result<std::int64_t> PgArticleStore::near_duplicate_log_head() {
  Pool::Lease lease = db_.pool().acquire();
  return read_log_head(*lease);
}

Result<void> PgArticleStore::mark_duplicates(std::span<const std::pair<std::int64_t, std::int64_t>> marks) {
  if (marks.empty()) return {};
  auto done = in_transaction(db_.pool(), [&](Connection& c) { return write_duplicate_marks(c, marks); });
  if (!done) return db_error("cannot mark duplicate", done.error());
  return {};
}

Result<std::vector<ArticleView>> PgArticleStore::recent_junk(int limit) {
  auto rows = run_pooled(
      db_.pool(),
      LONGREAD_PG_LISTED LONGREAD_PG_ARTICLE_FROM
      " WHERE a.junk = 1 OR a.keep_override = 0 ORDER BY a.first_seen DESC, a.id DESC LIMIT :limit",
      "cannot list junk", [&](Query& q) { q.bind(":limit", std::max(limit, 0)); });
  if (!rows) return std::unexpected(rows.error());
  std::vector<ArticleView> out;
  for (int r = 0; r < rows->size(); ++r)
    out.push_back(read_article_view(*rows, r, db_.bodies(), PgPoolBodyDictionaries(db_.pool())));
  return out;
}

Result<std::vector<ArticleView>> PgArticleStore::near_misses(TimePoint since, int limit) {
  // A range of the articles_newest index (visible, display_at), then the shortest first.
  auto rows =
      run_pooled(db_.pool(),
                 LONGREAD_PG_LISTED LONGREAD_PG_ARTICLE_FROM
                 " WHERE a.visible = 1 AND a.display_at >= :since AND a.junk = 0 AND a.keep_override IS NULL"
                 " ORDER BY a.word_count, a.id DESC LIMIT :limit",
                 "cannot list near misses",
                 [&](Query& q) { q.bind(":since", since).bind(":limit", std::max(limit, 0)); });
  if (!rows) return std::unexpected(rows.error());
  std::vector<ArticleView> out;
  for (int r = 0; r < rows->size(); ++r)
    out.push_back(read_article_view(*rows, r, db_.bodies(), PgPoolBodyDictionaries(db_.pool())));
  return out;
}

}  // namespace longread::storage::postgres
