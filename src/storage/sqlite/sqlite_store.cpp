// The SQLite backend of storage::Store.
//
// Connections: one writer connection guarded by a mutex (SQLite allows one writer at a time anyway) and a
// small pool of reader connections. In WAL mode (https://sqlite.org/wal.html) readers see the last committed
// state and never wait for the writer, so pages keep rendering while a crawl commits.
#include <sqlite3.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <filesystem>
#include <mutex>
#include <set>
#include <system_error>

#include <fmt/core.h>

#include "core/strings.h"
#include "storage/migrations.h"
#include "storage/sqlite/handles.h"
#include "storage/store.h"

namespace longread::storage {
namespace {

using sqlite::Connection;
using sqlite::Query;
using sqlite::Transaction;

constexpr const char* kDefaultCategory = "uncategorized";
// Idle reader connections kept open; more are opened on demand when many threads read at once.
constexpr std::size_t kMaxIdleReaders = 8;

// ---------------------------------------------------------------------------------------------- SQL

constexpr const char* kEnableWal = "PRAGMA journal_mode = WAL";
constexpr const char* kReaderPragmas = "PRAGMA query_only = ON";

constexpr const char* kCreateSchemaMigrations =
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)";
constexpr const char* kSelectAppliedVersions = "SELECT version FROM schema_migrations";
constexpr const char* kInsertMigration =
    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (:version, :name, :applied_at)";

constexpr const char* kEnsureCategory =
    "INSERT INTO categories (slug, name) VALUES (:slug, :name) ON CONFLICT (slug) DO NOTHING";

// Re-upserting a blog from its list updates what the list says; an empty title or site URL in the list
// keeps what the feed told us. Crawl state is never touched here.
constexpr const char* kUpsertBlog =
    "INSERT INTO blogs (feed_url, site_url, title, category, short_form, created_at)"
    " VALUES (:feed_url, :site_url, :title, :category, :short_form, :created_at)"
    " ON CONFLICT (feed_url) DO UPDATE SET"
    "  site_url = CASE WHEN excluded.site_url <> '' THEN excluded.site_url ELSE blogs.site_url END,"
    "  title = CASE WHEN excluded.title <> '' THEN excluded.title ELSE blogs.title END,"
    "  category = excluded.category,"
    "  short_form = excluded.short_form"
    " RETURNING id";
constexpr const char* kSelectBlogCategoryByFeedUrl = "SELECT category FROM blogs WHERE feed_url = :feed_url";
constexpr const char* kSelectBlogCategory = "SELECT category FROM blogs WHERE id = :id";
// Articles that fell back to their blog's category follow the blog when it is re-filed.
constexpr const char* kRefileBlogArticles =
    "UPDATE articles SET category = :category WHERE blog_id = :blog_id AND category_from_blog = 1";

// article_count is the trigger-kept count of visible articles (migration 0004).
#define LONGREAD_BLOG_COLUMNS                                                                           \
  "b.id, b.feed_url, b.site_url, b.title, b.author, b.category, b.short_form, b.etag, b.last_modified," \
  " b.last_attempt_at, b.last_success_at, b.next_due_at, b.consecutive_failures, b.last_status,"        \
  " b.last_error, b.last_error_at, b.visible_articles"

constexpr const char* kSelectBlogById = "SELECT " LONGREAD_BLOG_COLUMNS " FROM blogs b WHERE b.id = :id";
constexpr const char* kSelectBlogByFeedUrl =
    "SELECT " LONGREAD_BLOG_COLUMNS " FROM blogs b WHERE b.feed_url = :feed_url";
constexpr const char* kSelectBlogs =
    "SELECT " LONGREAD_BLOG_COLUMNS " FROM blogs b ORDER BY LOWER(b.title), b.id";
// "IS NOT NULL" first: never-crawled blogs lead, whatever the engine's NULL ordering.
constexpr const char* kSelectDueBlogs = "SELECT " LONGREAD_BLOG_COLUMNS
                                        " FROM blogs b WHERE b.next_due_at IS NULL OR b.next_due_at <= :now"
                                        " ORDER BY b.next_due_at IS NOT NULL, b.next_due_at, b.id";
constexpr const char* kCountBlogs = "SELECT COUNT(*) FROM blogs";
constexpr const char* kCountArticles = "SELECT COUNT(*) FROM articles";

constexpr const char* kSelectArticleKeys =
    "SELECT id, guid, content_hash, full_text_fetched FROM articles WHERE blog_id = :blog_id";
constexpr const char* kSelectArticleIdentity =
    "SELECT id, content_hash FROM articles WHERE blog_id = :blog_id AND guid = :guid";

// A duplicate_of that names no stored article is dropped (NULL) instead of failing the whole crawl.
#define LONGREAD_DUPLICATE_OF "(SELECT d.id FROM articles d WHERE d.id = :duplicate_of)"

constexpr const char* kInsertArticle =
    "INSERT INTO articles (blog_id, guid, title, link, author, published, updated, undated, summary_html,"
    " content_html, first_seen, display_at, content_hash, text, excerpt, word_count, reading_minutes, "
    "category,"
    " category_from_blog, junk, junk_reason, duplicate_of, keep_override, visible, full_text_fetched, "
    "simhash,"
    " votes, score)"
    " VALUES (:blog_id, :guid, :title, :link, :author, :published, :updated, :undated, :summary_html,"
    " :content_html, :first_seen, :display_at, :content_hash, :text, :excerpt, :word_count, :reading_minutes,"
    " :category, :category_from_blog, :junk, :junk_reason, " LONGREAD_DUPLICATE_OF
    ", :keep_override, :visible, :full_text_fetched, :simhash, :votes, :score)";

// Content changed: everything the feed and curation say is replaced; id, votes, score, first_seen and
// the operator's keep_override stay.
constexpr const char* kUpdateArticle =
    "UPDATE articles SET title = :title, link = :link, author = :author, published = :published,"
    " updated = :updated, undated = :undated, summary_html = :summary_html, content_html = :content_html,"
    " display_at = COALESCE(:published, first_seen), content_hash = :content_hash, text = :text,"
    " excerpt = :excerpt, word_count = :word_count, reading_minutes = :reading_minutes, category = :category,"
    " category_from_blog = :category_from_blog, junk = :junk, junk_reason = :junk_reason,"
    " duplicate_of = " LONGREAD_DUPLICATE_OF
    ", visible = CASE WHEN keep_override IS NULL THEN 1 - :junk ELSE keep_override END,"
    " full_text_fetched = :full_text_fetched, simhash = :simhash"
    " WHERE id = :id";

// Content unchanged but curation given again: refresh it, writing (and re-indexing) only on a difference.
constexpr const char* kRefreshCuration =
    "UPDATE articles SET text = :text, excerpt = :excerpt, word_count = :word_count,"
    " reading_minutes = :reading_minutes, category = :category, category_from_blog = :category_from_blog,"
    " junk = :junk, junk_reason = :junk_reason, duplicate_of = " LONGREAD_DUPLICATE_OF
    ", visible = CASE WHEN keep_override IS NULL THEN 1 - :junk ELSE keep_override END,"
    " full_text_fetched = :full_text_fetched, simhash = :simhash"
    " WHERE id = :id AND NOT (text = :text AND excerpt = :excerpt AND word_count = :word_count"
    " AND reading_minutes = :reading_minutes AND category = :category AND junk = :junk"
    " AND junk_reason = :junk_reason AND duplicate_of IS " LONGREAD_DUPLICATE_OF
    " AND full_text_fetched = :full_text_fetched AND simhash = :simhash)";

constexpr const char* kUpdateBlogCrawlState =
    "UPDATE blogs SET last_attempt_at = :attempted_at,"
    " last_success_at = CASE WHEN :success = 1 THEN :attempted_at ELSE last_success_at END,"
    " last_status = :status, last_error = :error,"
    " last_error_at = CASE WHEN :success = 1 THEN last_error_at ELSE :attempted_at END,"
    " next_due_at = :next_due_at, consecutive_failures = :consecutive_failures,"
    " etag = COALESCE(:etag, etag), last_modified = COALESCE(:last_modified, last_modified),"
    " title = CASE WHEN title = '' THEN :feed_title ELSE title END,"
    " site_url = CASE WHEN site_url = '' THEN :site_url ELSE site_url END,"
    " author = CASE WHEN author = '' THEN :author ELSE author END"
    " WHERE id = :blog_id";
// A permanent redirect onto a feed URL another blog already has is not applied (it would break the
// unique feed URL); the crawl is still saved.
constexpr const char* kRedirectBlog =
    "UPDATE blogs SET feed_url = :feed_url WHERE id = :blog_id"
    " AND NOT EXISTS (SELECT 1 FROM blogs o WHERE o.feed_url = :feed_url)";

constexpr const char* kSetKeepOverride =
    "UPDATE articles SET keep_override = :keep,"
    " visible = CASE WHEN :keep IS NULL THEN 1 - junk ELSE :keep END WHERE id = :id";

constexpr const char* kSelectCategories =
    "SELECT slug, name, visible_articles FROM categories ORDER BY name, slug";

// count_articles without filters, or by blog or category alone, reads the trigger-kept counts.
constexpr const char* kCountAllVisible = "SELECT COALESCE(SUM(visible_articles), 0) FROM categories";
constexpr const char* kCountVisibleInBlog = "SELECT visible_articles FROM blogs WHERE id = :blog_id";
constexpr const char* kCountVisibleInCategory =
    "SELECT visible_articles FROM categories WHERE slug = :category";

// Listings read every article field except the three big ones (summary_html, content_html, text), which
// only the article page needs: a page of 30 would otherwise carry megabytes. Same column positions as the
// full form, so one row reader serves both.
#define LONGREAD_ARTICLE_COLUMNS_HEAD \
  "a.id, a.blog_id, a.guid, a.title, a.link, a.author, a.published, a.updated, a.undated,"
#define LONGREAD_ARTICLE_COLUMNS_TAIL                                                                  \
  " a.first_seen, a.content_hash, a.excerpt, a.word_count, a.reading_minutes, a.category, a.junk,"     \
  " a.junk_reason, a.duplicate_of, a.keep_override, a.full_text_fetched, a.simhash, a.votes, a.score," \
  " b.title, b.site_url, b.category"
#define LONGREAD_ARTICLE_FROM " FROM articles a JOIN blogs b ON b.id = a.blog_id"

constexpr const char* kSelectFullArticle =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD
    " a.summary_html, a.content_html, a.text," LONGREAD_ARTICLE_COLUMNS_TAIL LONGREAD_ARTICLE_FROM
    " WHERE a.id = :id";
constexpr const char* kSelectListedArticles =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD
    " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL LONGREAD_ARTICLE_FROM;
constexpr const char* kCountListedArticles = "SELECT COUNT(*) FROM articles a";
constexpr int kArticleColumnCount = 29;

// ArticleQuery filters, appended (as text without values) to the two statements above.
constexpr const char* kWhereAll = " WHERE 1 = 1";
constexpr const char* kWhereVisible = " WHERE a.visible = 1";
constexpr const char* kAndBlog = " AND a.blog_id = :blog_id";
constexpr const char* kAndCategory = " AND a.category = :category";
constexpr const char* kAndSince = " AND a.display_at >= :since";
constexpr const char* kAndNotBlog = " AND a.blog_id <> :exclude_blog_id";
constexpr const char* kAndNotArticle = " AND a.id <> :exclude_article_id";
constexpr const char* kOrderNewest = " ORDER BY a.display_at DESC, a.id DESC";
constexpr const char* kOrderTop = " ORDER BY a.votes DESC, a.display_at DESC, a.id DESC";
constexpr const char* kOrderHot = " ORDER BY a.score DESC, a.display_at DESC, a.id DESC";
constexpr const char* kLimitOffset = " LIMIT :limit OFFSET :offset";

constexpr const char* kSelectRecentJunk =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL LONGREAD_ARTICLE_FROM
    " WHERE a.junk = 1 OR a.keep_override = 0 ORDER BY a.first_seen DESC, a.id DESC LIMIT :limit";

// Full-text search (migrations 0002/0003, SQLite-specific). The index holds only visible articles, so the
// inner query ranks (BM25, title weighted 10x the text) and pages on the index alone. snippet() must not
// be computed there (it would run for every match before the sort), so the page of hits is looked up in
// the index again by rowid (CROSS JOIN fixes that join order) to build snippets, with \x01 and \x02
// around matches (https://sqlite.org/fts5.html#the_snippet_function), and joined with its rows.
constexpr const char* kSearchArticles =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL
    ", snippet(articles_fts, 1, char(1), char(2), '…', 32) FROM ("
    "  SELECT rowid AS id, bm25(articles_fts, 10.0, 1.0) AS rank_score"
    "  FROM articles_fts WHERE articles_fts MATCH :match"
    "  ORDER BY rank_score, rowid DESC LIMIT :limit OFFSET :offset"
    " ) s CROSS JOIN articles_fts ON articles_fts.rowid = s.id AND articles_fts MATCH :match"
    " JOIN articles a ON a.id = s.id JOIN blogs b ON b.id = a.blog_id"
    " ORDER BY s.rank_score, s.id DESC";

// ------------------------------------------------------------------------------------------ helpers

std::unexpected<Error> db_error(std::string_view what, const Error& cause) {
  return fail(ErrorKind::kStorage, fmt::format("store: {}: {}", what, cause.message));
}

// "machine-learning" -> "Machine Learning".
std::string category_name(std::string_view slug) {
  std::string name;
  bool word_start = true;
  for (const char c : slug) {
    if (c == '-' || c == '_') {
      name += ' ';
      word_start = true;
    } else {
      name += word_start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      word_start = false;
    }
  }
  return name;
}

std::string effective_content_hash(const model::Article& article) {
  if (!article.content_hash.empty()) return article.content_hash;
  return stable_hash_hex(article.title + "\x1f" + article.summary_html + "\x1f" + article.content_html);
}

std::optional<TimePoint> optional_time(const Query& q, int column) {
  if (q.is_null(column)) return std::nullopt;
  return from_unix(q.int64(column));
}

std::optional<std::int64_t> optional_unix(const std::optional<TimePoint>& t) {
  if (!t) return std::nullopt;
  return to_unix(*t);
}

model::Blog read_blog(const Query& q) {
  model::Blog b;
  b.id = q.int64(0);
  b.feed_url = q.text(1);
  b.site_url = q.text(2);
  b.title = q.text(3);
  b.author = q.text(4);
  b.category = q.text(5);
  b.short_form = q.int64(6) != 0;
  b.etag = q.text(7);
  b.last_modified = q.text(8);
  b.last_attempt_at = optional_time(q, 9);
  b.last_success_at = optional_time(q, 10);
  b.next_due_at = optional_time(q, 11);
  b.consecutive_failures = q.integer(12);
  b.last_status = q.text(13);
  b.last_error = q.text(14);
  b.last_error_at = optional_time(q, 15);
  b.article_count = q.int64(16);
  return b;
}

ArticleView read_article_view(const Query& q) {
  ArticleView v;
  model::Article& a = v.article;
  a.id = q.int64(0);
  a.blog_id = q.int64(1);
  a.guid = q.text(2);
  a.title = q.text(3);
  a.link = q.text(4);
  a.author = q.text(5);
  a.published = optional_time(q, 6);
  a.updated = optional_time(q, 7);
  a.undated = q.int64(8) != 0;
  a.summary_html = q.text(9);
  a.content_html = q.text(10);
  a.text = q.text(11);
  a.first_seen = from_unix(q.int64(12));
  a.content_hash = q.text(13);
  a.excerpt = q.text(14);
  a.word_count = q.integer(15);
  a.reading_minutes = q.integer(16);
  a.category = q.text(17);
  a.junk = q.int64(18) != 0;
  a.junk_reason = q.text(19);
  a.duplicate_of = q.optional_int64(20);
  if (!q.is_null(21)) a.keep_override = q.int64(21) != 0;
  a.full_text_fetched = q.int64(22) != 0;
  a.simhash = std::bit_cast<std::uint64_t>(q.int64(23));
  a.votes = q.integer(24);
  a.score = q.real(25);
  v.blog_title = q.text(26);
  v.blog_site_url = q.text(27);
  v.blog_category = q.text(28);
  return v;
}

// Turns what a reader typed into an FTS5 query that cannot be a syntax error: every whitespace-separated
// word becomes a quoted string (inner quotes doubled, https://sqlite.org/fts5.html#fts5_strings), and the
// strings are ANDed. Words without a letter or digit are dropped: the unicode61 tokenizer would make them
// empty phrases. Bytes >= 0x80 count as letters (non-ASCII scripts).
std::string fts5_match_expression(std::string_view input) {
  const std::string words = collapse_whitespace(input);
  std::string match;
  for (const std::string_view word : split(words, ' ')) {
    const bool has_token = std::any_of(word.begin(), word.end(), [](char c) {
      const auto u = static_cast<unsigned char>(c);
      return u >= 0x80 || std::isalnum(u) != 0;
    });
    if (!has_token) continue;
    if (!match.empty()) match += ' ';
    match += '"';
    for (const char c : word) {
      if (c == '"') match += '"';
      match += c;
    }
    match += '"';
  }
  return match;
}

// The listing statement for a query: constant fragments chosen by which filters are set; values are bound.
std::string listing_sql(const char* select, const ArticleQuery& query, bool with_order) {
  std::string sql = select;
  sql += query.include_junk ? kWhereAll : kWhereVisible;
  if (query.blog_id) sql += kAndBlog;
  if (query.category) sql += kAndCategory;
  if (query.since) sql += kAndSince;
  if (query.exclude_blog_id) sql += kAndNotBlog;
  if (query.exclude_article_id) sql += kAndNotArticle;
  if (with_order) {
    switch (query.order) {
      case ArticleOrder::kNewest:
        sql += kOrderNewest;
        break;
      case ArticleOrder::kTop:
        sql += kOrderTop;
        break;
      case ArticleOrder::kHot:
        sql += kOrderHot;
        break;
    }
    sql += kLimitOffset;
  }
  return sql;
}

void bind_listing_filters(Query& q, const ArticleQuery& query) {
  if (query.blog_id) q.bind(":blog_id", *query.blog_id);
  if (query.category) q.bind(":category", *query.category);
  if (query.since) q.bind(":since", to_unix(*query.since));
  if (query.exclude_blog_id) q.bind(":exclude_blog_id", *query.exclude_blog_id);
  if (query.exclude_article_id) q.bind(":exclude_article_id", *query.exclude_article_id);
}

Result<void> ensure_category(Connection& db, std::string_view slug) {
  auto q = db.query(kEnsureCategory);
  if (!q) return std::unexpected(q.error());
  q->bind(":slug", slug).bind(":name", category_name(slug));
  return q->run();
}

// ------------------------------------------------------------------------------------ connections

// Reader connections, handed out one per call and returned to the pool afterwards.
class ReaderPool {
 public:
  explicit ReaderPool(std::string path) : path_(std::move(path)) {}

