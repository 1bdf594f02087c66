// The SQLite backend of storage::Store.
//
// Connections: one writer connection guarded by a mutex (SQLite allows one writer at a time anyway) and a
// small pool of reader connections. In WAL mode (https://sqlite.org/wal.html) readers see the last committed
// state and never wait for the writer, so pages keep rendering while a crawl commits.
#include <sqlite3.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <span>
#include <stop_token>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "core/strings.h"
#include "storage/article_binds.h"
#include "storage/listing_keys.h"
#include "storage/migrations.h"
#include "storage/search_terms.h"
#include "storage/sqlite/article_body.h"
#include "storage/sqlite/article_rows.h"
#include "storage/sqlite/for_you.h"
#include "storage/sqlite/handles.h"
#include "storage/sqlite/lifecycle.h"
#include "storage/sqlite/moderation.h"
#include "storage/sqlite/personal_filters.h"
#include "storage/sqlite/rate_limits.h"
#include "storage/sqlite/reader_api.h"
#include "storage/sqlite/saved_links.h"
#include "storage/sqlite/search_rank.h"
#include "storage/sqlite/similar.h"
#include "storage/sqlite/suggestions.h"
#include "storage/store.h"
#include "storage/values.h"

namespace longread::storage {
namespace {

using sqlite::BodyDictionaries;
using sqlite::Connection;
using sqlite::db_error;
using sqlite::kArticleColumnCount;
using sqlite::optional_time;
using sqlite::Query;
using sqlite::read_article_view;
using sqlite::Transaction;

// Idle reader connections kept open; more are opened on demand when many threads read at once.
constexpr std::size_t kMaxIdleReaders = 8;
// How many of a search word's newest matches are walked to count or estimate its document frequency.
constexpr std::int64_t kSearchFrequencySampleSize = 500;

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
// keeps what the feed told us. Crawl state is never touched here, except that a list that un-pauses a
// paused blog makes it due at once, as `blogs resume` does. A NULL :paused (the list does not say) keeps it.
constexpr const char* kUpsertBlog =
    "INSERT INTO blogs (feed_url, site_url, title, category, short_form, paused, allowed_hosts, created_at)"
    " VALUES (:feed_url, :site_url, :title, :category, :short_form, COALESCE(:paused, 0),"
    " COALESCE(:allowed_hosts, ''), :created_at)"
    " ON CONFLICT (feed_url) DO UPDATE SET"
    "  site_url = CASE WHEN excluded.site_url <> '' THEN excluded.site_url ELSE blogs.site_url END,"
    "  title = CASE WHEN excluded.title <> '' THEN excluded.title ELSE blogs.title END,"
    "  category = excluded.category,"
    "  short_form = excluded.short_form,"
    "  paused = COALESCE(:paused, blogs.paused),"
    "  allowed_hosts = COALESCE(:allowed_hosts, blogs.allowed_hosts),"
    "  next_due_at = CASE WHEN blogs.paused = 1 AND :paused = 0 THEN NULL ELSE blogs.next_due_at END"
    " RETURNING id";
constexpr const char* kSelectBlogCategoryByFeedUrl = "SELECT category FROM blogs WHERE feed_url = :feed_url";
constexpr const char* kSelectBlogCategory = "SELECT category FROM blogs WHERE id = :id";
// Articles that fell back to their blog's category follow the blog when it is re-filed.
constexpr const char* kRefileBlogArticles =
    "UPDATE articles SET category = :category WHERE blog_id = :blog_id AND category_from_blog = 1";
// An operator's edit (BlogEdit): NULL keeps a column. Every right-hand side reads the row as it was, so
// "paused = 1 AND :paused = 0" is a resume, which makes the blog due at once.
constexpr const char* kSelectBlogEditState = "SELECT category, paused FROM blogs WHERE id = :id";
constexpr const char* kSelectOtherBlogWithFeedUrl =
    "SELECT id FROM blogs WHERE feed_url = :feed_url AND id <> :id";
constexpr const char* kEditBlog =
    "UPDATE blogs SET title = COALESCE(:title, title), category = COALESCE(:category, category),"
    " short_form = COALESCE(:short_form, short_form), feed_url = COALESCE(:feed_url, feed_url),"
    " paused = COALESCE(:paused, paused), allowed_hosts = COALESCE(:allowed_hosts, allowed_hosts),"
    // A resume also lifts a crash quarantine (migration 0015) and starts its count again.
    " quarantined = CASE WHEN :paused = 0 THEN 0 ELSE quarantined END,"
    " crashes = CASE WHEN :paused = 0 THEN 0 ELSE crashes END,"
    // A new feed URL drops the old URL's validators (they belong to the other resource) and is read at once.
    " etag = CASE WHEN :feed_url IS NOT NULL AND :feed_url <> feed_url THEN '' ELSE etag END,"
    " last_modified = CASE WHEN :feed_url IS NOT NULL AND :feed_url <> feed_url THEN '' ELSE last_modified "
    "END,"
    " next_due_at = CASE WHEN ((paused = 1 OR quarantined = 1) AND :paused = 0) OR (:feed_url IS NOT NULL"
    " AND :feed_url <> feed_url)"
    " THEN NULL ELSE next_due_at END"
    " WHERE id = :id";
// A category an edit left without blogs and articles goes, so the site does not list it with 0 articles.
constexpr const char* kDropEmptyCategory =
    "DELETE FROM categories WHERE slug = :slug AND NOT EXISTS (SELECT 1 FROM blogs WHERE category = :slug)"
    " AND NOT EXISTS (SELECT 1 FROM articles WHERE category = :slug)";

// article_count is the trigger-kept count of visible articles (migration 0004).
#define LONGREAD_BLOG_COLUMNS                                                                           \
  "b.id, b.feed_url, b.site_url, b.title, b.author, b.category, b.short_form, b.etag, b.last_modified," \
  " b.last_attempt_at, b.last_success_at, b.next_due_at, b.consecutive_failures, b.last_status,"        \
  " b.last_error, b.last_error_at, b.visible_articles, b.feed_update_minutes, b.paused, b.crashes,"     \
  " b.quarantined, b.allowed_hosts"

constexpr const char* kSelectBlogById = "SELECT " LONGREAD_BLOG_COLUMNS " FROM blogs b WHERE b.id = :id";
constexpr const char* kSelectBlogByFeedUrl =
    "SELECT " LONGREAD_BLOG_COLUMNS " FROM blogs b WHERE b.feed_url = :feed_url";
constexpr const char* kSelectBlogs =
    "SELECT " LONGREAD_BLOG_COLUMNS " FROM blogs b ORDER BY LOWER(b.title), b.id";
// "IS NOT NULL" first: never-crawled blogs lead, whatever the engine's NULL ordering. Paused blogs
// (migration 0011) and quarantined ones (0015) are never due.
// A blog another crawler has claimed (migration 0030) is not due until the claim lapses.
#define LONGREAD_DUE_BLOGS                                                                                 \
  " FROM blogs b WHERE b.paused = 0 AND b.quarantined = 0 AND (b.next_due_at IS NULL OR b.next_due_at <= " \
  ":now) AND (b.claimed_until IS NULL OR b.claimed_until <= :now)"                                         \
  " ORDER BY b.next_due_at IS NOT NULL, b.next_due_at, b.id"
constexpr const char* kSelectDueBlogs = "SELECT " LONGREAD_BLOG_COLUMNS LONGREAD_DUE_BLOGS;
// LIMIT -1: no limit.
constexpr const char* kSelectDueBlogsToClaim =
    "SELECT " LONGREAD_BLOG_COLUMNS LONGREAD_DUE_BLOGS " LIMIT :limit";
constexpr const char* kClaimBlog =
    "UPDATE blogs SET claimed_by = :owner, claimed_until = :lease_until WHERE id = :blog_id";
constexpr const char* kReleaseBlogClaims =
    "UPDATE blogs SET claimed_by = '', claimed_until = NULL WHERE claimed_by = :owner";
// The per-blog subqueries read the (blog_id, display_at) index of migration 0012.
constexpr const char* kSelectBlogHealth =
    "SELECT " LONGREAD_BLOG_COLUMNS
    ", b.created_at,"
    " (SELECT MAX(a.display_at) FROM articles a WHERE a.blog_id = b.id),"
    " (SELECT COUNT(*) FROM articles a WHERE a.blog_id = b.id AND a.display_at >= :since),"
    " (SELECT COUNT(*) FROM articles a WHERE a.blog_id = b.id)"
    " FROM blogs b ORDER BY LOWER(b.title), b.id";
constexpr const char* kCountBlogs = "SELECT COUNT(*) FROM blogs";
constexpr const char* kCountArticles = "SELECT COUNT(*) FROM articles";
// Each count reads an index or a small table; visible articles are the per-blog counts the store keeps.
constexpr const char* kSiteStats =
    "SELECT (SELECT COUNT(*) FROM blogs),"
    " (SELECT COUNT(*) FROM blogs WHERE paused = 0 AND quarantined = 0 AND"
    "  (next_due_at IS NULL OR next_due_at <= :now)),"
    " (SELECT COUNT(*) FROM blogs WHERE paused = 1),"
    " (SELECT COUNT(*) FROM blogs WHERE quarantined = 1),"
    " (SELECT COUNT(*) FROM blogs WHERE consecutive_failures > 0),"
    " (SELECT COALESCE(SUM(visible_articles), 0) FROM blogs),"
    " (SELECT COUNT(*) FROM articles WHERE junk = 1),"
    " (SELECT COUNT(*) FROM readers),"
    " (SELECT COUNT(*) FROM subscribers WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL),"
    " (SELECT COUNT(*) FROM mail_outbox),"
    " (SELECT MAX(updated_at) FROM newsletter_deliveries WHERE state = 'sent'),"
    " (SELECT COUNT(*) FROM articles WHERE held = 1)";

constexpr const char* kSelectArticleKeys =
    "SELECT id, guid, content_hash, full_text_fetched, full_text_failures FROM articles WHERE blog_id = "
    ":blog_id";
constexpr const char* kSelectArticleIdentity =
    "SELECT id, content_hash FROM articles WHERE blog_id = :blog_id AND guid = :guid";

// A duplicate_of that names no stored article is dropped (NULL) instead of failing the whole crawl.
#define LONGREAD_DUPLICATE_OF "(SELECT d.id FROM articles d WHERE d.id = :duplicate_of)"

// score is not written: it is a generated column (migration 0006), derived from votes and dates. The
// summary, content, text and excerpt go into the compressed body (migration 0021, article_body.h); their
// old columns keep their '' default.
#define LONGREAD_PACK_BODY "longread_body_pack(:summary_html, :content_html, :text, :excerpt)"
constexpr const char* kInsertArticle =
    "INSERT INTO articles (blog_id, guid, title, link, author, published, updated, undated, body,"
    " first_seen, display_at, content_hash, word_count, reading_minutes, "
    "category,"
    " category_from_blog, junk, junk_reason, duplicate_of, keep_override, visible, full_text_fetched, "
    "full_text_failures, full_text_error, simhash,"
    " votes, truncated, rank_prior)"
    " VALUES (:blog_id, :guid, :title, :link, :author, :published, :updated, :undated, " LONGREAD_PACK_BODY
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
    " excerpt = '', body = " LONGREAD_PACK_BODY
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
#define LONGREAD_STORED_SUMMARY "longread_body_part(body, 0, summary_html)"
#define LONGREAD_STORED_CONTENT "longread_body_part(body, 1, content_html)"
#define LONGREAD_STORED_TEXT "longread_body_part(body, 2, text)"
#define LONGREAD_STORED_EXCERPT "longread_body_part(body, 3, excerpt)"
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

// Crash quarantine (migration 0015). A mark is one autocommitted UPDATE.
constexpr const char* kMarkParsing =
    "UPDATE blogs SET parsing_by = :owner, parsing_since = :since WHERE id = :blog_id";
constexpr const char* kSelectParsingMarks =
    "SELECT id, parsing_by, parsing_since FROM blogs WHERE parsing_by <> '' ORDER BY id";
constexpr const char* kClearParsingMarks =
    "UPDATE blogs SET parsing_by = '', parsing_since = NULL WHERE parsing_by = :owner";
// Only while the blog still carries the mark that was read: of two processes finding the same dead mark,
// one records the crash.
constexpr const char* kRecordCrawlerCrash =
    "UPDATE blogs SET crashes = :crashes, quarantined = :quarantined, parsing_by = '', parsing_since = NULL,"
    " last_attempt_at = :now, last_status = :status, last_error = :status, last_error_at = :now,"
    " consecutive_failures = consecutive_failures + 1, next_due_at = :next_due_at"
    " WHERE id = :blog_id AND parsing_by = :owner AND parsing_since = :since";

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

// An override is also the operator's decision on readers' flags (migration 0023): it lifts a hold, and a
// flagged article records it so that later flags never hold it again. Clearing the override leaves the
// flags as they are.
constexpr const char* kSetKeepOverride =
    "UPDATE articles SET keep_override = :keep,"
    " flag_decision = CASE WHEN :keep IS NULL OR NOT EXISTS (SELECT 1 FROM article_flags f"
    "  WHERE f.article_id = articles.id) THEN flag_decision WHEN :keep = 1 THEN 'keep' ELSE 'junk' END,"
    " held = CASE WHEN :keep IS NULL THEN held ELSE 0 END,"
    " hold_threshold = CASE WHEN :keep IS NULL THEN hold_threshold ELSE 0 END,"
    " visible = CASE WHEN :keep IS NOT NULL THEN :keep WHEN held = 1 THEN 0 ELSE 1 - junk END WHERE id = :id";

// set_verdicts: only a changed verdict is written, so the update trigger (search index, counts) runs only
// for articles that move; duplicates keep their mark.
constexpr const char* kSetVerdict =
    "UPDATE articles SET junk = :junk, junk_reason = :reason,"
    " visible = CASE WHEN held = 1 THEN 0 WHEN keep_override IS NULL THEN 1 - :junk ELSE keep_override END"
    " WHERE id = :id AND duplicate_of IS NULL AND (junk <> :junk OR junk_reason <> :reason)";

// set_texts: only an article whose derived text differs is written, so the update trigger rewrites the
// search entries of just those.
constexpr const char* kSetText =
    "UPDATE articles SET summary_html = '', content_html = '', text = '', excerpt = '',"
    " body = longread_body_pack(" LONGREAD_STORED_SUMMARY ", " LONGREAD_STORED_CONTENT
    ", :text, :excerpt),"
    " word_count = :word_count,"
    " reading_minutes = :reading_minutes, simhash = :simhash"
    " WHERE id = :id AND (" LONGREAD_STORED_TEXT " <> :text OR " LONGREAD_STORED_EXCERPT
    " <> :excerpt OR word_count <> :word_count"
    " OR reading_minutes <> :reading_minutes OR simhash <> :simhash)";

// The body converter (migration 0021, `longread db compact`): the next articles, in id order, whose body is
// still in the old columns, or compressed with another dictionary than the newest (:dictionary, 0 for
// none). Rows emptied by pruning have nothing to convert.
constexpr const char* kSelectUncompacted =
    "SELECT id FROM articles WHERE id > :after AND ((body IS NULL"
    " AND (summary_html <> '' OR content_html <> '' OR text <> '' OR excerpt <> ''))"
    " OR (body IS NOT NULL AND longread_body_dictionary(body) <> :dictionary)) ORDER BY id LIMIT :batch";
// The search index's update trigger compares the derived text, which is unchanged, so it writes nothing.
constexpr const char* kCompactArticle =
    "UPDATE articles SET body = longread_body_pack(" LONGREAD_STORED_SUMMARY ", " LONGREAD_STORED_CONTENT
    ", " LONGREAD_STORED_TEXT ", " LONGREAD_STORED_EXCERPT
    "), summary_html = '', content_html = '', text = '', excerpt = '' WHERE id = :id";
// How many samples a dictionary is trained on: zstd advises ~100x the dictionary's size in samples, and
// 4,000 articles of a few KB each give that.
constexpr int kDictionarySamples = 4000;

constexpr const char* kDataVersion = "PRAGMA data_version";
// save_crawls: one savepoint per crawl record inside the group's transaction
// (https://sqlite.org/lang_savepoint.html).
constexpr const char* kSavepointRecord = "SAVEPOINT crawl_record";
constexpr const char* kRollbackToRecord = "ROLLBACK TO crawl_record";
constexpr const char* kReleaseRecord = "RELEASE crawl_record";

// Originals only: an article already marked a duplicate never becomes the original of another.
constexpr const char* kSelectSimhashIndex =
    "SELECT id, blog_id, simhash, display_at FROM articles WHERE duplicate_of IS NULL AND simhash <> 0"
    " AND id > :after_id";
// Taken when free, lapsed, or already the owner's (which extends it); changes() says whether it was.
constexpr const char* kTryLock =
    "INSERT INTO process_locks (name, owner, held_until) VALUES (:name, :owner, :until)"
    " ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, held_until = excluded.held_until"
    " WHERE process_locks.held_until <= :now OR process_locks.owner = excluded.owner";
constexpr const char* kUnlock = "DELETE FROM process_locks WHERE name = :name AND owner = :owner";

constexpr const char* kMarkDuplicate =
    "UPDATE articles SET duplicate_of = :original, junk = 1, junk_reason = :reason,"
    " visible = CASE WHEN held = 1 THEN 0 WHEN keep_override IS NULL THEN 0 ELSE keep_override END"
    " WHERE id = :id";

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

// Full-text search (migrations 0002/0003, SQLite-specific). The index holds only visible articles, so a
// search ranks and pages over exactly what it may show. Ranking every match by BM25 before taking a page
// costs time in proportion to the matches (1.2-1.8 s for a common word at 1,000,000 articles), so only the
// newest matches are ranked (docs/storage.md, "Search"):
//   1. document frequencies: for each word or phrase, its newest kSearchFrequencySample matches are
//      walked; fewer is its exact count, else the share of the id range they span estimates it;
//   2. candidates: FTS5 walks the query's posting lists from the highest rowid down (ORDER BY rowid DESC is
//      consumed by FTS5 itself) and stops after :candidates matches. Article ids grow with insertion, so
//      these are the most recently stored matches. longread_rank() (search_rank.h: FTS5's BM25, title
//      weighted 10x the text, with the frequencies of step 1) is computed for them alone;
//   3. rank: each candidate's score is ln(relevance) + display_at * ln(2) / half-life, i.e. its BM25
//      relevance halved for every kSearchHalfLifeDays of age; ordered by it (then newest id), paged;
//   4. snippets: computed for the page only. snippet() must not run in the candidate query (it would run
//      for every candidate), so the page is looked up in the index again by rowid (CROSS JOIN fixes that
//      join order) to build snippets, with \x01 and \x02 around matches
//      (https://sqlite.org/fts5.html#the_snippet_function), and joined with its rows.
// The rank is never above 0 (IDF is floored at 1e-6), so its negation is a positive relevance; the max()
// only guards ln() against a zero.
// Every step above is bounded, yet a search's cost still depends on the words a visitor types (a phrase of
// common words walks long posting lists): past this it is cut short (kTimeout, "That search took too long").
// At 1,000,000 articles the slowest kind measured takes under 60 ms (docs/perf.md).
constexpr std::chrono::milliseconds kSearchBudget{1000};
constexpr const char* kSearchFrequencySample =
    "SELECT rowid FROM articles_fts WHERE articles_fts MATCH :match ORDER BY rowid DESC LIMIT :sample";
// Two subqueries: SQLite reads a lone MIN() or MAX() from one end of the index, but not both in one query.
constexpr const char* kSearchIdRange =
    "SELECT (SELECT MIN(id) FROM articles), (SELECT MAX(id) FROM articles)";
#define LONGREAD_SEARCH_RANK \
  "ln(max(-c.relevance, 1e-12)) + a.display_at * 0.6931471805599453 / (:half_life_days * 86400.0)"
// The search statement in two parts, a reader's filters between them (search_sql).
constexpr const char* kSearchArticlesHead =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL
    ", snippet(articles_fts, 1, char(1), char(2), '…', 32) FROM ("
    "  SELECT c.id AS id, " LONGREAD_SEARCH_RANK
    " AS rank_score FROM ("
    "    SELECT rowid AS id, longread_rank(articles_fts, 10.0, 1.0, :frequencies) AS relevance"
    "    FROM articles_fts WHERE articles_fts MATCH :match";
constexpr const char* kSearchArticlesTail =
    " ORDER BY rowid DESC LIMIT :candidates"
    "  ) c JOIN articles a ON a.id = c.id"
    "  ORDER BY rank_score DESC, c.id DESC LIMIT :limit OFFSET :offset"
    " ) s CROSS JOIN articles_fts ON articles_fts.rowid = s.id AND articles_fts MATCH :match"
    " JOIN articles a ON a.id = s.id JOIN blogs b ON b.id = a.blog_id"
    " ORDER BY s.rank_score DESC, s.id DESC";

// ------------------------------------------------------------------------------ readers

constexpr const char* kInsertReader =
    "INSERT INTO readers (email, email_key, password_hash, created_at, confirmed_at)"
    " VALUES (:email, :email_key, :password_hash, :created_at, :confirmed_at)"
    " ON CONFLICT (email_key) DO NOTHING";
constexpr const char* kSelectReaderByEmail =
    "SELECT id, email, password_hash, created_at, confirmed_at, operator FROM readers"
    " WHERE email_key = :email_key";
// Articles go by ON DELETE CASCADE (migration 0001); their triggers keep the search index (0003) and the
// visible counts (0004) right, and votes and reading-list rows cascade from the articles (0005).
constexpr const char* kDeleteBlog = "DELETE FROM blogs WHERE id = :id";
constexpr const char* kSelectReaders =
    "SELECT id, email, password_hash, created_at, confirmed_at, operator FROM readers ORDER BY id";
constexpr const char* kSetReaderOperator =
    "UPDATE readers SET operator = :operator WHERE email_key = :email_key";
constexpr const char* kSetReaderPassword =
    "UPDATE readers SET password_hash = :password_hash,"
    " confirmed_at = COALESCE(confirmed_at, :confirm_at) WHERE id = :id";
constexpr const char* kConfirmReader =
    "UPDATE readers SET confirmed_at = COALESCE(confirmed_at, :now) WHERE id = :id";
constexpr const char* kDeleteReaderSessions = "DELETE FROM sessions WHERE reader_id = :reader_id";
constexpr const char* kWithdrawReaderVotes =
    "UPDATE articles SET votes = votes - 1"
    " WHERE id IN (SELECT article_id FROM votes WHERE reader_id = :reader_id)";
// Sessions, votes and the reading list go with it (ON DELETE CASCADE, migration 0005).
constexpr const char* kDeleteReader = "DELETE FROM readers WHERE id = :reader_id";
constexpr const char* kInsertSession =
    "INSERT INTO sessions (token_hash, reader_id, created_at, expires_at)"
    " VALUES (:token_hash, :reader_id, :created_at, :expires_at)";
constexpr const char* kSelectSessionReader =
    "SELECT r.id, r.email, s.expires_at, r.operator FROM sessions s JOIN readers r ON r.id = s.reader_id"
    " WHERE s.token_hash = :token_hash AND s.expires_at > :now";
constexpr const char* kDeleteSession = "DELETE FROM sessions WHERE token_hash = :token_hash";
constexpr const char* kDeleteExpiredSessions = "DELETE FROM sessions WHERE expires_at <= :now";

// ------------------------------------------------------------------------------ audit log

constexpr const char* kInsertAuditEntry =
    "INSERT INTO admin_audit (at, actor_id, actor, action, target, detail)"
    " VALUES (:at, :actor_id, :actor, :action, :target, :detail)";
// One more row than the page holds tells whether an older page exists.
constexpr const char* kSelectAuditEntries =
    "SELECT id, at, actor_id, actor, action, target, detail FROM admin_audit"
    " WHERE :before = 0 OR id < :before ORDER BY id DESC LIMIT :limit";

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

constexpr const char* kUpsertSubscriber =
    "INSERT INTO subscribers (email, email_key, created_at) VALUES (:email, :email_key, :now)"
    " ON CONFLICT (email_key) DO UPDATE SET unsubscribed_at = NULL,"
    "  confirmed_at = CASE WHEN subscribers.unsubscribed_at IS NULL THEN subscribers.confirmed_at END"
    " RETURNING id, email, created_at, confirmed_at";
constexpr const char* kConfirmSubscriber =
    "UPDATE subscribers SET confirmed_at = COALESCE(confirmed_at, :now)"
    " WHERE email_key = :email_key AND unsubscribed_at IS NULL";
constexpr const char* kUnsubscribe =
    "UPDATE subscribers SET unsubscribed_at = :now, confirmed_at = NULL"
    " WHERE email_key = :email_key AND unsubscribed_at IS NULL";
// With the confirmed account of the same address (email_key, as accounts compare addresses), whose
// personal filters shape the subscriber's issue. Only a confirmed account: whoever signs up with someone
// else's address without confirming it cannot change what that subscriber receives.
constexpr const char* kSelectConfirmedSubscribers =
    "SELECT s.id, s.email, s.created_at, s.confirmed_at, r.id FROM subscribers s"
    " LEFT JOIN readers r ON r.email_key = s.email_key AND r.confirmed_at IS NOT NULL"
    " WHERE s.confirmed_at IS NOT NULL AND s.unsubscribed_at IS NULL ORDER BY s.id";
constexpr const char* kSetSubscriberError =
    "UPDATE subscribers SET last_error = :error, last_error_at = :now WHERE id = :id";
constexpr const char* kInsertIssue =
    "INSERT INTO newsletter_issues (issue_key, article_ids, created_at) VALUES (:key, :article_ids, :now)"
    " ON CONFLICT (issue_key) DO NOTHING";
constexpr const char* kSelectIssue =
    "SELECT id, issue_key, article_ids, created_at FROM newsletter_issues WHERE issue_key = :key";
constexpr const char* kSelectDeliveryState =
    "SELECT state FROM newsletter_deliveries WHERE issue_id = :issue_id AND subscriber_id = :subscriber_id";
constexpr const char* kClaimDelivery =
    "INSERT INTO newsletter_deliveries (issue_id, subscriber_id, state, attempts, updated_at)"
    " VALUES (:issue_id, :subscriber_id, 'sending', 1, :now)"
    " ON CONFLICT (issue_id, subscriber_id) DO UPDATE SET state = 'sending',"
    "  attempts = newsletter_deliveries.attempts + 1, updated_at = :now";
constexpr const char* kFinishDelivery =
    "UPDATE newsletter_deliveries SET state = :state, last_error = :error, updated_at = :now"
    " WHERE issue_id = :issue_id AND subscriber_id = :subscriber_id";
constexpr const char* kCountDeliveries =
    "SELECT COUNT(*) FROM newsletter_deliveries WHERE issue_id = :issue_id AND state = :state";
constexpr const char* kInsertSecret =
    "INSERT INTO secrets (name, value, created_at) VALUES (:name, :value, :now) ON CONFLICT (name) DO "
    "NOTHING";
constexpr const char* kSelectSecret = "SELECT value FROM secrets WHERE name = :name";

// Account-mail outbox (migration 0013).
#define LONGREAD_OUTBOX_COLUMNS \
  "id, kind, recipient, message, created_at, not_after, attempts, next_attempt_at, last_error"
constexpr const char* kInsertOutboxMail =
    "INSERT INTO mail_outbox (kind, recipient, message, created_at, not_after, next_attempt_at)"
    " VALUES (:kind, :recipient, :message, :created_at, :not_after, :next_attempt_at)";
constexpr const char* kSelectDueMails = "SELECT " LONGREAD_OUTBOX_COLUMNS
                                        " FROM mail_outbox WHERE next_attempt_at <= :now AND not_after > :now"
                                        " ORDER BY next_attempt_at, id LIMIT :limit";
constexpr const char* kClaimMail =
    "UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = :lease_until WHERE id = :id";
constexpr const char* kDeleteMail = "DELETE FROM mail_outbox WHERE id = :id";
constexpr const char* kMarkMailFailed =
    "UPDATE mail_outbox SET last_error = :error, next_attempt_at = :next_attempt_at WHERE id = :id";
constexpr const char* kSelectExpiredMails =
    "SELECT " LONGREAD_OUTBOX_COLUMNS " FROM mail_outbox WHERE not_after <= :now ORDER BY id";
constexpr const char* kDeleteExpiredMails = "DELETE FROM mail_outbox WHERE not_after <= :now";
constexpr const char* kSelectOutboxMails = "SELECT " LONGREAD_OUTBOX_COLUMNS " FROM mail_outbox ORDER BY id";
constexpr const char* kSelectNextMailDue = "SELECT MIN(next_attempt_at) FROM mail_outbox";
// `mail retry`: MIN keeps a mail already due as it is; UPDATE counts every row it matched, changed or not.
constexpr const char* kRetryMail =
    "UPDATE mail_outbox SET next_attempt_at = MIN(next_attempt_at, :now) WHERE id = :id";
constexpr const char* kRetryAllMails = "UPDATE mail_outbox SET next_attempt_at = MIN(next_attempt_at, :now)";
// claim_mail_slot: the upsert changes a row only when the recorded mail is older than the gap
// (SQLite counts a DO UPDATE whose WHERE fails as no change).
constexpr const char* kPruneMailThrottle = "DELETE FROM mail_throttle WHERE sent_at <= :cutoff";
constexpr const char* kClaimMailSlot =
    "INSERT INTO mail_throttle (recipient, kind, sent_at) VALUES (:recipient, :kind, :now)"
    " ON CONFLICT (recipient, kind) DO UPDATE SET sent_at = excluded.sent_at"
    " WHERE mail_throttle.sent_at <= :cutoff";

// The rows of a query over LONGREAD_OUTBOX_COLUMNS.
Result<std::vector<OutboxMail>> read_outbox_mails(Query& q) {
  std::vector<OutboxMail> out;
  for (;;) {
    auto row = q.step();
    if (!row) return std::unexpected(row.error());
    if (!*row) break;
    out.push_back({.id = q.int64(0),
                   .kind = q.text(1),
                   .recipient = q.text(2),
                   .message = q.text(3),
                   .created_at = from_unix(q.int64(4)),
                   .not_after = from_unix(q.int64(5)),
                   .attempts = q.integer(6),
                   .next_attempt_at = from_unix(q.int64(7)),
                   .last_error = q.text(8)});
  }
  return out;
}

// Emails are matched case-insensitively (ASCII lower-casing; the local part is case-sensitive by RFC 5321
// in theory but not in practice).
std::string email_key(std::string_view email) {
  std::string key(email);
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

std::string ids_json(const std::vector<std::int64_t>& ids) {
  std::string json = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) json += ',';
    json += std::to_string(ids[i]);
  }
  return json + "]";
}

const char* delivery_state_name(DeliveryState state) {
  switch (state) {
    case DeliveryState::kSending:
      return "sending";
    case DeliveryState::kSent:
      return "sent";
    case DeliveryState::kRetry:
      return "retry";
    case DeliveryState::kFailed:
      return "failed";
  }
  return "sending";
}

// ------------------------------------------------------------------------------------------ helpers

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
  if (const auto minutes = q.optional_int64(17); minutes && *minutes > 0)
    b.feed_update_interval = std::chrono::minutes{*minutes};
  b.paused = q.int64(18) != 0;
  b.crashes = q.integer(19);
  b.quarantined = q.int64(20) != 0;
  b.allowed_hosts = split_words(q.text(21));
  return b;
}

