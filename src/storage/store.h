// The storage interface: everything longread keeps goes through a Store. A SQLite backend ships now; a
// PostgreSQL one comes later, so SQL stays portable and the schema lives in numbered migrations.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "model/model.h"

namespace longread::storage {

// A blog as a blog list (OPML, default list) describes it. Upserted by feed URL.
struct BlogSeed {
  std::string feed_url{};
  std::string site_url{};
  std::string title{};
  std::string category{};  // slug; empty: "uncategorized"
  bool short_form = false;
};

// What one crawl of one blog produced; save_crawl writes all of it in one transaction.
struct CrawlRecord {
  std::int64_t blog_id = 0;
  TimePoint attempted_at{};
  bool success = false;  // the feed was read (200 parsed or 304)
  std::string status{};  // "ok", "not modified", "HTTP 404", "timed out after 30 s", ...
  std::string error{};   // empty on success
  std::optional<TimePoint> next_due_at{};
  int consecutive_failures = 0;
  std::optional<std::string> new_feed_url{};  // after a permanent redirect (301/308)
  std::optional<std::string> etag{};          // set: replace the stored validator
  std::optional<std::string> last_modified{};
  // Feed metadata, applied when non-empty and the blog has none from its list.
  std::string feed_title{};
  std::string site_url{};
  std::string author{};
  std::vector<model::Article> articles{};  // upserted by (blog_id, guid)
};

struct SaveStats {
  int inserted = 0;
  int updated = 0;  // content changed; votes and first-seen kept
  int unchanged = 0;
};

// What the pipeline needs to know of an already stored article to avoid repeated work.
struct StoredArticleKey {
  std::int64_t id = 0;
  std::string guid{};
  // As last stored: the Article::content_hash the pipeline gave, else the store's
  // stable_hash_hex(title + "\x1f" + summary_html + "\x1f" + content_html).
  std::string content_hash{};
  bool full_text_fetched = false;
};

enum class ArticleOrder { kNewest, kTop, kHot };

// A listing of articles for a page. Junk is excluded unless `include_junk`.
struct ArticleQuery {
  std::optional<std::int64_t> blog_id{};
  std::optional<std::string> category{};
  std::optional<TimePoint> since{};  // only articles dated at or after this (for "top this week")
  ArticleOrder order = ArticleOrder::kNewest;
  std::optional<std::int64_t> exclude_blog_id{};
  std::optional<std::int64_t> exclude_article_id{};
  bool include_junk = false;
  int limit = 30;
  int offset = 0;
};

// An article with what a page shows of its blog.
struct ArticleView {
  model::Article article{};
  std::string blog_title{};
  std::string blog_site_url{};
  std::string blog_category{};
};

struct SearchHit {
  ArticleView view{};
  std::string snippet{};  // text with matches wrapped in \x01 ... \x02 (the page escapes, then marks)
};

// The store. Every method is safe to call from several threads; implementations serialise as needed.
class Store {
 public:
  virtual ~Store() = default;

  // --- blogs
  virtual Result<std::int64_t> upsert_blog(const BlogSeed& seed) = 0;
  virtual Result<std::optional<model::Blog>> blog(std::int64_t id) = 0;
  virtual Result<std::vector<model::Blog>> blogs() = 0;  // with article_count
  virtual Result<std::vector<model::Blog>> due_blogs(TimePoint now) = 0;
  virtual Result<std::int64_t> blog_count() = 0;
  // The blog whose feed URL is exactly `feed_url` (as stored: after any permanent redirect), if any.
  virtual Result<std::optional<model::Blog>> blog_by_feed_url(std::string_view feed_url) = 0;

  // --- crawling
  virtual Result<std::vector<StoredArticleKey>> article_keys(std::int64_t blog_id) = 0;
  virtual Result<SaveStats> save_crawl(const CrawlRecord& record) = 0;

  // --- reading
  virtual Result<std::optional<ArticleView>> article(std::int64_t id) = 0;
  // Listings (articles, search, recent_junk) leave the big fields summary_html, content_html and text
  // empty to keep pages light; article(id) fills every field.
  virtual Result<std::vector<ArticleView>> articles(const ArticleQuery& query) = 0;
  virtual Result<std::int64_t> count_articles(const ArticleQuery& query) = 0;
  virtual Result<std::vector<SearchHit>> search(std::string_view query, int limit, int offset) = 0;
  virtual Result<std::vector<model::Category>> categories() = 0;  // with visible article counts
  // Every stored article, junk included (for the operator's status output).
  virtual Result<std::int64_t> article_count() = 0;
  // A number that changes whenever anything a page shows may have changed (any committed write, from this
  // process or another). The site caches rendered pages keyed by it, so it must be cheap (no table scan).
  // The default says "unsupported", which turns the page cache off.
  virtual Result<std::int64_t> data_version() {
    return fail(ErrorKind::kInternal, "store: data_version not supported by this backend");
  }

  // --- curation
  // Sets (or clears with nullopt) the operator's keep/junk override of an article.
  virtual Result<void> set_keep_override(std::int64_t article_id, std::optional<bool> keep) = 0;
  virtual Result<std::vector<ArticleView>> recent_junk(int limit) = 0;
};

// Opens (creating if needed) the SQLite database at `path`, applies pending migrations, enables WAL.
Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path);

}  // namespace longread::storage