  class Lease {
   public:
    Lease(ReaderPool& pool, std::unique_ptr<Connection> connection)
        : pool_(&pool), connection_(std::move(connection)) {}
    ~Lease() {
      if (connection_) pool_->release(std::move(connection_));
    }
    Lease(Lease&& other) noexcept = default;
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Connection& operator*() const noexcept { return *connection_; }
    Connection* operator->() const noexcept { return connection_.get(); }

   private:
    ReaderPool* pool_;
    std::unique_ptr<Connection> connection_;
  };

  Result<Lease> acquire() {
    {
      std::lock_guard lock(mutex_);
      if (!idle_.empty()) {
        auto connection = std::move(idle_.back());
        idle_.pop_back();
        return Lease(*this, std::move(connection));
      }
    }
    auto connection = Connection::open(path_, false);
    if (!connection) return std::unexpected(connection.error());
    if (auto ok = (*connection)->exec(kReaderPragmas); !ok) {
      return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path_, ok.error().message));
    }
    return Lease(*this, std::move(*connection));
  }

 private:
  void release(std::unique_ptr<Connection> connection) {
    std::lock_guard lock(mutex_);
    if (idle_.size() < kMaxIdleReaders) idle_.push_back(std::move(connection));
  }

  std::string path_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Connection>> idle_;
};