// What a reader typed as FTS5 strings that cannot be a syntax error: each search term (search_terms.h)
// becomes a quoted string, inner quotes doubled (https://sqlite.org/fts5.html#fts5_strings); the strings
// are ANDed.
std::vector<std::string> fts5_phrases(std::string_view input) {
  std::vector<std::string> phrases;
  for (const std::string& term : search_terms(input)) {
    std::string& quoted = phrases.emplace_back("\"");
    for (const char c : term) {
      if (c == '"') quoted += '"';
      quoted += c;
    }
    quoted += '"';
  }
  return phrases;
}

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

// The search statement; with a reader's filters among the FTS5 matches, before the newest :candidates are
// taken, so what the reader muted never uses up the candidates. The filter is a subquery on the article
// row, so FTS5 still walks its rowids from the top and stops at :candidates.
std::string search_sql(const std::optional<ReaderFilter>& reader) {
  std::string sql = kSearchArticlesHead;
  if (reader) {
    sql += " AND EXISTS (SELECT 1 FROM articles x WHERE x.id = articles_fts.rowid" +
           sqlite::reader_filter_sql(*reader, "x") + ")";
  }
  sql += kSearchArticlesTail;
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
  ReaderPool(std::string path, std::shared_ptr<BodyDictionaries> bodies)
      : path_(std::move(path)), bodies_(std::move(bodies)) {}

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
    if (const std::string error = sqlite::register_search_rank((*connection)->raw()); !error.empty()) {
      return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path_, error));
    }
    if (const std::string error = sqlite::register_body_functions((*connection)->raw(), bodies_);
        !error.empty()) {
      return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path_, error));
    }
    return Lease(*this, std::move(*connection));
  }

 private:
  void release(std::unique_ptr<Connection> connection) {
    std::lock_guard lock(mutex_);
    if (idle_.size() < kMaxIdleReaders) idle_.push_back(std::move(connection));
  }

  std::string path_;
  std::shared_ptr<BodyDictionaries> bodies_;
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

