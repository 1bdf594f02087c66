// The SQLite side of saving crawls (ArticleStore::save_crawls) and of the reads a crawl plans with.
#include "storage/sqlite/sqlite_store.h"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include <fmt/core.h>

#include "storage/article_binds.h"
#include "storage/sqlite/article_body.h"
#include "storage/sqlite/duplicate_log.h"
#include "storage/sqlite/query_helpers.h"
#include "storage/values.h"

namespace longread::storage::sqlite {
namespace {

constexpr const char* kSelectBlogCategory = "SELECT category FROM blogs WHERE id = :id";

constexpr const char* kSelectArticleIdentity =
    "SELECT id, content_hash FROM articles WHERE blog_id = :blog_id AND guid = :guid";

// A duplicate_of that names no stored article is dropped (NULL) instead of failing the whole crawl.
#define LONGREAD_DUPLICATE_OF "(SELECT d.id FROM articles d WHERE d.id = :duplicate_of)"

// score is not written: it is a generated column (migration 0006), derived from votes and dates. The
// summary, content, text and excerpt go into the compressed body (migration 0021, article_body.h); their
// old columns keep their '' default.
#define LONGREAD_PACK_BODY "longread_body_pack(:summary_html, :content_html, :text, :excerpt)"
// A body prepared off the writer thread (SqliteStore::prepare_crawl) when :prepared is 1; COALESCE would not
// do, since a prepared body may be NULL (nothing to keep).
#define LONGREAD_BODY "CASE WHEN :prepared = 1 THEN :body ELSE " LONGREAD_PACK_BODY " END"
constexpr const char* kInsertArticle =
    "INSERT INTO articles (blog_id, guid, title, link, author, published, updated, undated, body,"
    " first_seen, display_at, content_hash, word_count, reading_minutes, "
    "category,"
    " category_from_blog, junk, junk_reason, duplicate_of, keep_override, visible, full_text_fetched, "
    "full_text_failures, full_text_error, simhash,"
    " votes, truncated, rank_prior)"
    " VALUES (:blog_id, :guid, :title, :link, :author, :published, :updated, :undated, " LONGREAD_BODY
    ", :first_seen, :display_at, :content_hash, :word_count, :reading_minutes,"
    " :category, :category_from_blog, :junk, :junk_reason, " LONGREAD_DUPLICATE_OF
    ", :keep_override, :visible, :full_text_fetched, :full_text_failures, :full_text_error, :simhash, :votes,"
    " :truncated, :rank_prior)";

// A new visible article enters the full-text index (migration 0007: the store writes it, after the crawl's
// other statements, so FTS5 writes the crawl's entries as one segment at commit). The index's delete and
// update triggers (migration 0003) keep it in step afterwards.
constexpr const char* kInsertSearchEntry =
    "INSERT INTO articles_fts (rowid, title, text) VALUES (:id, :title, :text)";

// A crawl's new visible articles are counted once per crawl (migration 0008), per blog and per category.
constexpr const char* kAddBlogVisibleCount =
    "UPDATE blogs SET visible_articles = visible_articles + :n WHERE id = :blog_id";
constexpr const char* kAddCategoryVisibleCount =
    "UPDATE categories SET visible_articles = visible_articles + :n WHERE slug = :category";

// Content changed: everything the feed and curation say is replaced; id, votes, score, first_seen and
// the operator's keep_override stay.
constexpr const char* kUpdateArticle =
    "UPDATE articles SET title = :title, link = :link, author = :author, published = :published,"
    " updated = :updated, undated = :undated, summary_html = '', content_html = '', text = '',"
    " excerpt = '', body = " LONGREAD_BODY
    ", display_at = COALESCE(:published, first_seen), content_hash = :content_hash,"
    " word_count = :word_count, reading_minutes = :reading_minutes, category = :category,"
    " category_from_blog = :category_from_blog, junk = :junk, junk_reason = :junk_reason,"
    " duplicate_of = " LONGREAD_DUPLICATE_OF
    ", visible = CASE WHEN held = 1 THEN 0 WHEN keep_override IS NULL THEN 1 - :junk ELSE keep_override END,"
    " full_text_fetched = :full_text_fetched, full_text_failures = :full_text_failures,"
    " full_text_error = :full_text_error, simhash = :simhash, truncated = :truncated, pruned_at = NULL,"
    " rank_prior = :rank_prior"
    " WHERE id = :id";

// Content unchanged but curation given again (a full-text page tried again, migration 0014): refresh it,
// with the page's HTML when it was read, writing (and re-indexing) only on a difference. The summary is
// kept from the stored body, in whichever form the row has it (migration 0021).
constexpr const char* kRefreshCuration =
    "UPDATE articles SET summary_html = '', content_html = '', text = '', excerpt = '',"
    " body = longread_body_pack(" LONGREAD_STORED_SUMMARY
    ", :content_html, :text, :excerpt),"
    " word_count = :word_count,"
    " reading_minutes = :reading_minutes, category = :category, category_from_blog = :category_from_blog,"
    " junk = :junk, junk_reason = :junk_reason, duplicate_of = " LONGREAD_DUPLICATE_OF
    ", visible = CASE WHEN held = 1 THEN 0 WHEN keep_override IS NULL THEN 1 - :junk ELSE keep_override END,"
    " full_text_fetched = :full_text_fetched, full_text_failures = :full_text_failures,"
    " full_text_error = :full_text_error, simhash = :simhash, pruned_at = NULL, rank_prior = :rank_prior"
    " WHERE id = :id AND NOT (" LONGREAD_STORED_CONTENT " = :content_html AND " LONGREAD_STORED_TEXT
    " = :text AND " LONGREAD_STORED_EXCERPT
    " = :excerpt"
    " AND word_count = :word_count"
    " AND reading_minutes = :reading_minutes AND category = :category AND junk = :junk"
    " AND junk_reason = :junk_reason AND duplicate_of IS " LONGREAD_DUPLICATE_OF
    " AND full_text_fetched = :full_text_fetched AND full_text_failures = :full_text_failures"
    " AND full_text_error = :full_text_error"
    " AND simhash = :simhash AND rank_prior = :rank_prior)";

constexpr const char* kUpdateBlogCrawlState =
    "UPDATE blogs SET last_attempt_at = :attempted_at,"
    " last_success_at = CASE WHEN :success = 1 THEN :attempted_at ELSE last_success_at END,"
    " last_status = :status, last_error = :error,"
    " last_error_at = CASE WHEN :success = 1 THEN last_error_at ELSE :attempted_at END,"
    " next_due_at = :next_due_at, consecutive_failures = :consecutive_failures,"
    " etag = COALESCE(:etag, etag), last_modified = COALESCE(:last_modified, last_modified),"
    " feed_update_minutes = CASE WHEN :feed_update_minutes IS NULL THEN feed_update_minutes"
    "  ELSE NULLIF(:feed_update_minutes, 0) END,"
    " title = CASE WHEN title = '' THEN :feed_title ELSE title END,"
    " site_url = CASE WHEN site_url = '' THEN :site_url ELSE site_url END,"
    " author = CASE WHEN author = '' THEN :author ELSE author END,"
    // The result is saved: the parse it covered is over (migration 0015). A feed body read without a crash
    // (a 200, the one case that sets validators) ends a crash streak; a 304 parses nothing, so proves
    // nothing.
    " parsing_by = '', parsing_since = NULL,"
    // Recorded: whichever crawler claimed the blog for this poll is done with it (migration 0030).
    " claimed_by = '', claimed_until = NULL,"
    " crashes = CASE WHEN :success = 1 AND :etag IS NOT NULL THEN 0 ELSE crashes END"
    " WHERE id = :blog_id";

// Budgets (migration 0015, docs/storage.md "Budgets"). The rows a blog has, read from the covering index
// articles_blog_display_at (migration 0012).
constexpr const char* kCountBlogArticles = "SELECT COUNT(*) FROM articles WHERE blog_id = :blog_id";
// What a blog over its cap may lose, in the order it loses it: hidden (junk) first, then the oldest. Never an
// article with a vote, on a reading list, kept by the operator or held by readers' flags (it waits for an
// operator's decision, migration 0023); the feed's current guids are left out by
// the caller.
constexpr const char* kSelectPruneCandidates =
    "SELECT a.id, a.guid FROM articles a WHERE a.blog_id = :blog_id AND a.votes = 0"
    " AND (a.keep_override IS NULL OR a.keep_override = 0) AND a.held = 0"
    " AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.article_id = a.id)"
    " AND NOT EXISTS (SELECT 1 FROM reading_list r WHERE r.article_id = a.id)"
    " ORDER BY a.visible, a.display_at, a.id";
// The delete triggers (migrations 0003, 0004) take a visible article out of the search index and the counts.
constexpr const char* kDeleteArticle = "DELETE FROM articles WHERE id = :id";
// Hidden articles past curate.junk_retention_days keep their row (guid, content hash, verdict) and lose the
// bodies; a held one keeps them (an operator's "keep" shows it again, whole). Hidden articles are not in the
// search index, so the index's update trigger writes nothing.
constexpr const char* kPruneHiddenBodies =
    "UPDATE articles SET summary_html = '', content_html = '', text = '', body = NULL, excerpt = '',"
    " pruned_at = :now"
    " WHERE blog_id = :blog_id AND visible = 0 AND pruned_at IS NULL AND first_seen < :before AND held = 0";
// A permanent redirect onto a feed URL another blog already has is not applied (it would break the
// unique feed URL); the crawl is still saved. The URL it replaces and when are kept for the blog
// lifecycle's "moved" list (migration 0026).
constexpr const char* kRedirectBlog =
    "UPDATE blogs SET feed_url = :feed_url, moved_from = feed_url, moved_at = :now WHERE id = :blog_id"
    " AND NOT EXISTS (SELECT 1 FROM blogs o WHERE o.feed_url = :feed_url)";

// save_crawls: one savepoint per crawl record inside the group's transaction
// (https://sqlite.org/lang_savepoint.html).
constexpr const char* kSavepointRecord = "SAVEPOINT crawl_record";
constexpr const char* kRollbackToRecord = "ROLLBACK TO crawl_record";
constexpr const char* kReleaseRecord = "RELEASE crawl_record";

// What save_crawl writes once per crawl instead of once per new article: the visible-article counters
// of the blog and categories (migration 0008), and the full-text index entries (0007), which go last.
// The articles are the record's, which outlives this.
class DeferredWrites {
 public:
  void add_visible(std::int64_t id, const std::string& category, const model::Article& article) {
    entries_.push_back({id, &article});
    ids_.insert(id);
    ++visible_by_category_[category];
    ++visible_;
  }
  [[nodiscard]] bool has_search_entry(std::int64_t id) const { return ids_.contains(id); }