// Applies every migration the database has not seen, all in one transaction, recording each version.
Result<void> apply_migrations(Connection& db) {
  auto tx = Transaction::begin(db);
  if (!tx) return db_error("cannot apply migrations", tx.error());
  if (auto ok = db.exec(kCreateSchemaMigrations); !ok) return db_error("cannot apply migrations", ok.error());

  std::set<std::int64_t> applied;
  {
    auto q = db.query(kSelectAppliedVersions);
    if (!q) return db_error("cannot apply migrations", q.error());
    for (;;) {
      auto row = q->step();
      if (!row) return db_error("cannot apply migrations", row.error());
      if (!*row) break;
      applied.insert(q->int64(0));
    }
  }
  const auto known = migrations();
  if (!applied.empty() && !known.empty() && *applied.rbegin() > known.back().version) {
    return fail(ErrorKind::kStorage,
                fmt::format("store: database schema version {} is newer than this longread knows ({})",
                            *applied.rbegin(), known.back().version));
  }
  for (const Migration& m : known) {
    if (applied.contains(m.version)) continue;
    if (auto ok = db.exec(std::string(m.sql).c_str()); !ok) {
      return db_error(fmt::format("migration {:04}_{} failed", m.version, m.name), ok.error());
    }
    auto q = db.query(kInsertMigration);
    if (!q) return db_error("cannot apply migrations", q.error());
    q->bind(":version", static_cast<std::int64_t>(m.version)).bind(":name", m.name);
    q->bind(":applied_at", to_unix(now_seconds()));
    if (auto ok = q->run(); !ok) return db_error("cannot apply migrations", ok.error());
  }
  if (auto ok = tx->commit(); !ok) return db_error("cannot apply migrations", ok.error());
  return {};
}