// WAL checkpoints off the writer's path. SQLite's automatic checkpoint runs inside the COMMIT that pushes
// the WAL past 1000 pages, so the writer (the one thread a crawl's saves go through) would copy pages into
// the database file and fsync it while every other thread waits for it. The WAL page lists that
// https://sqlite.org/wal.html#automatic_checkpoint suggests instead: the writer's WAL hook only notes the
// size and wakes this thread, which runs PASSIVE checkpoints (they never block readers or the writer) on
// its own connection. Whatever is left is checkpointed when the last connection closes, as before.
class BackgroundCheckpointer {
 public:
  static constexpr int kPages = 1000;  // SQLite's own automatic-checkpoint threshold

  BackgroundCheckpointer(std::unique_ptr<Connection> connection, sqlite3* writer)
      : connection_(std::move(connection)), writer_(writer) {
    // Replaces the automatic checkpoint (sqlite3_wal_autocheckpoint installs the same hook).
    sqlite3_wal_hook(writer_, &BackgroundCheckpointer::on_commit, this);
    thread_ = std::jthread([this](std::stop_token stop) { run(std::move(stop)); });
  }
  ~BackgroundCheckpointer() {
    sqlite3_wal_hook(writer_, nullptr, nullptr);  // the writer outlives this object (member order)
    thread_.request_stop();
    wake_.notify_all();
  }  // jthread joins
  BackgroundCheckpointer(const BackgroundCheckpointer&) = delete;
  BackgroundCheckpointer& operator=(const BackgroundCheckpointer&) = delete;

 private:
  // Called by SQLite on the writer's thread after each commit, with the WAL's size in pages.
  static int on_commit(void* self, sqlite3* /*db*/, const char* /*schema*/, int pages) {
    if (pages < kPages) return SQLITE_OK;
    auto* checkpointer = static_cast<BackgroundCheckpointer*>(self);
    {
      std::lock_guard lock(checkpointer->mutex_);
      checkpointer->due_ = true;
    }
    checkpointer->wake_.notify_one();
    return SQLITE_OK;
  }

  void run(std::stop_token stop) {
    while (true) {
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, stop, [this] { return due_; });
        if (stop.stop_requested()) return;
        due_ = false;
      }
      // A failure (I/O error) leaves the frames in the WAL; the next commit past kPages retries.
      sqlite3_wal_checkpoint_v2(connection_->raw(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    }
  }

  std::unique_ptr<Connection> connection_;  // used only by thread_
  sqlite3* writer_;
  std::mutex mutex_;
  std::condition_variable_any wake_;
  bool due_ = false;  // guarded by mutex_
  std::jthread thread_;
};

class SqliteStore final : public Store {
 public:
  SqliteStore(std::unique_ptr<Connection> writer, std::unique_ptr<Connection> checkpointer, std::string path,
              std::shared_ptr<BodyDictionaries> bodies)
      : path_(path),
        bodies_(bodies),
        writer_(std::move(writer)),
        checkpointer_(std::move(checkpointer), writer_->raw()),
        readers_(std::move(path), std::move(bodies)) {}

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
      q->bind(":category", category).bind(":short_form", seed.short_form).bind(":paused", seed.paused);
      std::optional<std::string> allowed_hosts;
      if (seed.allowed_hosts) allowed_hosts = fmt::format("{}", fmt::join(*seed.allowed_hosts, " "));
      q->bind(":allowed_hosts", allowed_hosts);
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