  // Counters commute with the update triggers' -1/+1, so they may be written at any point of the crawl.
  Result<void> write_counts(Connection& db, std::int64_t blog_id) {
    constexpr std::string_view kFailed = "cannot count articles";
    if (visible_ == 0) return {};
    auto blog = run(db, kAddBlogVisibleCount, kFailed,
                    [&](Query& q) { q.bind(":n", visible_).bind(":blog_id", blog_id); });
    if (!blog) return blog;
    for (const auto& count : visible_by_category_) {
      auto ok = run(db, kAddCategoryVisibleCount, kFailed,
                    [&](Query& q) { q.bind(":n", count.second).bind(":category", count.first); });
      if (!ok) return ok;
    }
    visible_ = 0;
    visible_by_category_.clear();
    return {};
  }

  // Must come after every other statement of the crawl (migration 0007).
  Result<void> write_search_entries(Connection& db) {
    for (const auto& entry : entries_) {
      auto ok = run(db, kInsertSearchEntry, "cannot index article", [&](Query& q) {
        q.bind(":id", entry.first).bind(":title", entry.second->title).bind(":text", entry.second->text);
      });
      if (!ok) return ok;
    }
    entries_.clear();
    ids_.clear();
    return {};
  }

 private:
  std::vector<std::pair<std::int64_t, const model::Article*>> entries_;
  std::unordered_set<std::int64_t> ids_;
  std::map<std::string, std::int64_t, std::less<>> visible_by_category_;
  std::int64_t visible_ = 0;
};

// Inserts, updates or leaves one article of a crawl (inside the crawl's transaction).
// `prepared`: the article's body made by prepare_crawl (an empty string: no body), or null to pack it here.
Result<void> save_article(Connection& db, const CrawlRecord& record, const std::string& blog_category,
                          const model::Article& article, const std::string* prepared, SaveStats& stats,
                          DeferredWrites& deferred) {
  const std::string hash = effective_content_hash(article);
  const bool from_blog = article.category.empty() || article.category == blog_category;
  const std::string& category = from_blog ? blog_category : article.category;
  if (!from_blog) {
    if (auto ok = ensure_category(db, category); !ok) return db_error("cannot insert article", ok.error());
  }

  // The stored article of this guid: its id and content hash.
  auto existing = read_optional(
      db, kSelectArticleIdentity, "cannot read article",
      [&](Query& q) { q.bind(":blog_id", record.blog_id).bind(":guid", article.guid); },
      [](const Query& q) {
        return std::pair{q.int64(0), q.text(1)};
      });
  if (!existing) return std::unexpected(existing.error());

  auto bind_content = [&](Query& q) {
    q.bind(":title", article.title).bind(":link", article.link).bind(":author", article.author);
    q.bind(":published", optional_unix(article.published)).bind(":updated", optional_unix(article.updated));
    q.bind(":undated", article.undated).bind(":content_hash", hash).bind(":truncated", article.truncated);
    q.bind(":prepared", prepared != nullptr);
    if (prepared == nullptr) {
      q.bind(":summary_html", article.summary_html).bind(":content_html", article.content_html);
    } else if (!prepared->empty()) {
      q.bind_blob(":body", *prepared);
    }
  };

  if (!*existing) {
    const TimePoint first_seen = article.first_seen == TimePoint{} ? record.attempted_at : article.first_seen;
    const bool visible = article.keep_override ? *article.keep_override : !article.junk;
    auto ok = run(db, kInsertArticle, "cannot insert article", [&](Query& q) {
      bind_content(q);
      bind_curation(q, article, category, from_blog);
      q.bind(":text", article.text);
      q.bind(":blog_id", record.blog_id).bind(":guid", article.guid);
      q.bind(":first_seen", to_unix(first_seen));
      q.bind(":display_at", to_unix(article.published.value_or(first_seen)));
      q.bind(":keep_override", article.keep_override).bind(":visible", visible);
      q.bind(":votes", article.votes);
    });
    if (!ok) return ok;
    stats.ids.push_back(db.last_insert_rowid());
    if (visible) deferred.add_visible(stats.ids.back(), category, article);
    ++stats.inserted;
    return {};
  }
  const auto& [existing_id, existing_hash] = **existing;
  stats.ids.push_back(existing_id);
  // The index triggers of an update delete the old entry: it must be in the index first (a feed that
  // repeats a guid inserts and then updates one article in the same crawl).
  if (deferred.has_search_entry(existing_id)) {
    if (auto ok = deferred.write_search_entries(db); !ok) return std::unexpected(ok.error());
  }
  if (existing_hash != hash) {
    auto ok = run(db, kUpdateArticle, "cannot update article", [&](Query& q) {
      bind_content(q);
      bind_curation(q, article, category, from_blog);
      q.bind(":text", article.text);
      q.bind(":id", existing_id);
    });
    if (!ok) return ok;
    ++stats.updated;
  } else {
    // Unchanged. A record that carries curation (non-empty text) may refresh it; one without keeps it.
    if (!article.text.empty()) {
      auto ok = run(db, kRefreshCuration, "cannot update article", [&](Query& q) {
        bind_curation(q, article, category, from_blog);
        q.bind(":text", article.text);
        q.bind(":content_html", article.content_html).bind(":id", existing_id);
      });
      if (!ok) return ok;
    }
    ++stats.unchanged;
  }
  return {};
}

// CrawlRecord's budgets, after the record's articles and counts are written. The rows this crawl inserted
// carry guids of the feed, so they are never deleted here (their search entries are still to be written).
Result<void> apply_budgets(Connection& db, const CrawlRecord& record, SaveStats& stats) {
  constexpr std::string_view kFailed = "cannot prune articles";
  if (record.prune_hidden_before) {
    auto pruned = run_changes(db, kPruneHiddenBodies, kFailed, [&](Query& q) {
      q.bind(":blog_id", record.blog_id).bind(":before", to_unix(*record.prune_hidden_before));
      q.bind(":now", to_unix(record.attempted_at));
    });
    if (!pruned) return std::unexpected(pruned.error());
    stats.bodies_pruned = *pruned;
  }
  if (record.max_articles <= 0 || stats.inserted == 0) return {};
  auto rows =
      read_int64(db, kCountBlogArticles, kFailed, [&](Query& q) { q.bind(":blog_id", record.blog_id); });
  if (!rows) return std::unexpected(rows.error());
  if (*rows <= record.max_articles) return {};
  const std::unordered_set<std::string_view> in_feed(record.feed_guids.begin(), record.feed_guids.end());
  std::vector<std::int64_t> doomed;
  {
    auto q = db.query(kSelectPruneCandidates);
    if (!q) return db_error(kFailed, q.error());
    q->bind(":blog_id", record.blog_id);
    const auto excess = static_cast<std::size_t>(*rows - record.max_articles);
    while (doomed.size() < excess) {
      auto row = q->step();
      if (!row) return db_error(kFailed, row.error());
      if (!*row) break;
      if (!in_feed.contains(q->text(1))) doomed.push_back(q->int64(0));
    }
  }
  for (const std::int64_t id : doomed) {
    if (auto ok = run(db, kDeleteArticle, kFailed, [&](Query& q) { q.bind(":id", id); }); !ok) return ok;
  }
  stats.deleted = static_cast<int>(doomed.size());
  stats.deleted_ids = std::move(doomed);
  return {};
}

Result<void> save_blog_state(Connection& db, const CrawlRecord& record) {
  constexpr std::string_view kFailed = "cannot update blog";
  auto ok = run(db, kUpdateBlogCrawlState, kFailed, [&](Query& q) {
    // A failure without a separate error text records its status ("HTTP 404") as the error.
    std::string_view error;
    if (!record.success) error = record.error.empty() ? record.status : record.error;
    q.bind(":attempted_at", to_unix(record.attempted_at)).bind(":success", record.success);
    q.bind(":status", record.status).bind(":error", error);
    q.bind(":next_due_at", optional_unix(record.next_due_at));
    q.bind(":consecutive_failures", record.consecutive_failures);
    q.bind(":etag", record.etag).bind(":last_modified", record.last_modified);
    std::optional<std::int64_t> feed_update_minutes;
    if (record.feed_update_interval)
      feed_update_minutes = std::max<std::int64_t>(0, record.feed_update_interval->count());
    q.bind(":feed_update_minutes", feed_update_minutes);
    q.bind(":feed_title", record.feed_title)
        .bind(":site_url", record.site_url)
        .bind(":author", record.author);
    q.bind(":blog_id", record.blog_id);
  });
  if (!ok) return ok;

  if (record.new_feed_url && !record.new_feed_url->empty()) {
    return run(db, kRedirectBlog, kFailed, [&](Query& q) {
      q.bind(":feed_url", *record.new_feed_url).bind(":blog_id", record.blog_id);
      q.bind(":now", to_unix(record.attempted_at));
    });
  }
  return {};
}

// One crawl record's statements, inside the caller's transaction or savepoint. The search entries stay
// in `deferred` for the caller to write after every other statement.
Result<SaveStats> save_record(Connection& db, const CrawlRecord& record, DeferredWrites& deferred) {
  auto blog_category = read_optional(
      db, kSelectBlogCategory, "cannot save crawl", [&](Query& q) { q.bind(":id", record.blog_id); },
      [](const Query& q) { return q.text(0); });
  if (!blog_category) return std::unexpected(blog_category.error());
  if (!*blog_category) return fail(ErrorKind::kNotFound, fmt::format("store: no blog {}", record.blog_id));
  SaveStats stats;
  const bool prepared = record.prepared_bodies.size() == record.articles.size();
  for (std::size_t i = 0; i < record.articles.size(); ++i) {
    auto saved = save_article(db, record, **blog_category, record.articles[i],
                              prepared ? &record.prepared_bodies[i] : nullptr, stats, deferred);
    if (!saved) return std::unexpected(saved.error());
  }
  if (auto ok = save_blog_state(db, record); !ok) return std::unexpected(ok.error());
  if (auto ok = deferred.write_counts(db, record.blog_id); !ok) return std::unexpected(ok.error());
  if (auto ok = apply_budgets(db, record, stats); !ok) return std::unexpected(ok.error());
  return stats;
}

// display_at is COALESCE(published, first_seen) (migration 0001); junk counts too. One range of the
// covering index articles_blog_display_at (migration 0012; docs/fetch.md has the plan and the figures).
// An undated article's date is when it was first seen, so the undated posts of the blog's first crawl
// (its whole back catalogue) are not counted as recent: only those that appeared after it.
constexpr const char* kCountRecentArticles =
    "SELECT COUNT(*) FROM articles WHERE blog_id = :blog_id AND display_at >= :since"
    " AND (undated = 0 OR first_seen > (SELECT MIN(first_seen) FROM articles WHERE blog_id = :blog_id))";

}  // namespace

Result<std::vector<StoredArticleKey>> SqliteStore::article_keys(std::int64_t blog_id) {
  return with_reader([&](Connection& db) { return read_article_keys(db, blog_id); });
}

Result<std::int64_t> SqliteStore::count_recent_articles(std::int64_t blog_id, TimePoint since) {
  return with_reader([&](Connection& db) {
    return read_int64(db, kCountRecentArticles, "cannot count recent articles", [&](Query& q) {
      q.bind(":blog_id", blog_id);
      q.bind(":since", to_unix(since));
    });
  });
}

// Compressing bodies needs no transaction, only the newest dictionary's id (a reader's read, once for the
// record): done here, on the caller's thread, it leaves the crawl's one writer thread a tenth less to do.
Result<void> SqliteStore::prepare_crawl(CrawlRecord& record) {
  std::vector<std::string> bodies;
  bodies.reserve(record.articles.size());
  auto packed = with_reader([&](Connection& db) -> Result<void> {
    auto dictionary = bodies_->current_id(sqlite::SqliteBodyDictionaries(db.raw()));
    if (!dictionary) return std::unexpected(dictionary.error());
    for (const model::Article& a : record.articles) {
      const ArticleBodyView body{.summary_html = a.summary_html,
                                 .content_html = a.content_html,
                                 .text = a.text,
                                 .excerpt = a.excerpt};
      if (body.empty()) {
        bodies.emplace_back();
        continue;
      }
      auto frame = bodies_->pack(sqlite::SqliteBodyDictionaries(db.raw()), *dictionary, body);
      if (!frame) return std::unexpected(frame.error());
      bodies.push_back(std::move(*frame));
    }
    return {};
  });
  if (!packed) return packed;
  record.prepared_bodies = std::move(bodies);
  return {};
}

Result<SaveStats> SqliteStore::save_crawl(const CrawlRecord& record) {
  auto results = save_crawls(std::span(&record, 1));
  if (!results) return std::unexpected(results.error());
  return std::move(results->front());
}

Result<std::vector<Result<SaveStats>>> SqliteStore::save_crawls(std::span<const CrawlRecord> records,
                                                                const DecideDuplicates& decide) {
  // A crash quarantine mark covers a parse, and the parses of these records are over: their marks go before
  // the save begins (parse_marks.h). Cleared after the commit instead, a process killed between the two left
  // the marks of blogs it had saved, and the next pass counted a crash each of those blogs had not caused.
  // A kill now, before the commit, loses no crash either: these blogs were parsed to the end, and not being
  // saved, they are fetched and parsed again. Not in the transaction, which would hold the marks' file as
  // long as the articles' lock. Should this fail, the pass's end clears its marks (clear_parsing_marks).
  std::vector<std::int64_t> parsed;
  parsed.reserve(records.size());
  for (const auto& record : records) parsed.push_back(record.blog_id);
  (void)marks_->clear_blogs(parsed);
  return save_crawls_in_transaction(records, decide);
}

Result<std::vector<Result<SaveStats>>> SqliteStore::save_crawls_in_transaction(
    std::span<const CrawlRecord> records, const DecideDuplicates& decide) {
  constexpr std::string_view kFailed = "cannot save crawl";
  return in_write_transaction(kFailed, [&](Connection& db) -> Result<std::vector<Result<SaveStats>>> {
    std::vector<Result<SaveStats>> results;
    results.reserve(records.size());
    std::vector<DeferredWrites> saved;  // the search entries of the records kept, written last
    saved.reserve(records.size());
    std::unordered_set<std::int64_t> blogs_in_group;
    for (const CrawlRecord& record : records) {
      // A second record of one blog may update an article the first one inserted, and the update's index
      // trigger deletes that article's entry: the entries held back so far must be in the index first (an
      // FTS5 delete of an entry that is not there breaks the index).
      if (!blogs_in_group.insert(record.blog_id).second) {
        for (auto& earlier : saved) {
          if (auto ok = earlier.write_search_entries(db); !ok) return std::unexpected(ok.error());
        }
      }
      if (auto ok = db.exec(kSavepointRecord); !ok) return db_error(kFailed, ok.error());
      DeferredWrites deferred;
      auto stats = save_record(db, record, deferred);
      if (!stats) {
        // Undo this record alone; the savepoint stays open until released, so release it too.
        if (auto ok = db.exec(kRollbackToRecord); !ok) return db_error(kFailed, ok.error());
      } else {
        saved.push_back(std::move(deferred));
      }
      if (auto ok = db.exec(kReleaseRecord); !ok) return db_error(kFailed, ok.error());
      results.push_back(std::move(stats));
    }
    for (auto& deferred : saved) {
      if (auto ok = deferred.write_search_entries(db); !ok) return std::unexpected(ok.error());
    }
    // Last, so that it sees the group as it will be committed. This write transaction is the decision's
    // lock: SQLite lets one process at a time write.
    if (decide) {
      SqliteDuplicateDecision decision(db);
      if (auto ok = decide(decision, results); !ok) return db_error(kFailed, ok.error());
    }
    return results;
  });
}

}  // namespace longread::storage::sqlite