// ------------------------------------------------------------------------------------------ store

class SqliteStore final : public Store {
 public:
  SqliteStore(std::unique_ptr<Connection> writer, std::string path)
      : writer_(std::move(writer)), readers_(std::move(path)) {}

  Result<std::int64_t> upsert_blog(const BlogSeed& seed) override {
    const std::string category = seed.category.empty() ? kDefaultCategory : seed.category;
    std::lock_guard lock(writer_mutex_);
    Connection& db = *writer_;
    auto tx = Transaction::begin(db);
    if (!tx) return db_error("cannot upsert blog", tx.error());

    std::optional<std::string> old_category;
    {
      auto q = db.query(kSelectBlogCategoryByFeedUrl);
      if (!q) return db_error("cannot upsert blog", q.error());
      q->bind(":feed_url", seed.feed_url);
      auto row = q->step();
      if (!row) return db_error("cannot upsert blog", row.error());
      if (*row) old_category = q->text(0);
    }
    if (auto ok = ensure_category(db, category); !ok) return db_error("cannot upsert blog", ok.error());

    std::int64_t id = 0;
    {
      auto q = db.query(kUpsertBlog);
      if (!q) return db_error("cannot upsert blog", q.error());
      q->bind(":feed_url", seed.feed_url).bind(":site_url", seed.site_url).bind(":title", seed.title);
      q->bind(":category", category).bind(":short_form", seed.short_form);
      q->bind(":created_at", to_unix(now_seconds()));
      auto row = q->step();
      if (!row) return db_error("cannot upsert blog", row.error());
      id = q->int64(0);
    }
    if (old_category && *old_category != category) {
      auto q = db.query(kRefileBlogArticles);
      if (!q) return db_error("cannot upsert blog", q.error());
      q->bind(":category", category).bind(":blog_id", id);
      if (auto ok = q->run(); !ok) return db_error("cannot upsert blog", ok.error());
    }
    if (auto ok = tx->commit(); !ok) return db_error("cannot upsert blog", ok.error());
    return id;
  }