  Result<model::Blog> edit_blog(std::int64_t blog_id, const BlogEdit& edit) override {
    std::optional<std::string> category = edit.category;
    if (category && category->empty()) category = kDefaultCategory;
    std::lock_guard lock(writer_mutex_);
    Connection& db = *writer_;
    auto tx = Transaction::begin(db);
    if (!tx) return db_error("cannot edit blog", tx.error());

    std::string old_category;
    {
      auto q = db.query(kSelectBlogEditState);
      if (!q) return db_error("cannot edit blog", q.error());
      q->bind(":id", blog_id);
      auto row = q->step();
      if (!row) return db_error("cannot edit blog", row.error());
      if (!*row) return fail(ErrorKind::kNotFound, fmt::format("store: no blog {}", blog_id));
      old_category = q->text(0);
    }
    if (edit.feed_url) {
      auto q = db.query(kSelectOtherBlogWithFeedUrl);
      if (!q) return db_error("cannot edit blog", q.error());
      q->bind(":feed_url", *edit.feed_url).bind(":id", blog_id);
      auto row = q->step();
      if (!row) return db_error("cannot edit blog", row.error());
      if (*row)
        return fail(ErrorKind::kConflict,
                    fmt::format("store: feed URL {} is already blog {}'s", *edit.feed_url, q->int64(0)));
    }
    if (category) {
      if (auto ok = ensure_category(db, *category); !ok) return db_error("cannot edit blog", ok.error());
    }
    {
      auto q = db.query(kEditBlog);
      if (!q) return db_error("cannot edit blog", q.error());
      q->bind(":title", edit.title).bind(":category", category).bind(":short_form", edit.short_form);
      q->bind(":feed_url", edit.feed_url).bind(":paused", edit.paused).bind(":id", blog_id);
      std::optional<std::string> allowed_hosts;
      if (edit.allowed_hosts) allowed_hosts = fmt::format("{}", fmt::join(*edit.allowed_hosts, " "));
      q->bind(":allowed_hosts", allowed_hosts);
      if (auto ok = q->run(); !ok) return db_error("cannot edit blog", ok.error());
    }
    if (category && *category != old_category) {
      auto q = db.query(kRefileBlogArticles);
      if (!q) return db_error("cannot edit blog", q.error());
      q->bind(":category", *category).bind(":blog_id", blog_id);
      if (auto ok = q->run(); !ok) return db_error("cannot edit blog", ok.error());
      auto drop = db.query(kDropEmptyCategory);
      if (!drop) return db_error("cannot edit blog", drop.error());
      drop->bind(":slug", old_category);
      if (auto ok = drop->run(); !ok) return db_error("cannot edit blog", ok.error());
    }
    model::Blog after;
    {
      auto q = db.query(kSelectBlogById);
      if (!q) return db_error("cannot edit blog", q.error());
      q->bind(":id", blog_id);
      auto row = q->step();
      if (!row) return db_error("cannot edit blog", row.error());
      after = read_blog(*q);
    }
    if (auto ok = tx->commit(); !ok) return db_error("cannot edit blog", ok.error());
    return after;
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

  Result<std::vector<model::Blog>> claim_due_blogs(std::string_view owner, TimePoint now,
                                                   TimePoint lease_until, int limit) override {
    constexpr std::string_view kFailed = "cannot claim due blogs";
    std::lock_guard lock(writer_mutex_);
    // BEGIN IMMEDIATE takes the database's write lock before the read, so two crawler processes claim one
    // after the other and the second sees the first one's claims.
    auto tx = Transaction::begin(*writer_);
    if (!tx) return db_error(kFailed, tx.error());
    std::vector<model::Blog> claimed;
    {
      auto q = writer_->query(kSelectDueBlogsToClaim);
      if (!q) return db_error(kFailed, q.error());
      q->bind(":now", to_unix(now)).bind(":limit", limit > 0 ? limit : -1);
      for (;;) {
        auto row = q->step();
        if (!row) return db_error(kFailed, row.error());
        if (!*row) break;
        claimed.push_back(read_blog(*q));
      }
    }
    for (const auto& blog : claimed) {
      auto q = writer_->query(kClaimBlog);
      if (!q) return db_error(kFailed, q.error());
      q->bind(":owner", owner).bind(":lease_until", to_unix(lease_until)).bind(":blog_id", blog.id);
      if (auto ok = q->run(); !ok) return db_error(kFailed, ok.error());
    }
    if (auto ok = tx->commit(); !ok) return db_error(kFailed, ok.error());
    return claimed;
  }

  Result<void> release_blog_claims(std::string_view owner) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kReleaseBlogClaims);
    if (!q) return db_error("cannot release blog claims", q.error());
    q->bind(":owner", owner);
    if (auto ok = q->run(); !ok) return db_error("cannot release blog claims", ok.error());
    return {};
  }

  Result<std::int64_t> blog_count() override { return read_count(kCountBlogs, "cannot count blogs"); }

  Result<std::int64_t> article_count() override {
    return read_count(kCountArticles, "cannot count articles");
  }

  Result<SiteStats> site_stats(TimePoint now) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSiteStats);
    if (!q) return db_error("cannot read the site's totals", q.error());
    q->bind(":now", to_unix(now));
    auto row = q->step();
    if (!row) return db_error("cannot read the site's totals", row.error());
    SiteStats stats;
    stats.blogs = q->int64(0);
    stats.blogs_due = q->int64(1);
    stats.blogs_paused = q->int64(2);
    stats.blogs_quarantined = q->int64(3);
    stats.blogs_failing = q->int64(4);
    stats.articles_visible = q->int64(5);
    stats.articles_junk = q->int64(6);
    stats.readers = q->int64(7);
    stats.subscribers = q->int64(8);
    stats.outbox_queued = q->int64(9);
    if (const auto sent = q->optional_int64(10)) stats.last_newsletter_sent = from_unix(*sent);
    stats.articles_held = q->int64(11);
    return stats;
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
                      .full_text_fetched = q->int64(3) != 0,
                      .full_text_failures = static_cast<int>(q->int64(4))});
    }
    return keys;
  }

  // display_at is COALESCE(published, first_seen) (migration 0001); junk counts too. One range of the
  // covering index articles_blog_display_at (migration 0012; docs/fetch.md has the plan and the figures).
  // An undated article's date is when it was first seen, so the undated posts of the blog's first crawl
  // (its whole back catalogue) are not counted as recent: only those that appeared after it.
  static constexpr const char* kCountRecentArticles =
      "SELECT COUNT(*) FROM articles WHERE blog_id = :blog_id AND display_at >= :since"
      " AND (undated = 0 OR first_seen > (SELECT MIN(first_seen) FROM articles WHERE blog_id = :blog_id))";

  Result<std::int64_t> count_recent_articles(std::int64_t blog_id, TimePoint since) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kCountRecentArticles);
    if (!q) return db_error("cannot count recent articles", q.error());
    q->bind(":blog_id", blog_id);
    q->bind(":since", to_unix(since));
    auto row = q->step();
    if (!row) return db_error("cannot count recent articles", row.error());
    return q->int64(0);
  }

  Result<SaveStats> save_crawl(const CrawlRecord& record) override {
    auto results = save_crawls(std::span(&record, 1));
    if (!results) return std::unexpected(results.error());
    return std::move(results->front());
  }

  Result<std::vector<Result<SaveStats>>> save_crawls(std::span<const CrawlRecord> records) override {
    std::lock_guard lock(writer_mutex_);
    Connection& db = *writer_;
    auto tx = Transaction::begin(db);
    if (!tx) return db_error("cannot save crawl", tx.error());
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
      if (auto ok = db.exec(kSavepointRecord); !ok) return db_error("cannot save crawl", ok.error());
      DeferredWrites deferred;
      auto stats = save_record(db, record, deferred);
      if (!stats) {
        // Undo this record alone; the savepoint stays open until released, so release it too.
        if (auto ok = db.exec(kRollbackToRecord); !ok) return db_error("cannot save crawl", ok.error());
      } else {
        saved.push_back(std::move(deferred));
      }
      if (auto ok = db.exec(kReleaseRecord); !ok) return db_error("cannot save crawl", ok.error());
      results.push_back(std::move(stats));
    }
    for (auto& deferred : saved) {
      if (auto ok = deferred.write_search_entries(db); !ok) return std::unexpected(ok.error());
    }
    if (auto ok = tx->commit(); !ok) return db_error("cannot save crawl", ok.error());
    return results;
  }

  Result<void> mark_parsing(std::int64_t blog_id, std::string_view owner, TimePoint since) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kMarkParsing);
    if (!q) return db_error("cannot mark blog", q.error());
    q->bind(":owner", owner).bind(":since", to_unix(since)).bind(":blog_id", blog_id);
    if (auto ok = q->run(); !ok) return db_error("cannot mark blog", ok.error());
    return {};
  }

  Result<std::vector<ParsingMark>> parsing_marks() override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectParsingMarks);
    if (!q) return db_error("cannot read parsing marks", q.error());
    std::vector<ParsingMark> out;
    for (;;) {
      auto row = q->step();
      if (!row) return db_error("cannot read parsing marks", row.error());
      if (!*row) break;
      out.push_back({.blog_id = q->int64(0),
                     .owner = q->text(1),
                     .since = q->is_null(2) ? TimePoint{} : from_unix(q->int64(2))});
    }
    return out;
  }

  Result<void> clear_parsing_marks(std::string_view owner) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kClearParsingMarks);
    if (!q) return db_error("cannot clear parsing marks", q.error());
    q->bind(":owner", owner);
    if (auto ok = q->run(); !ok) return db_error("cannot clear parsing marks", ok.error());
    return {};
  }

  Result<bool> record_crawler_crash(const CrawlerCrash& crash) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kRecordCrawlerCrash);
    if (!q) return db_error("cannot record crash", q.error());
    q->bind(":crashes", crash.crashes).bind(":quarantined", crash.quarantine);
    q->bind(":now", to_unix(crash.now)).bind(":status", crash.status);
    q->bind(":next_due_at", optional_unix(crash.next_due_at)).bind(":blog_id", crash.mark.blog_id);
    q->bind(":owner", crash.mark.owner).bind(":since", to_unix(crash.mark.since));
    if (auto ok = q->run(); !ok) return db_error("cannot record crash", ok.error());
    return writer_->changes() > 0;
  }

  Result<std::optional<ArticleView>> article(std::int64_t id) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectFullArticle);
    if (!q) return db_error("cannot read article", q.error());
    q->bind(":id", id);
    auto row = q->step();
    // A body that cannot be decompressed fails this article's read, with the reason, and nothing else.
    if (!row) return db_error(fmt::format("cannot read article {}", id), row.error());
    if (!*row) return std::optional<ArticleView>{};
    return std::optional<ArticleView>{read_article_view(*q)};
  }

  Result<std::vector<ArticleView>> articles(const ArticleQuery& query) override {
    auto page = article_page(query);
    if (!page) return std::unexpected(page.error());
    return std::move(page->articles);
  }

  Result<ArticlePage> article_page(const ArticleQuery& query) override {
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
        q->bind(":c_period_votes", k[0])
            .bind(":c_votes", k[1])
            .bind(":c_display_at", k[2])
            .bind(":c_id", k[3]);
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

  Result<std::int64_t> count_articles(const ArticleQuery& query) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
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
    auto q = (*db)->query(sql);
    if (!q) return db_error("cannot count articles", q.error());
    bind_listing_filters(*q, query);
    auto row = q->step();
    if (!row) return db_error("cannot count articles", row.error());
    return *row ? q->int64(0) : 0;  // no row: no such blog or category
  }

  Result<HotPage> hot_page(const HotPageQuery& query) override {
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
      for (;;) {
        auto row = q->step();
        if (!row) return db_error("cannot list hot articles", row.error());
        if (!*row) break;
        const std::int64_t blog_id = q->int64(1);
        if (query.exclude_blog_id && blog_id == *query.exclude_blog_id) continue;
        if (query.category && q->text(4) != *query.category) continue;
        held.push_back(
            {.id = q->int64(0), .blog_id = blog_id, .score = q->real(2), .display_at = q->int64(3)});
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
    std::vector<HotEntry> taken;
    for (int p = 1; p <= page; ++p) {
      auto cut = cut_next_hot_page(state, next, size, query.per_blog_cap, query.strict_cap);
      if (!cut) return std::unexpected(cut.error());
      taken = std::move(*cut);
    }
    HotPage out;
    const std::optional<HotEntry> resume = last_walked;  // before the look-ahead below moves it
    out.has_more = !state.carried.empty();
    if (!out.has_more && !state.exhausted) {
      auto e = next();
      if (!e) return std::unexpected(e.error());
      out.has_more = e->has_value();
    }
    if (out.has_more && resume) {
      std::vector<std::int64_t> held;
      for (const HotEntry& e : state.carried) held.push_back(e.id);
      out.next = encode_cursor(
          std::vector<std::int64_t>{score_bits(resume->score), resume->display_at, resume->id}, held);
    }
    if (taken.empty()) return out;
    std::vector<std::int64_t> ids;
    for (const HotEntry& e : taken) ids.push_back(e.id);
    auto q = (*db)->query(kSelectListedByIds);
    if (!q) return db_error("cannot list hot articles", q.error());
    q->bind(":ids", ids_json(ids));
    auto rows = read_article_views(*q, "cannot list hot articles");
    if (!rows) return std::unexpected(rows.error());
    std::unordered_map<std::int64_t, std::size_t> rank;
    for (std::size_t i = 0; i < ids.size(); ++i) rank.emplace(ids[i], i);
    std::ranges::sort(*rows, {}, [&](const ArticleView& v) { return rank.at(v.article.id); });
    out.articles = std::move(*rows);
    return out;
  }

  using Store::search;
  Result<std::vector<SearchHit>> search(std::string_view query, int limit, int offset,
                                        const std::optional<ReaderFilter>& reader) override {
    const std::vector<std::string> phrases = fts5_phrases(query);
    std::vector<SearchHit> hits;
    if (phrases.empty()) return hits;
    std::string match;
    for (const auto& phrase : phrases) match += (match.empty() ? "" : " ") + phrase;
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    // The visitor chooses the query, so its cost too: past the budget it is cut short with a clear answer
    // rather than holding a reader connection and a pool thread.
    sqlite::StatementBudget budget(**db, kSearchBudget);
    const auto too_long = [&] {
      return fail(ErrorKind::kTimeout,
                  fmt::format("store: search ran past its {} ms budget", kSearchBudget.count()),
                  "That search took too long. Try more specific words.");
    };
    auto frequencies = document_frequencies(**db, phrases);
    if (!frequencies) return budget.exceeded() ? too_long() : std::unexpected(frequencies.error());
    auto q = (*db)->query(search_sql(reader));
    if (!q) return db_error("cannot search", q.error());
    if (reader) sqlite::bind_reader_filter(*q, *reader);
    q->bind(":match", match)
        .bind(":frequencies", *frequencies)
        .bind(":candidates", kSearchCandidates)
        .bind(":half_life_days", kSearchHalfLifeDays)
        .bind(":limit", std::max(limit, 0))
        .bind(":offset", std::max(offset, 0));
    for (;;) {
      auto row = q->step();
      if (!row) return budget.exceeded() ? too_long() : db_error("cannot search", row.error());
      if (!*row) break;
      hits.push_back({.view = read_article_view(*q), .snippet = q->text(kArticleColumnCount)});
    }
    return hits;
  }

  // Each phrase's number of matching articles, for longread_rank's IDF, as "df_1 df_2 ...": exact when it
  // has at most kSearchFrequencySample matches, else estimated from how much of the id range (ids grow
  // with insertion) its newest kSearchFrequencySample matches span. The walk is bounded, unlike FTS5
  // bm25()'s count of every match.
  static Result<std::string> document_frequencies(Connection& db, const std::vector<std::string>& phrases) {
    // With one word or phrase the IDF is a constant factor of every candidate's relevance, a constant
    // term of ln(relevance): the order does not depend on it, so it is not sampled.
    if (phrases.size() == 1) return std::string("1");
    std::int64_t min_id = 0, max_id = 0;
    {
      auto q = db.query(kSearchIdRange);
      if (!q) return db_error("cannot search", q.error());
      auto row = q->step();
      if (!row) return db_error("cannot search", row.error());
      if (*row) {
        min_id = q->int64(0);
        max_id = q->int64(1);
      }
    }
    std::string out;
    for (const auto& phrase : phrases) {
      auto q = db.query(kSearchFrequencySample);
      if (!q) return db_error("cannot search", q.error());
      q->bind(":match", phrase).bind(":sample", kSearchFrequencySampleSize);
      std::int64_t count = 0, last = max_id;
      for (;;) {
        auto row = q->step();
        if (!row) return db_error("cannot search", row.error());
        if (!*row) break;
        ++count;
        last = q->int64(0);
      }
      double df = static_cast<double>(count);
      if (count >= kSearchFrequencySampleSize && max_id >= last)
        df = static_cast<double>(count) * static_cast<double>(max_id - min_id + 1) /
             static_cast<double>(max_id - last + 1);
      out += fmt::format("{}{:.0f}", out.empty() ? "" : " ", df);
    }
    return out;
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

  // PRAGMA data_version on a connection that never writes changes whenever any other connection, of
  // this process or another (the CLI's `keep`, a second crawler), commits: a cheap, exact version of
  // the data for the site's page cache.
  Result<std::int64_t> data_version() override {
    std::lock_guard lock(version_mutex_);
    if (!version_) {
      auto connection = Connection::open(path_, false);
      if (!connection) return std::unexpected(connection.error());
      version_ = std::move(*connection);
    }
    auto q = version_->query(kDataVersion);
    if (!q) return db_error("cannot read data version", q.error());
    auto row = q->step();
    if (!row) return db_error("cannot read data version", row.error());
    return *row ? q->int64(0) : 0;
  }

  Result<std::vector<SimhashEntry>> simhash_index(std::int64_t after_id) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectSimhashIndex);
    if (!q) return db_error("cannot read simhash index", q.error());
    q->bind(":after_id", after_id);
    std::vector<SimhashEntry> out;
    for (;;) {
      auto row = q->step();
      if (!row) return db_error("cannot read simhash index", row.error());
      if (!*row) break;
      out.push_back({.id = q->int64(0),
                     .blog_id = q->int64(1),
                     .simhash = std::bit_cast<std::uint64_t>(q->int64(2)),
                     .date = from_unix(q->int64(3))});
    }
    return out;
  }

  Result<void> mark_duplicates(std::span<const std::pair<std::int64_t, std::int64_t>> marks) override {
    if (marks.empty()) return {};
    std::lock_guard lock(writer_mutex_);
    auto tx = Transaction::begin(*writer_);
    if (!tx) return db_error("cannot mark duplicate", tx.error());
    for (const auto& [article_id, original_id] : marks) {
      auto q = writer_->query(kMarkDuplicate);
      if (!q) return db_error("cannot mark duplicate", q.error());
      q->bind(":id", article_id).bind(":original", original_id);
      q->bind(":reason", fmt::format("duplicate of article {}", original_id));
      if (auto ok = q->run(); !ok) return db_error("cannot mark duplicate", ok.error());
    }
    if (auto ok = tx->commit(); !ok) return db_error("cannot mark duplicate", ok.error());
    return {};
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

  Result<std::int64_t> set_verdicts(std::span<const VerdictUpdate> updates) override {
    std::lock_guard lock(writer_mutex_);
    auto tx = Transaction::begin(*writer_);
    if (!tx) return db_error("cannot set verdicts", tx.error());
    std::int64_t changed = 0;
    for (const auto& update : updates) {
      auto q = writer_->query(kSetVerdict);
      if (!q) return db_error("cannot set verdicts", q.error());
      q->bind(":junk", update.junk ? 1 : 0).bind(":reason", update.junk ? update.reason : std::string());
      q->bind(":id", update.article_id);
      if (auto ok = q->run(); !ok) return db_error("cannot set verdicts", ok.error());
      changed += writer_->changes();
    }
    if (auto ok = tx->commit(); !ok) return db_error("cannot set verdicts", ok.error());
    return changed;
  }

  Result<std::int64_t> set_texts(std::span<const TextUpdate> updates) override {
    std::lock_guard lock(writer_mutex_);
    auto tx = Transaction::begin(*writer_);
    if (!tx) return db_error("cannot set texts", tx.error());
    std::int64_t changed = 0;
    for (const auto& update : updates) {
      auto q = writer_->query(kSetText);
      if (!q) return db_error("cannot set texts", q.error());
      q->bind(":text", update.text).bind(":excerpt", update.excerpt);
      q->bind(":word_count", static_cast<std::int64_t>(update.word_count));
      q->bind(":reading_minutes", static_cast<std::int64_t>(update.reading_minutes));
      q->bind(":simhash", std::bit_cast<std::int64_t>(update.simhash)).bind(":id", update.article_id);
      if (auto ok = q->run(); !ok) return db_error("cannot set texts", ok.error());
      changed += writer_->changes();
    }
    if (auto ok = tx->commit(); !ok) return db_error("cannot set texts", ok.error());
    return changed;
  }

  Result<CompactBatch> compact_bodies(const CompactOptions& options) override {
    std::lock_guard lock(writer_mutex_);
    CompactBatch out;
    out.last_id = options.after_id;
    if (options.after_id == 0) {
      auto current = bodies_->current_id(writer_->raw());
      if (!current) return std::unexpected(current.error());
      if (*current == 0 || options.retrain) {
        auto tx = Transaction::begin(*writer_);
        if (!tx) return db_error("cannot train body dictionary", tx.error());
        auto trained = sqlite::train_body_dictionary(
            writer_->raw(), *bodies_, kDictionarySamples,
            to_unix(std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now())));
        if (!trained) return std::unexpected(trained.error());
        if (auto ok = tx->commit(); !ok) return db_error("cannot train body dictionary", ok.error());
        out.trained_dictionary = *trained;
      }
    }
    auto current = bodies_->current_id(writer_->raw());
    if (!current) return std::unexpected(current.error());
    auto tx = Transaction::begin(*writer_);
    if (!tx) return db_error("cannot compact articles", tx.error());
    std::vector<std::int64_t> ids;
    {
      auto q = writer_->query(kSelectUncompacted);
      if (!q) return db_error("cannot compact articles", q.error());
      q->bind(":after", options.after_id)
          .bind(":dictionary", static_cast<std::int64_t>(*current))
          .bind(":batch", std::max(options.batch, 1));
      for (;;) {
        auto row = q->step();
        if (!row) return db_error("cannot compact articles", row.error());
        if (!*row) break;
        ids.push_back(q->int64(0));
      }
    }
    for (const std::int64_t id : ids) {
      auto q = writer_->query(kCompactArticle);
      if (!q) return db_error("cannot compact articles", q.error());
      q->bind(":id", id);
      // A body that cannot be read fails its own statement only (SQLite rolls back just that statement):
      // the row stays as it is, and is reported.
      if (auto ok = q->run(); !ok) {
        out.unreadable.push_back(id);
        continue;
      }
      ++out.converted;
    }
    if (options.hold_before_commit.count() > 0) std::this_thread::sleep_for(options.hold_before_commit);
    if (auto ok = tx->commit(); !ok) return db_error("cannot compact articles", ok.error());
    if (!ids.empty()) out.last_id = ids.back();
    out.done = ids.size() < static_cast<std::size_t>(std::max(options.batch, 1));
    return out;
  }

  Result<std::int64_t> vacuum() override {
    std::lock_guard lock(writer_mutex_);
    // VACUUM writes a new copy of the database (https://sqlite.org/lang_vacuum.html), then the WAL
    // checkpoint moves it into the file and TRUNCATE gives the WAL's space back.
    if (auto ok = writer_->exec("VACUUM"); !ok) return db_error("cannot vacuum", ok.error());
    if (auto ok = writer_->exec("PRAGMA wal_checkpoint(TRUNCATE)"); !ok)
      return db_error("cannot vacuum", ok.error());
    std::error_code ec;
    const auto size = std::filesystem::file_size(path_, ec);
    if (ec) return fail(ErrorKind::kStorage, fmt::format("store: cannot vacuum: {}", ec.message()));
    return static_cast<std::int64_t>(size);
  }

  Result<void> delete_blog(std::int64_t blog_id) override {
    std::lock_guard lock(writer_mutex_);
    auto tx = Transaction::begin(*writer_);
    if (!tx) return db_error("cannot delete blog", tx.error());
    auto q = writer_->query(kDeleteBlog);
    if (!q) return db_error("cannot delete blog", q.error());
    q->bind(":id", blog_id);
    if (auto ok = q->run(); !ok) return db_error("cannot delete blog", ok.error());
    if (writer_->changes() == 0) return fail(ErrorKind::kNotFound, fmt::format("store: no blog {}", blog_id));
    if (auto ok = tx->commit(); !ok) return db_error("cannot delete blog", ok.error());
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

  Result<std::vector<ArticleView>> near_misses(TimePoint since, int limit) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectNearMisses);
    if (!q) return db_error("cannot list near misses", q.error());
    q->bind(":since", to_unix(since)).bind(":limit", std::max(limit, 0));
    return read_article_views(*q, "cannot list near misses");
  }

  // ---------------------------------------------------------------------------- readers

  Result<std::int64_t> create_reader(std::string_view email, std::string_view password_hash, TimePoint now,
                                     std::optional<TimePoint> confirmed_at) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kInsertReader);
    if (!q) return db_error("cannot create reader", q.error());
    q->bind(":email", email).bind(":email_key", email_key(email)).bind(":password_hash", password_hash);
    q->bind(":created_at", to_unix(now));
    q->bind(":confirmed_at",
            confirmed_at ? std::optional<std::int64_t>(to_unix(*confirmed_at)) : std::nullopt);
    if (auto ok = q->run(); !ok) return db_error("cannot create reader", ok.error());
    if (writer_->changes() == 0) return fail(ErrorKind::kConflict, "store: reader email taken");
    return writer_->last_insert_rowid();
  }

  static ReaderAccount read_reader(const Query& q) {
    return ReaderAccount{.id = q.int64(0),
                         .email = q.text(1),
                         .password_hash = q.text(2),
                         .created_at = from_unix(q.int64(3)),
                         .confirmed_at = optional_time(q, 4),
                         .is_operator = q.int64(5) != 0};
  }

  Result<std::optional<ReaderAccount>> reader_by_email(std::string_view email) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectReaderByEmail);
    if (!q) return db_error("cannot read reader", q.error());
    q->bind(":email_key", email_key(email));
    auto row = q->step();
    if (!row) return db_error("cannot read reader", row.error());
    if (!*row) return std::optional<ReaderAccount>{};
    return std::optional<ReaderAccount>{read_reader(*q)};
  }

  Result<std::vector<ReaderAccount>> readers() override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectReaders);
    if (!q) return db_error("cannot list readers", q.error());
    std::vector<ReaderAccount> out;
    while (true) {
      auto row = q->step();
      if (!row) return db_error("cannot list readers", row.error());
      if (!*row) break;
      out.push_back(read_reader(*q));
    }
    return out;
  }

  Result<void> set_reader_password(std::int64_t reader_id, std::string_view password_hash,
                                   std::optional<TimePoint> confirm_at) override {
    auto changed = write_changes(kSetReaderPassword, "cannot set password", [&](Query& q) {
      q.bind(":id", reader_id).bind(":password_hash", password_hash);
      q.bind(":confirm_at", confirm_at ? std::optional<std::int64_t>(to_unix(*confirm_at)) : std::nullopt);
    });
    if (!changed) return std::unexpected(changed.error());
    if (!*changed) return fail(ErrorKind::kNotFound, "store: no such reader");
    return {};
  }

  Result<void> confirm_reader(std::int64_t reader_id, TimePoint now) override {
    auto changed = write_changes(kConfirmReader, "cannot confirm reader",
                                 [&](Query& q) { q.bind(":id", reader_id).bind(":now", to_unix(now)); });
    if (!changed) return std::unexpected(changed.error());
    if (!*changed) return fail(ErrorKind::kNotFound, "store: no such reader");
    return {};
  }

  Result<void> delete_reader(std::int64_t reader_id) override {
    std::lock_guard lock(writer_mutex_);
    Connection& db = *writer_;
    auto tx = Transaction::begin(db);
    if (!tx) return db_error("cannot delete reader", tx.error());
    for (const char* sql : {kWithdrawReaderVotes, kDeleteReader}) {
      auto q = db.query(sql);
      if (!q) return db_error("cannot delete reader", q.error());
      q->bind(":reader_id", reader_id);
      if (auto ok = q->run(); !ok) return db_error("cannot delete reader", ok.error());
    }
    if (db.changes() == 0) return fail(ErrorKind::kNotFound, "store: no such reader");  // rolled back
    if (auto ok = tx->commit(); !ok) return db_error("cannot delete reader", ok.error());
    return {};
  }

  Result<int> delete_reader_sessions(std::int64_t reader_id) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kDeleteReaderSessions);
    if (!q) return db_error("cannot delete sessions", q.error());
    q->bind(":reader_id", reader_id);
    if (auto ok = q->run(); !ok) return db_error("cannot delete sessions", ok.error());
    return writer_->changes();
  }

  Result<void> create_session(const SessionRecord& session) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kInsertSession);
    if (!q) return db_error("cannot create session", q.error());
    q->bind(":token_hash", session.token_hash).bind(":reader_id", session.reader_id);
    q->bind(":created_at", to_unix(session.created_at)).bind(":expires_at", to_unix(session.expires_at));
    if (auto ok = q->run(); !ok) return db_error("cannot create session", ok.error());
    return {};
  }

  Result<std::optional<SessionReader>> session_reader(std::string_view token_hash, TimePoint now) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectSessionReader);
    if (!q) return db_error("cannot read session", q.error());
    q->bind(":token_hash", token_hash).bind(":now", to_unix(now));
    auto row = q->step();
    if (!row) return db_error("cannot read session", row.error());
    if (!*row) return std::optional<SessionReader>{};
    return std::optional<SessionReader>{SessionReader{.reader_id = q->int64(0),
                                                      .email = q->text(1),
                                                      .expires_at = from_unix(q->int64(2)),
                                                      .is_operator = q->int64(3) != 0}};
  }

  Result<std::vector<BlogHealth>> blog_health(TimePoint since) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectBlogHealth);
    if (!q) return db_error("cannot read blog health", q.error());
    q->bind(":since", to_unix(since));
    std::vector<BlogHealth> out;
    constexpr int kFirst = 22;  // the column after LONGREAD_BLOG_COLUMNS
    while (true) {
      auto row = q->step();
      if (!row) return db_error("cannot read blog health", row.error());
      if (!*row) break;
      out.push_back(BlogHealth{.blog = read_blog(*q),
                               .followed_at = from_unix(q->int64(kFirst)),
                               .newest_article_at = optional_time(*q, kFirst + 1),
                               .recent_articles = q->int64(kFirst + 2),
                               .stored_articles = q->int64(kFirst + 3)});
    }
    return out;
  }

  Result<void> set_reader_operator(std::string_view email, bool is_operator) override {
    auto changed = write_changes(kSetReaderOperator, "cannot change reader role", [&](Query& q) {
      q.bind(":operator", is_operator).bind(":email_key", email_key(email));
    });
    if (!changed) return std::unexpected(changed.error());
    if (!*changed) return fail(ErrorKind::kNotFound, "store: no such reader");
    return {};
  }

  Result<std::int64_t> add_audit_entry(const AuditEntry& entry) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kInsertAuditEntry);
    if (!q) return db_error("cannot write audit entry", q.error());
    q->bind(":at", to_unix(entry.at)).bind(":actor_id", entry.actor_id).bind(":actor", entry.actor);
    q->bind(":action", entry.action).bind(":target", entry.target).bind(":detail", entry.detail);
    if (auto ok = q->run(); !ok) return db_error("cannot write audit entry", ok.error());
    return writer_->last_insert_rowid();
  }

  Result<AuditPage> audit_entries(int limit, std::int64_t before) override {
    if (limit <= 0) return AuditPage{};
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectAuditEntries);
    if (!q) return db_error("cannot read audit log", q.error());
    q->bind(":before", before).bind(":limit", limit + 1);
    AuditPage page;
    while (true) {
      auto row = q->step();
      if (!row) return db_error("cannot read audit log", row.error());
      if (!*row) break;
      page.entries.push_back(AuditEntry{.id = q->int64(0),
                                        .at = from_unix(q->int64(1)),
                                        .actor_id = q->optional_int64(2),
                                        .actor = q->text(3),
                                        .action = q->text(4),
                                        .target = q->text(5),
                                        .detail = q->text(6)});
    }
    if (page.entries.size() > static_cast<std::size_t>(limit)) {
      page.entries.pop_back();
      page.next_before = page.entries.back().id;
    }
    return page;
  }

  Result<void> delete_session(std::string_view token_hash) override {
    return write_one(kDeleteSession, "cannot delete session",
                     [&](Query& q) { q.bind(":token_hash", token_hash); });
  }

  Result<int> delete_expired_sessions(TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kDeleteExpiredSessions);
    if (!q) return db_error("cannot delete sessions", q.error());
    q->bind(":now", to_unix(now));
    if (auto ok = q->run(); !ok) return db_error("cannot delete sessions", ok.error());
    return writer_->changes();
  }

  Result<VoteState> set_vote(std::int64_t reader_id, std::int64_t article_id, bool vote,
                             TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    Connection& db = *writer_;
    auto tx = Transaction::begin(db);
    if (!tx) return db_error("cannot vote", tx.error());
    if (auto visible = visible_article(db, article_id); !visible) {
      return std::unexpected(visible.error());
    }
    {
      auto q = db.query(vote ? kInsertVote : kDeleteVote);
      if (!q) return db_error("cannot vote", q.error());
      q->bind(":reader_id", reader_id).bind(":article_id", article_id);
      if (vote) q->bind(":now", to_unix(now));
      if (auto ok = q->run(); !ok) return db_error("cannot vote", ok.error());
    }
    if (db.changes() > 0) {  // a repeated vote (or unvote) changes nothing
      auto q = db.query(kAddArticleVotes);
      if (!q) return db_error("cannot vote", q.error());
      q->bind(":delta", vote ? 1 : -1).bind(":id", article_id);
      if (auto ok = q->run(); !ok) return db_error("cannot vote", ok.error());
    }
    VoteState state;
    {
      auto q = db.query(kSelectArticleVotes);
      if (!q) return db_error("cannot vote", q.error());
      q->bind(":reader_id", reader_id).bind(":id", article_id);
      auto row = q->step();
      if (!row) return db_error("cannot vote", row.error());
      state.votes = q->integer(0);
      state.voted = q->int64(1) != 0;
    }
    if (auto ok = tx->commit(); !ok) return db_error("cannot vote", ok.error());
    return state;
  }

  Result<std::int64_t> age_period_votes(TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    std::int64_t aged = 0;
    // The week first: its start then stays at or after the month's, as the triggers of migration 0019
    // assume (a vote that counts in the week counts in the month).
    for (const VotePeriod period : {VotePeriod::kWeek, VotePeriod::kMonth}) {
      const int days = period_days(period);
      const std::int64_t target = to_unix(now) - std::int64_t{days} * 86400;
      for (;;) {
        auto batch = age_votes_batch(period, target);
        if (!batch) return std::unexpected(batch.error());
        if (*batch < 0) break;  // reached the target
        aged += *batch;
      }
    }
    return aged;
  }

  Result<ReaderMarks> reader_marks(std::int64_t reader_id,
                                   const std::vector<std::int64_t>& article_ids) override {
    ReaderMarks marks;
    if (article_ids.empty()) return marks;
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    const std::string ids = ids_json(article_ids);
    for (const bool voted : {true, false}) {
      auto q = (*db)->query(voted ? kSelectVotedAmong : kSelectSavedAmong);
      if (!q) return db_error("cannot read reader marks", q.error());
      q->bind(":reader_id", reader_id).bind(":ids", ids);
      for (;;) {
        auto row = q->step();
        if (!row) return db_error("cannot read reader marks", row.error());
        if (!*row) break;
        (voted ? marks.voted : marks.saved).push_back(q->int64(0));
      }
    }
    auto read = sqlite::read_among(**db, reader_id, ids);
    if (!read) return std::unexpected(read.error());
    marks.read = std::move(*read);
    return marks;
  }

  Result<void> set_saved(std::int64_t reader_id, std::int64_t article_id, bool saved,
                         TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    Connection& db = *writer_;
    auto tx = Transaction::begin(db);
    if (!tx) return db_error("cannot change reading list", tx.error());
    if (saved) {
      if (auto visible = visible_article(db, article_id); !visible) return std::unexpected(visible.error());
    }
    auto q = db.query(saved ? kInsertSaved : kDeleteSaved);
    if (!q) return db_error("cannot change reading list", q.error());
    q->bind(":reader_id", reader_id).bind(":article_id", article_id);
    if (saved) q->bind(":now", to_unix(now));
    if (auto ok = q->run(); !ok) return db_error("cannot change reading list", ok.error());
    if (auto ok = tx->commit(); !ok) return db_error("cannot change reading list", ok.error());
    return {};
  }

  Result<void> set_read(std::int64_t reader_id, std::int64_t article_id, bool read, TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kSetRead);
    if (!q) return db_error("cannot mark read", q.error());
    q->bind(":reader_id", reader_id).bind(":article_id", article_id);
    q->bind(":read_at", read ? std::optional<std::int64_t>(to_unix(now)) : std::nullopt);
    if (auto ok = q->run(); !ok) return db_error("cannot mark read", ok.error());
    if (writer_->changes() == 0) {
      return fail(ErrorKind::kNotFound,
                  fmt::format("store: article {} is not on the reading list", article_id),
                  "That article is not on your reading list.");
    }
    return {};
  }

  Result<std::vector<SavedArticle>> reading_list(std::int64_t reader_id, int limit, int offset) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectReadingList);
    if (!q) return db_error("cannot read reading list", q.error());
    q->bind(":reader_id", reader_id).bind(":limit", std::max(limit, 0)).bind(":offset", std::max(offset, 0));
    std::vector<SavedArticle> out;
    for (;;) {
      auto row = q->step();
      if (!row) return db_error("cannot read reading list", row.error());
      if (!*row) break;
      out.push_back({.view = read_article_view(*q),
                     .saved_at = from_unix(q->int64(kArticleColumnCount)),
                     .read_at = optional_time(*q, kArticleColumnCount + 1)});
    }
    return out;
  }

  Result<std::int64_t> reading_list_unread(std::int64_t reader_id) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kCountUnread);
    if (!q) return db_error("cannot count reading list", q.error());
    q->bind(":reader_id", reader_id);
    auto row = q->step();
    if (!row) return db_error("cannot count reading list", row.error());
    return q->int64(0);
  }

  // --- the portable reading list (saved_links.cpp)
  Result<ImportSummary> import_reading_list(std::int64_t reader_id, const std::vector<ImportedLink>& links,
                                            TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::import_reading_list(*writer_, reader_id, links, now);
  }

  Result<std::vector<SavedLink>> saved_links(std::int64_t reader_id, int limit, int offset) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::saved_links(**db, reader_id, limit, offset);
  }

  Result<void> set_saved_link_read(std::int64_t reader_id, std::int64_t link_id, bool read,
                                   TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::set_saved_link_read(*writer_, reader_id, link_id, read, now);
  }

  Result<void> remove_saved_link(std::int64_t reader_id, std::int64_t link_id) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::remove_saved_link(*writer_, reader_id, link_id);
  }

  Result<std::optional<std::string>> reading_list_feed_token(std::int64_t reader_id) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::reading_list_feed_token(**db, reader_id);
  }

  Result<void> set_reading_list_feed_token(std::int64_t reader_id,
                                           std::optional<std::string> token) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::set_reading_list_feed_token(*writer_, reader_id, token);
  }

  Result<std::optional<std::int64_t>> reader_by_reading_list_feed_token(std::string_view token) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::reader_by_reading_list_feed_token(**db, token);
  }

  // --- feed apps (reader_api.cpp)
  Result<std::int64_t> add_app_password(std::int64_t reader_id, std::string_view name,
                                        std::string_view password_hash, TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::add_app_password(*writer_, reader_id, name, password_hash, now);
  }

  Result<std::vector<AppPassword>> app_passwords(std::int64_t reader_id) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::app_passwords(**db, reader_id);
  }

  Result<void> revoke_app_password(std::int64_t reader_id, std::int64_t app_password_id) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::revoke_app_password(*writer_, reader_id, app_password_id);
  }

  Result<void> add_api_token(const ApiTokenRecord& token) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::add_api_token(*writer_, token);
  }

  Result<std::optional<std::int64_t>> api_token_reader(std::string_view token_hash, TimePoint now) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::api_token_reader(**db, token_hash, now);
  }

  Result<StreamPage> reader_stream(std::int64_t reader_id, const StreamQuery& query) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::reader_stream(**db, reader_id, query);
  }

  Result<std::vector<StreamItem>> reader_items(std::int64_t reader_id,
                                               const std::vector<std::int64_t>& article_ids) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::reader_items(**db, reader_id, article_ids);
  }

  Result<int> set_articles_read(std::int64_t reader_id, const std::vector<std::int64_t>& article_ids,
                                bool read, TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::set_articles_read(*writer_, reader_id, article_ids, read, now);
  }

  Result<void> mark_stream_read(std::int64_t reader_id, std::optional<std::int64_t> blog_id, TimePoint before,
                                TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::mark_stream_read(*writer_, reader_id, blog_id, before, now);
  }

  Result<Subscriber> add_subscriber(std::string_view email, TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kUpsertSubscriber);
    if (!q) return db_error("cannot add subscriber", q.error());
    q->bind(":email", email).bind(":email_key", email_key(email)).bind(":now", to_unix(now));
    auto row = q->step();
    if (!row) return db_error("cannot add subscriber", row.error());
    return read_subscriber(*q);
  }

  Result<bool> confirm_subscriber(std::string_view email, TimePoint now) override {
    return write_changes(kConfirmSubscriber, "cannot confirm subscriber", [&](Query& q) {
      q.bind(":email_key", email_key(email)).bind(":now", to_unix(now));
    });
  }

  Result<bool> unsubscribe(std::string_view email, TimePoint now) override {
    return write_changes(kUnsubscribe, "cannot unsubscribe", [&](Query& q) {
      q.bind(":email_key", email_key(email)).bind(":now", to_unix(now));
    });
  }

  Result<std::vector<Subscriber>> confirmed_subscribers() override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectConfirmedSubscribers);
    if (!q) return db_error("cannot list subscribers", q.error());
    std::vector<Subscriber> out;
    for (;;) {
      auto row = q->step();
      if (!row) return db_error("cannot list subscribers", row.error());
      if (!*row) break;
      Subscriber subscriber = read_subscriber(*q);
      subscriber.reader_id = q->optional_int64(4);
      out.push_back(std::move(subscriber));
    }
    return out;
  }

  Result<void> record_subscriber_error(std::int64_t subscriber_id, std::string_view error,
                                       TimePoint now) override {
    return write_one(kSetSubscriberError, "cannot record delivery error", [&](Query& q) {
      q.bind(":error", error).bind(":now", to_unix(now)).bind(":id", subscriber_id);
    });
  }

  Result<NewsletterIssue> newsletter_issue(std::string_view key, const std::vector<std::int64_t>& article_ids,
                                           TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    Connection& db = *writer_;
    auto tx = Transaction::begin(db);
    if (!tx) return db_error("cannot create issue", tx.error());
    {
      std::string ids;
      for (const auto id : article_ids) ids += (ids.empty() ? "" : ",") + std::to_string(id);
      auto q = db.query(kInsertIssue);
      if (!q) return db_error("cannot create issue", q.error());
      q->bind(":key", key).bind(":article_ids", ids).bind(":now", to_unix(now));
      if (auto ok = q->run(); !ok) return db_error("cannot create issue", ok.error());
    }
    NewsletterIssue issue;
    {
      auto q = db.query(kSelectIssue);
      if (!q) return db_error("cannot create issue", q.error());
      q->bind(":key", key);
      auto row = q->step();
      if (!row) return db_error("cannot create issue", row.error());
      issue.id = q->int64(0);
      issue.key = q->text(1);
      const std::string ids = q->text(2);
      for (const std::string_view id : split(ids, ',')) {
        if (!id.empty()) issue.article_ids.push_back(std::stoll(std::string(id)));
      }
      issue.created_at = from_unix(q->int64(3));
    }
    if (auto ok = tx->commit(); !ok) return db_error("cannot create issue", ok.error());
    return issue;
  }

  Result<bool> claim_delivery(std::int64_t issue_id, std::int64_t subscriber_id, TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    Connection& db = *writer_;
    auto tx = Transaction::begin(db);
    if (!tx) return db_error("cannot claim delivery", tx.error());
    {
      auto q = db.query(kSelectDeliveryState);
      if (!q) return db_error("cannot claim delivery", q.error());
      q->bind(":issue_id", issue_id).bind(":subscriber_id", subscriber_id);
      auto row = q->step();
      if (!row) return db_error("cannot claim delivery", row.error());
      if (*row && q->text(0) != "retry") return false;
    }
    auto q = db.query(kClaimDelivery);
    if (!q) return db_error("cannot claim delivery", q.error());
    q->bind(":issue_id", issue_id).bind(":subscriber_id", subscriber_id).bind(":now", to_unix(now));
    if (auto ok = q->run(); !ok) return db_error("cannot claim delivery", ok.error());
    if (auto ok = tx->commit(); !ok) return db_error("cannot claim delivery", ok.error());
    return true;
  }

  Result<void> finish_delivery(std::int64_t issue_id, std::int64_t subscriber_id, DeliveryState state,
                               std::string_view error, TimePoint now) override {
    return write_one(kFinishDelivery, "cannot record delivery", [&](Query& q) {
      q.bind(":state", delivery_state_name(state)).bind(":error", error).bind(":now", to_unix(now));
      q.bind(":issue_id", issue_id).bind(":subscriber_id", subscriber_id);
    });
  }

  Result<std::int64_t> count_deliveries(std::int64_t issue_id, DeliveryState state) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kCountDeliveries);
    if (!q) return db_error("cannot count deliveries", q.error());
    q->bind(":issue_id", issue_id).bind(":state", delivery_state_name(state));
    auto row = q->step();
    if (!row) return db_error("cannot count deliveries", row.error());
    return q->int64(0);
  }

  Result<std::string> secret(std::string_view name, std::string_view candidate) override {
    std::lock_guard lock(writer_mutex_);
    {
      auto q = writer_->query(kInsertSecret);
      if (!q) return db_error("cannot store secret", q.error());
      q->bind(":name", name).bind(":value", candidate).bind(":now", to_unix(now_seconds()));
      if (auto ok = q->run(); !ok) return db_error("cannot store secret", ok.error());
    }
    auto q = writer_->query(kSelectSecret);
    if (!q) return db_error("cannot read secret", q.error());
    q->bind(":name", name);
    auto row = q->step();
    if (!row) return db_error("cannot read secret", row.error());
    return q->text(0);
  }

  // --- account-mail outbox (migration 0013)
  Result<std::int64_t> enqueue_mail(const OutboxMail& mail) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kInsertOutboxMail);
    if (!q) return db_error("cannot queue mail", q.error());
    q->bind(":kind", mail.kind).bind(":recipient", mail.recipient).bind(":message", mail.message);
    q->bind(":created_at", to_unix(mail.created_at)).bind(":not_after", to_unix(mail.not_after));
    q->bind(":next_attempt_at", to_unix(mail.next_attempt_at));
    if (auto ok = q->run(); !ok) return db_error("cannot queue mail", ok.error());
    return writer_->last_insert_rowid();
  }

  Result<std::vector<OutboxMail>> claim_due_mails(TimePoint now, TimePoint lease_until, int limit) override {
    std::lock_guard lock(writer_mutex_);
    Connection& db = *writer_;
    auto tx = Transaction::begin(db);
    if (!tx) return db_error("cannot claim mail", tx.error());
    std::vector<OutboxMail> claimed;
    {
      auto q = db.query(kSelectDueMails);
      if (!q) return db_error("cannot claim mail", q.error());
      q->bind(":now", to_unix(now)).bind(":limit", limit);
      auto rows = read_outbox_mails(*q);
      if (!rows) return db_error("cannot claim mail", rows.error());
      claimed = std::move(*rows);
    }
    for (auto& mail : claimed) {
      auto q = db.query(kClaimMail);
      if (!q) return db_error("cannot claim mail", q.error());
      q->bind(":lease_until", to_unix(lease_until)).bind(":id", mail.id);
      if (auto ok = q->run(); !ok) return db_error("cannot claim mail", ok.error());
      ++mail.attempts;
      mail.next_attempt_at = lease_until;
    }
    if (auto ok = tx->commit(); !ok) return db_error("cannot claim mail", ok.error());
    return claimed;
  }

  Result<bool> delete_mail(std::int64_t id) override {
    return write_changes(kDeleteMail, "cannot delete mail", [&](Query& q) { q.bind(":id", id); });
  }

  Result<void> mark_mail_failed(std::int64_t id, std::string_view error, TimePoint next_attempt_at) override {
    return write_one(kMarkMailFailed, "cannot record mail failure", [&](Query& q) {
      q.bind(":error", error).bind(":next_attempt_at", to_unix(next_attempt_at)).bind(":id", id);
    });
  }

  Result<std::vector<OutboxMail>> drop_expired_mails(TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    Connection& db = *writer_;
    auto tx = Transaction::begin(db);
    if (!tx) return db_error("cannot drop expired mail", tx.error());
    std::vector<OutboxMail> expired;
    {
      auto q = db.query(kSelectExpiredMails);
      if (!q) return db_error("cannot drop expired mail", q.error());
      q->bind(":now", to_unix(now));
      auto rows = read_outbox_mails(*q);
      if (!rows) return db_error("cannot drop expired mail", rows.error());
      expired = std::move(*rows);
    }
    if (expired.empty()) return expired;  // nothing written: the transaction just rolls back
    auto q = db.query(kDeleteExpiredMails);
    if (!q) return db_error("cannot drop expired mail", q.error());
    q->bind(":now", to_unix(now));
    if (auto ok = q->run(); !ok) return db_error("cannot drop expired mail", ok.error());
    if (auto ok = tx->commit(); !ok) return db_error("cannot drop expired mail", ok.error());
    return expired;
  }

  Result<std::vector<OutboxMail>> outbox_mails() override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectOutboxMails);
    if (!q) return db_error("cannot list queued mail", q.error());
    auto rows = read_outbox_mails(*q);
    if (!rows) return db_error("cannot list queued mail", rows.error());
    return rows;
  }

  Result<int> retry_mails(std::optional<std::int64_t> id, TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(id ? kRetryMail : kRetryAllMails);
    if (!q) return db_error("cannot retry mail", q.error());
    q->bind(":now", to_unix(now));
    if (id) q->bind(":id", *id);
    if (auto ok = q->run(); !ok) return db_error("cannot retry mail", ok.error());
    return writer_->changes();
  }

  Result<bool> claim_mail_slot(std::string_view recipient, std::string_view kind, TimePoint now,
                               std::chrono::seconds gap) override {
    const std::int64_t cutoff = to_unix(now - gap);
    std::lock_guard lock(writer_mutex_);
    Connection& db = *writer_;
    auto tx = Transaction::begin(db);
    if (!tx) return db_error("cannot record mail", tx.error());
    {
      auto q = db.query(kPruneMailThrottle);
      if (!q) return db_error("cannot record mail", q.error());
      q->bind(":cutoff", cutoff);
      if (auto ok = q->run(); !ok) return db_error("cannot record mail", ok.error());
    }
    bool claimed = false;
    {
      auto q = db.query(kClaimMailSlot);
      if (!q) return db_error("cannot record mail", q.error());
      q->bind(":recipient", recipient).bind(":kind", kind).bind(":now", to_unix(now)).bind(":cutoff", cutoff);
      if (auto ok = q->run(); !ok) return db_error("cannot record mail", ok.error());
      claimed = db.changes() > 0;
    }
    if (auto ok = tx->commit(); !ok) return db_error("cannot record mail", ok.error());
    return claimed;
  }

  Result<std::optional<TimePoint>> next_mail_due() override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    auto q = (*db)->query(kSelectNextMailDue);
    if (!q) return db_error("cannot read queued mail", q.error());
    auto row = q->step();
    if (!row) return db_error("cannot read queued mail", row.error());
    return optional_time(*q, 0);
  }

  // ---------------------------------------------------------------- blog suggestions
  // (sqlite/suggestions.cpp)

  Result<Suggestion> add_suggestion(const NewSuggestion& suggestion) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::add_suggestion(*writer_, suggestion);
  }
  Result<std::vector<Suggestion>> claim_suggestions(TimePoint now, TimePoint lease_until, int limit,
                                                    int max_attempts) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::claim_suggestions(*writer_, now, lease_until, limit, max_attempts);
  }
  Result<void> release_suggestion(std::int64_t id) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::release_suggestion(*writer_, id);
  }
  Result<void> save_suggestion_finding(std::int64_t id, const SuggestionFinding& finding) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::save_suggestion_finding(*writer_, id, finding);
  }
  Result<Suggestion> decide_suggestion(std::int64_t id, const SuggestionDecision& decision) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::decide_suggestion(*writer_, id, decision);
  }
  Result<std::optional<Suggestion>> suggestion(std::int64_t id) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::suggestion(**db, id);
  }
  Result<std::vector<Suggestion>> reader_suggestions(std::int64_t reader_id, int limit) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::reader_suggestions(**db, reader_id, limit);
  }
  Result<std::vector<Suggestion>> suggestions(int limit) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::suggestions(**db, limit);
  }
  Result<std::optional<TimePoint>> next_suggestion_due() override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::next_suggestion_due(**db);
  }
  // ---------------------------------------------------------------- end of blog suggestions

  // ---------------------------------------------------------------------------- readers' flags
  // The SQL lives in sqlite/moderation.cpp (migration 0023); writes go through the writer under its lock.

  Result<FlagResult> flag_article(std::int64_t reader_id, std::int64_t article_id, FlagReason reason,
                                  TimePoint now, const FlagRules& rules) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::flag_article(*writer_, reader_id, article_id, reason, now, rules);
  }

  Result<bool> withdraw_flag(std::int64_t reader_id, std::int64_t article_id) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::withdraw_flag(*writer_, reader_id, article_id);
  }

  Result<FlagState> flag_state(std::int64_t article_id, std::optional<std::int64_t> reader_id) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::flag_state(**db, article_id, reader_id);
  }

  Result<std::vector<FlaggedArticle>> flagged_articles(int limit) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::flagged_articles(**db, limit);
  }

  Result<void> decide_flags(std::int64_t article_id, FlagDecision decision) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::decide_flags(*writer_, article_id, decision);
  }

  // ---------------------------------------------------------------------------- personal filters
  // The SQL lives in sqlite/personal_filters.cpp (migration 0028).

  Result<bool> set_blog_muted(std::int64_t reader_id, std::int64_t blog_id, bool muted,
                              TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::set_blog_muted(*writer_, reader_id, blog_id, muted, now);
  }

  Result<bool> set_category_muted(std::int64_t reader_id, std::string_view category, bool muted,
                                  TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::set_category_muted(*writer_, reader_id, category, muted, now);
  }

  Result<ReaderMutes> reader_mutes(std::int64_t reader_id) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::reader_mutes(**db, reader_id);
  }

  Result<ReaderPreferences> reader_preferences(std::int64_t reader_id) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::reader_preferences(**db, reader_id);
  }

  Result<void> set_reader_preferences(std::int64_t reader_id, const ReaderPreferences& preferences) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::set_reader_preferences(*writer_, reader_id, preferences);
  }

  // ---------------------------------------------------------------------------- blog lifecycle
  // The SQL lives in sqlite/lifecycle.cpp (migration 0026).

  Result<std::vector<BlogLifecycle>> blog_lifecycle() override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::blog_lifecycle(**db);
  }

  Result<bool> retire_blog(std::int64_t blog_id, std::string_view reason, TimePoint now) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::retire_blog(*writer_, blog_id, reason, now);
  }

  Result<bool> unretire_blog(std::int64_t blog_id) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::unretire_blog(*writer_, blog_id);
  }

  Result<bool> clear_blog_move(std::int64_t blog_id) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::clear_blog_move(*writer_, blog_id);
  }

  // ---------------------------------------------------------------------------- similar articles
  // The SQL lives in sqlite/similar.cpp (migration 0027).

  Result<SimilarTermStats> count_similar_terms(std::span<const std::uint32_t> buckets,
                                               int articles) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::count_similar_terms(*writer_, buckets, articles);
  }

  Result<std::vector<SimilarPostingRow>> similar_postings(std::span<const std::uint64_t> terms,
                                                          int per_term) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::similar_postings(**db, terms, per_term);
  }

  Result<std::vector<SimilarCandidateRow>> similar_candidates(std::span<const std::int64_t> ids) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::similar_candidates(**db, ids);
  }

  Result<void> save_similar_all(std::span<const SimilarWrite> writes) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::save_similar_all(*writer_, writes);
  }

  Result<std::vector<SimilarArticle>> similar_articles(std::int64_t article_id, int limit) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::similar_articles(**db, article_id, limit);
  }

  Result<void> clear_similar() override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::clear_similar(*writer_);
  }

  Result<std::vector<ArticleView>> articles_for_similar(std::int64_t after_id, int limit) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::articles_for_similar(**db, after_id, limit);
  }

  Result<ForYou> for_you(const ForYouQuery& query) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::for_you(**db, query);
  }

  // ---------------------------------------------------------------------------- process locks

  Result<bool> try_lock(std::string_view name, std::string_view owner, TimePoint now,
                        TimePoint until) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kTryLock);
    if (!q) return db_error("cannot take a lock", q.error());
    q->bind(":name", name).bind(":owner", owner).bind(":now", to_unix(now)).bind(":until", to_unix(until));
    if (auto ok = q->run(); !ok) return db_error("cannot take a lock", ok.error());
    return writer_->changes() > 0;
  }

  Result<void> unlock(std::string_view name, std::string_view owner) override {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(kUnlock);
    if (!q) return db_error("cannot give a lock back", q.error());
    q->bind(":name", name).bind(":owner", owner);
    if (auto ok = q->run(); !ok) return db_error("cannot give a lock back", ok.error());
    return {};
  }

  // ---------------------------------------------------------------------------- rate limits
  // The SQL lives in sqlite/rate_limits.cpp (migration 0029).

  Result<std::vector<TimePoint>> recent_attempts(std::string_view key, TimePoint since, int limit) override {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return sqlite::recent_attempts(**db, key, since, limit);
  }

  Result<void> record_attempt(std::string_view key, TimePoint at, TimePoint expires_at, int keep_per_key,
                              std::int64_t max_rows) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::record_attempt(*writer_, key, at, expires_at, keep_per_key, max_rows);
  }

  Result<void> clear_attempts(std::string_view key) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::clear_attempts(*writer_, key);
  }

  Result<void> clear_attempts_with_prefix(std::string_view prefix) override {
    std::lock_guard lock(writer_mutex_);
    return sqlite::clear_attempts_with_prefix(*writer_, prefix);
  }

 private:
  // One transaction of age_period_votes: moves `period`'s start towards `target` over at most
  // kAgingBatch votes (all votes of one second together) and takes them out of its counts. Returns how
  // many it took out, or -1 when the start had already reached the target. An idle site writes nothing
  // until an hour has passed or a vote leaves the period, so the page cache is not emptied every minute.
  Result<std::int64_t> age_votes_batch(VotePeriod period, std::int64_t target) {
    static constexpr std::int64_t kAgingBatch = 10000;
    const int days = period_days(period);
    Connection& db = *writer_;
    auto tx = Transaction::begin(db);
    if (!tx) return db_error("cannot age period votes", tx.error());
    std::int64_t from = 0;
    {
      auto q = db.query(kSelectCountedFrom);
      if (!q) return db_error("cannot age period votes", q.error());
      q->bind(":days", days);
      auto row = q->step();
      if (!row) return db_error("cannot age period votes", row.error());
      if (!*row) return std::int64_t{-1};  // a database from before the period counts has none to age
      from = q->int64(0);
    }
    if (from >= target) return std::int64_t{-1};
    std::int64_t to = target;
    {
      auto q = db.query(kSelectAgingBatchEnd);
      if (!q) return db_error("cannot age period votes", q.error());
      q->bind(":from", from).bind(":to", target).bind(":n", kAgingBatch);
      auto row = q->step();
      if (!row) return db_error("cannot age period votes", row.error());
      if (*row) to = std::max(q->int64(0), from + 1);
    }
    std::int64_t count = 0;
    {
      auto q = db.query(kCountVotesBetween);
      if (!q) return db_error("cannot age period votes", q.error());
      q->bind(":from", from).bind(":to", to);
      auto row = q->step();
      if (!row) return db_error("cannot age period votes", row.error());
      count = q->int64(0);
    }
    if (count == 0 && to - from < 3600) return std::int64_t{-1};
    if (count > 0) {
      auto q = db.query(period == VotePeriod::kWeek ? kAgeWeekVotes : kAgeMonthVotes);
      if (!q) return db_error("cannot age period votes", q.error());
      q->bind(":from", from).bind(":to", to);
      if (auto ok = q->run(); !ok) return db_error("cannot age period votes", ok.error());
    }
    {
      auto q = db.query(kSetCountedFrom);
      if (!q) return db_error("cannot age period votes", q.error());
      q->bind(":to", to).bind(":days", days);
      if (auto ok = q->run(); !ok) return db_error("cannot age period votes", ok.error());
    }
    if (auto ok = tx->commit(); !ok) return db_error("cannot age period votes", ok.error());
    return count;
  }
  static Result<void> visible_article(Connection& db, std::int64_t article_id) {
    auto q = db.query(kSelectVisibleArticle);
    if (!q) return db_error("cannot read article", q.error());
    q->bind(":id", article_id);
    auto row = q->step();
    if (!row) return db_error("cannot read article", row.error());
    if (!*row) {
      return fail(ErrorKind::kNotFound, fmt::format("store: no visible article {}", article_id),
                  "No such article.");
    }
    return {};
  }

  static Subscriber read_subscriber(const Query& q) {
    return {.id = q.int64(0),
            .email = q.text(1),
            .created_at = from_unix(q.int64(2)),
            .confirmed_at = optional_time(q, 3)};
  }

  template <typename Bind>
  Result<void> write_one(const char* sql, std::string_view what, Bind bind) {
    auto changed = write_changes(sql, what, bind);
    if (!changed) return std::unexpected(changed.error());
    return {};
  }

  template <typename Bind>
  Result<bool> write_changes(const char* sql, std::string_view what, Bind bind) {
    std::lock_guard lock(writer_mutex_);
    auto q = writer_->query(sql);
    if (!q) return db_error(what, q.error());
    bind(*q);
    if (auto ok = q->run(); !ok) return db_error(what, ok.error());
    return writer_->changes() > 0;
  }

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
      if (visible_ == 0) return {};
      auto q = db.query(kAddBlogVisibleCount);
      if (!q) return db_error("cannot count articles", q.error());
      q->bind(":n", visible_).bind(":blog_id", blog_id);
      if (auto ok = q->run(); !ok) return db_error("cannot count articles", ok.error());
      for (const auto& [category, n] : visible_by_category_) {
        auto c = db.query(kAddCategoryVisibleCount);
        if (!c) return db_error("cannot count articles", c.error());
        c->bind(":n", n).bind(":category", category);
        if (auto ok = c->run(); !ok) return db_error("cannot count articles", ok.error());
      }
      visible_ = 0;
      visible_by_category_.clear();
      return {};
    }

    // Must come after every other statement of the crawl (migration 0007).
    Result<void> write_search_entries(Connection& db) {
      for (const auto& [id, article] : entries_) {
        auto q = db.query(kInsertSearchEntry);
        if (!q) return db_error("cannot index article", q.error());
        q->bind(":id", id).bind(":title", article->title).bind(":text", article->text);
        if (auto ok = q->run(); !ok) return db_error("cannot index article", ok.error());
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

  // One crawl record's statements, inside the caller's transaction or savepoint. The search entries stay
  // in `deferred` for the caller to write after every other statement.
  Result<SaveStats> save_record(Connection& db, const CrawlRecord& record, DeferredWrites& deferred) {
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
      auto saved = save_article(db, record, blog_category, article, stats, deferred);
      if (!saved) return std::unexpected(saved.error());
    }
    if (auto ok = save_blog_state(db, record); !ok) return std::unexpected(ok.error());
    if (auto ok = deferred.write_counts(db, record.blog_id); !ok) return std::unexpected(ok.error());
    if (auto ok = apply_budgets(db, record, stats); !ok) return std::unexpected(ok.error());
    return stats;
  }

  // CrawlRecord's budgets, after the record's articles and counts are written. The rows this crawl inserted
  // carry guids of the feed, so they are never deleted here (their search entries are still to be written).
  static Result<void> apply_budgets(Connection& db, const CrawlRecord& record, SaveStats& stats) {
    if (record.prune_hidden_before) {
      auto q = db.query(kPruneHiddenBodies);
      if (!q) return db_error("cannot prune articles", q.error());
      q->bind(":blog_id", record.blog_id).bind(":before", to_unix(*record.prune_hidden_before));
      q->bind(":now", to_unix(record.attempted_at));
      if (auto ok = q->run(); !ok) return db_error("cannot prune articles", ok.error());
      stats.bodies_pruned = db.changes();
    }
    if (record.max_articles <= 0 || stats.inserted == 0) return {};
    std::int64_t rows = 0;
    {
      auto q = db.query(kCountBlogArticles);
      if (!q) return db_error("cannot prune articles", q.error());
      q->bind(":blog_id", record.blog_id);
      auto row = q->step();
      if (!row) return db_error("cannot prune articles", row.error());
      rows = q->int64(0);
    }
    if (rows <= record.max_articles) return {};
    const std::unordered_set<std::string_view> in_feed(record.feed_guids.begin(), record.feed_guids.end());
    std::vector<std::int64_t> doomed;
    {
      auto q = db.query(kSelectPruneCandidates);
      if (!q) return db_error("cannot prune articles", q.error());
      q->bind(":blog_id", record.blog_id);
      const auto excess = static_cast<std::size_t>(rows - record.max_articles);
      while (doomed.size() < excess) {
        auto row = q->step();
        if (!row) return db_error("cannot prune articles", row.error());
        if (!*row) break;
        if (!in_feed.contains(q->text(1))) doomed.push_back(q->int64(0));
      }
    }
    for (const std::int64_t id : doomed) {
      auto q = db.query(kDeleteArticle);
      if (!q) return db_error("cannot prune articles", q.error());
      q->bind(":id", id);
      if (auto ok = q->run(); !ok) return db_error("cannot prune articles", ok.error());
    }
    stats.deleted = static_cast<int>(doomed.size());
    return {};
  }

  // Inserts, updates or leaves one article of a crawl (inside the crawl's transaction).
  static Result<void> save_article(Connection& db, const CrawlRecord& record,
                                   const std::string& blog_category, const model::Article& article,
                                   SaveStats& stats, DeferredWrites& deferred) {
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

    auto bind_content = [&](Query& q) {
      q.bind(":title", article.title).bind(":link", article.link).bind(":author", article.author);
      q.bind(":published", optional_unix(article.published)).bind(":updated", optional_unix(article.updated));
      q.bind(":undated", article.undated).bind(":summary_html", article.summary_html);
      q.bind(":content_html", article.content_html).bind(":content_hash", hash);
      q.bind(":truncated", article.truncated);
    };

    if (!existing_id) {
      auto q = db.query(kInsertArticle);
      if (!q) return db_error("cannot insert article", q.error());
      const TimePoint first_seen =
          article.first_seen == TimePoint{} ? record.attempted_at : article.first_seen;
      const bool visible = article.keep_override ? *article.keep_override : !article.junk;
      bind_content(*q);
      bind_curation(*q, article, category, from_blog);
      q->bind(":blog_id", record.blog_id).bind(":guid", article.guid);
      q->bind(":first_seen", to_unix(first_seen));
      q->bind(":display_at", to_unix(article.published.value_or(first_seen)));
      q->bind(":keep_override", article.keep_override).bind(":visible", visible);
      q->bind(":votes", article.votes);
      if (auto ok = q->run(); !ok) return db_error("cannot insert article", ok.error());
      if (visible) deferred.add_visible(db.last_insert_rowid(), category, article);
      ++stats.inserted;
      return {};
    }
    // The index triggers of an update delete the old entry: it must be in the index first (a feed that
    // repeats a guid inserts and then updates one article in the same crawl).
    if (deferred.has_search_entry(*existing_id)) {
      if (auto ok = deferred.write_search_entries(db); !ok) return std::unexpected(ok.error());
    }
    if (existing_hash != hash) {
      auto q = db.query(kUpdateArticle);
      if (!q) return db_error("cannot update article", q.error());
      bind_content(*q);
      bind_curation(*q, article, category, from_blog);
      q->bind(":id", *existing_id);
      if (auto ok = q->run(); !ok) return db_error("cannot update article", ok.error());
      ++stats.updated;
    } else {
      // Unchanged. A record that carries curation (non-empty text) may refresh it; one without keeps it.
      if (!article.text.empty()) {
        auto q = db.query(kRefreshCuration);
        if (!q) return db_error("cannot update article", q.error());
        bind_curation(*q, article, category, from_blog);
        q->bind(":content_html", article.content_html).bind(":id", *existing_id);
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
    std::optional<std::int64_t> feed_update_minutes;
    if (record.feed_update_interval)
      feed_update_minutes = std::max<std::int64_t>(0, record.feed_update_interval->count());
    q->bind(":feed_update_minutes", feed_update_minutes);
    q->bind(":feed_title", record.feed_title)
        .bind(":site_url", record.site_url)
        .bind(":author", record.author);
    q->bind(":blog_id", record.blog_id);
    if (auto ok = q->run(); !ok) return db_error("cannot update blog", ok.error());

    if (record.new_feed_url && !record.new_feed_url->empty()) {
      auto r = db.query(kRedirectBlog);
      if (!r) return db_error("cannot update blog", r.error());
      r->bind(":feed_url", *record.new_feed_url).bind(":blog_id", record.blog_id);
      r->bind(":now", to_unix(record.attempted_at));
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

  std::string path_;
  std::shared_ptr<BodyDictionaries> bodies_;
  std::mutex writer_mutex_;
  std::unique_ptr<Connection> writer_;   // guarded by writer_mutex_
  BackgroundCheckpointer checkpointer_;  // after writer_: stopped before the writer closes
  ReaderPool readers_;
  std::mutex version_mutex_;
  std::unique_ptr<Connection> version_;  // guarded by version_mutex_; only ever reads PRAGMA data_version
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
  // Before the migrations: the writer's statements (and migration 0021's triggers) read article bodies.
  auto bodies = std::make_shared<sqlite::BodyDictionaries>();
  if (const std::string error = sqlite::register_body_functions((*writer)->raw(), bodies); !error.empty()) {
    return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path, error));
  }
  if (auto ok = apply_migrations(**writer); !ok) {
    return fail(ErrorKind::kStorage, fmt::format("{} ({})", ok.error().message, path));
  }
  auto checkpointer = Connection::open(path, false);
  if (!checkpointer) return std::unexpected(checkpointer.error());
  return std::unique_ptr<Store>(
      std::make_unique<SqliteStore>(std::move(*writer), std::move(*checkpointer), path, std::move(bodies)));
}

}  // namespace longread::storage