  Result<std::optional<model::Blog>> blog(std::int64_t id) override {
    return read_one_blog(kSelectBlogById, [&](Query& q) { q.bind(":id", id); });
  }

  Result<std::optional<model::Blog>> blog_by_feed_url(std::string_view feed_url) override {
    return read_one_blog(kSelectBlogByFeedUrl, [&](Query& q) { q.bind(":feed_url", feed_url); });
  }

  Result<std::vector<model::Blog>> blogs() override {
    return read_blogs(kSelectBlogs, [](Query&) {});
  }

  Result<std::vector<model::Blog>> due_blogs(TimePoint now) override {
    return read_blogs(kSelectDueBlogs, [&](Query& q) { q.bind(":now", to_unix(now)); });
  }

  Result<std::int64_t> blog_count() override { return read_count(kCountBlogs, "cannot count blogs"); }

  Result<std::int64_t> article_count() override {
    return read_count(kCountArticles, "cannot count articles");
  }

  Result<std::vector<StoredArticleKey>> article_keys(std::int64_t blog_id) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectArticleKeys);
    if (!q) return db_error("cannot read article keys", q.error());
    q->bind(":blog_id", blog_id);
    std::vector<StoredArticleKey> keys;
    for (;;) {
      auto row = q->step();
      if (!row) return db_error("cannot read article keys", row.error());
      if (!*row) break;
      keys.push_back({.id = q->int64(0),
                      .guid = q->text(1),
                      .content_hash = q->text(2),
                      .full_text_fetched = q->int64(3) != 0});
    }
    return keys;
  }

  Result<SaveStats> save_crawl(const CrawlRecord& record) override {
    std::lock_guard lock(writer_mutex_);
    Connection& db = *writer_;
    auto tx = Transaction::begin(db);
    if (!tx) return db_error("cannot save crawl", tx.error());

    std::string blog_category;
    {
      auto q = db.query(kSelectBlogCategory);
      if (!q) return db_error("cannot save crawl", q.error());
      q->bind(":id", record.blog_id);
      auto row = q->step();
      if (!row) return db_error("cannot save crawl", row.error());
      if (!*row) return fail(ErrorKind::kNotFound, fmt::format("store: no blog {}", record.blog_id));
      blog_category = q->text(0);
    }

    SaveStats stats;
    for (const model::Article& article : record.articles) {
      auto saved = save_article(db, record, blog_category, article, stats);
      if (!saved) return std::unexpected(saved.error());
    }
    if (auto ok = save_blog_state(db, record); !ok) return std::unexpected(ok.error());
    if (auto ok = tx->commit(); !ok) return db_error("cannot save crawl", ok.error());
    return stats;
  }

  Result<std::optional<ArticleView>> article(std::int64_t id) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectFullArticle);
    if (!q) return db_error("cannot read article", q.error());
    q->bind(":id", id);
    auto row = q->step();
    if (!row) return db_error("cannot read article", row.error());
    if (!*row) return std::optional<ArticleView>{};
    return std::optional<ArticleView>{read_article_view(*q)};
  }

  Result<std::vector<ArticleView>> articles(const ArticleQuery& query) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(listing_sql(kSelectListedArticles, query, true));
    if (!q) return db_error("cannot list articles", q.error());
    bind_listing_filters(*q, query);
    q->bind(":limit", std::max(query.limit, 0)).bind(":offset", std::max(query.offset, 0));
    return read_article_views(*q, "cannot list articles");
  }

  Result<std::int64_t> count_articles(const ArticleQuery& query) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    const bool only_blog_or_category = !query.include_junk && !query.since && !query.exclude_blog_id &&
                                       !query.exclude_article_id && !(query.blog_id && query.category);
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
    auto q = (*db)->query(sql);
    if (!q) return db_error("cannot count articles", q.error());
    bind_listing_filters(*q, query);
    auto row = q->step();
    if (!row) return db_error("cannot count articles", row.error());
    return *row ? q->int64(0) : 0;  // no row: no such blog or category
  }

  Result<std::vector<SearchHit>> search(std::string_view query, int limit, int offset) override {
    const std::string match = fts5_match_expression(query);
    std::vector<SearchHit> hits;
    if (match.empty()) return hits;
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSearchArticles);
    if (!q) return db_error("cannot search", q.error());
    q->bind(":match", match).bind(":limit", std::max(limit, 0)).bind(":offset", std::max(offset, 0));
    for (;;) {
      auto row = q->step();
      if (!row) return db_error("cannot search", row.error());
      if (!*row) break;
      hits.push_back({.view = read_article_view(*q), .snippet = q->text(kArticleColumnCount)});
    }
    return hits;
  }

  Result<std::vector<model::Category>> categories() override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectCategories);
    if (!q) return db_error("cannot list categories", q.error());
    std::vector<model::Category> out;
    for (;;) {
      auto row = q->step();
      if (!row) return db_error("cannot list categories", row.error());
      if (!*row) break;
      out.push_back({.slug = q->text(0), .name = q->text(1), .article_count = q->int64(2)});
    }
    return out;
  }

  Result<void> set_keep_override(std::int64_t article_id, std::optional<bool> keep) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kSetKeepOverride);
    if (!q) return db_error("cannot set keep override", q.error());
    q->bind(":keep", keep).bind(":id", article_id);
    if (auto ok = q->run(); !ok) return db_error("cannot set keep override", ok.error());
    if (writer_->changes() == 0) {
      return fail(ErrorKind::kNotFound, fmt::format("store: no article {}", article_id));
    }
    return {};
  }

  Result<std::vector<ArticleView>> recent_junk(int limit) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectRecentJunk);
    if (!q) return db_error("cannot list junk", q.error());
    q->bind(":limit", std::max(limit, 0));
    return read_article_views(*q, "cannot list junk");
  }

 private:
  // Inserts, updates or leaves one article of a crawl (inside the crawl's transaction).
  static Result<void> save_article(Connection& db, const CrawlRecord& record,
                                   const std::string& blog_category, const model::Article& article,
                                   SaveStats& stats) {
    const std::string hash = effective_content_hash(article);
    const bool from_blog = article.category.empty() || article.category == blog_category;
    const std::string& category = from_blog ? blog_category : article.category;
    if (!from_blog) {
      if (auto ok = ensure_category(db, category); !ok) return db_error("cannot insert article", ok.error());
    }

    std::optional<std::int64_t> existing_id;
    std::string existing_hash;
    {
      auto q = db.query(kSelectArticleIdentity);
      if (!q) return db_error("cannot read article", q.error());
      q->bind(":blog_id", record.blog_id).bind(":guid", article.guid);
      auto row = q->step();
      if (!row) return db_error("cannot read article", row.error());
      if (*row) {
        existing_id = q->int64(0);
        existing_hash = q->text(1);
      }
    }

    auto bind_curation = [&](Query& q) {
      q.bind(":text", article.text).bind(":excerpt", article.excerpt).bind(":word_count", article.word_count);
      q.bind(":reading_minutes", article.reading_minutes).bind(":category", category);
      q.bind(":category_from_blog", from_blog).bind(":junk", article.junk);
      q.bind(":junk_reason", article.junk_reason).bind(":duplicate_of", article.duplicate_of);
      q.bind(":full_text_fetched", article.full_text_fetched);
      q.bind(":simhash", std::bit_cast<std::int64_t>(article.simhash));
    };
    auto bind_content = [&](Query& q) {
      q.bind(":title", article.title).bind(":link", article.link).bind(":author", article.author);
      q.bind(":published", optional_unix(article.published)).bind(":updated", optional_unix(article.updated));
      q.bind(":undated", article.undated).bind(":summary_html", article.summary_html);
      q.bind(":content_html", article.content_html).bind(":content_hash", hash);
    };

    if (!existing_id) {
      auto q = db.query(kInsertArticle);
      if (!q) return db_error("cannot insert article", q.error());
      const TimePoint first_seen =
          article.first_seen == TimePoint{} ? record.attempted_at : article.first_seen;
      const bool visible = article.keep_override ? *article.keep_override : !article.junk;
      bind_content(*q);
      bind_curation(*q);
      q->bind(":blog_id", record.blog_id).bind(":guid", article.guid);
      q->bind(":first_seen", to_unix(first_seen));
      q->bind(":display_at", to_unix(article.published.value_or(first_seen)));
      q->bind(":keep_override", article.keep_override).bind(":visible", visible);
      q->bind(":votes", article.votes).bind(":score", article.score);
      if (auto ok = q->run(); !ok) return db_error("cannot insert article", ok.error());
      ++stats.inserted;
    } else if (existing_hash != hash) {
      auto q = db.query(kUpdateArticle);
      if (!q) return db_error("cannot update article", q.error());
      bind_content(*q);
      bind_curation(*q);
      q->bind(":id", *existing_id);
      if (auto ok = q->run(); !ok) return db_error("cannot update article", ok.error());
      ++stats.updated;
    } else {
      // Unchanged. A record that carries curation (non-empty text) may refresh it; one without keeps it.
      if (!article.text.empty()) {
        auto q = db.query(kRefreshCuration);
        if (!q) return db_error("cannot update article", q.error());
        bind_curation(*q);
        q->bind(":id", *existing_id);
        if (auto ok = q->run(); !ok) return db_error("cannot update article", ok.error());
      }
      ++stats.unchanged;
    }
    return {};
  }

  static Result<void> save_blog_state(Connection& db, const CrawlRecord& record) {
    auto q = db.query(kUpdateBlogCrawlState);
    if (!q) return db_error("cannot update blog", q.error());
    // A failure without a separate error text records its status ("HTTP 404") as the error.
    std::string_view error;
    if (!record.success) error = record.error.empty() ? record.status : record.error;
    q->bind(":attempted_at", to_unix(record.attempted_at)).bind(":success", record.success);
    q->bind(":status", record.status).bind(":error", error);
    q->bind(":next_due_at", optional_unix(record.next_due_at));
    q->bind(":consecutive_failures", record.consecutive_failures);
    q->bind(":etag", record.etag).bind(":last_modified", record.last_modified);
    q->bind(":feed_title", record.feed_title)
        .bind(":site_url", record.site_url)
        .bind(":author", record.author);
    q->bind(":blog_id", record.blog_id);
    if (auto ok = q->run(); !ok) return db_error("cannot update blog", ok.error());

    if (record.new_feed_url && !record.new_feed_url->empty()) {
      auto r = db.query(kRedirectBlog);
      if (!r) return db_error("cannot update blog", r.error());
      r->bind(":feed_url", *record.new_feed_url).bind(":blog_id", record.blog_id);
      if (auto ok = r->run(); !ok) return db_error("cannot update blog", ok.error());
    }
    return {};
  }

  template <typename Bind>
  Result<std::optional<model::Blog>> read_one_blog(const char* sql, Bind bind) {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(sql);
    if (!q) return db_error("cannot read blog", q.error());
    bind(*q);
    auto row = q->step();
    if (!row) return db_error("cannot read blog", row.error());
    if (!*row) return std::optional<model::Blog>{};
    return std::optional<model::Blog>{read_blog(*q)};
  }

  template <typename Bind>
  Result<std::vector<model::Blog>> read_blogs(const char* sql, Bind bind) {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(sql);
    if (!q) return db_error("cannot list blogs", q.error());
    bind(*q);
    std::vector<model::Blog> out;
    for (;;) {
      auto row = q->step();
      if (!row) return db_error("cannot list blogs", row.error());
      if (!*row) break;
      out.push_back(read_blog(*q));
    }
    return out;
  }

  Result<std::int64_t> read_count(const char* sql, std::string_view what) {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(sql);
    if (!q) return db_error(what, q.error());
    auto row = q->step();
    if (!row) return db_error(what, row.error());
    return q->int64(0);
  }

  static Result<std::vector<ArticleView>> read_article_views(Query& q, std::string_view what) {
    std::vector<ArticleView> out;
    for (;;) {
      auto row = q.step();
      if (!row) return db_error(what, row.error());
      if (!*row) break;
      out.push_back(read_article_view(q));
    }
    return out;
  }

  std::mutex writer_mutex_;
  std::unique_ptr<Connection> writer_;  // guarded by writer_mutex_
  ReaderPool readers_;
};

}  // namespace

Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path) {
  // SQLite creates the file, not its directory ("data/longread.db" on a fresh checkout).
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec) return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path, ec.message()));
  }
  auto writer = Connection::open(path, true);
  if (!writer) return std::unexpected(writer.error());
  // The first statement that reads the file is where a non-database file is noticed ("file is not a
  // database"), so the message names the path here.
  {
    auto q = (*writer)->query(kEnableWal);
    if (!q)
      return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path, q.error().message));
    auto row = q->step();
    if (!row)
      return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path, row.error().message));
    if (!*row || q->text(0) != "wal") {
      return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: WAL mode unavailable", path));
    }
  }
  if (auto ok = apply_migrations(**writer); !ok) {
    return fail(ErrorKind::kStorage, fmt::format("{} ({})", ok.error().message, path));
  }
  return std::unique_ptr<Store>(std::make_unique<SqliteStore>(std::move(*writer), path));
}

}  // namespace longread::storage
