// The value types the storage roles take and return (storage/roles/*.h): what a crawl stores, listing
// queries and pages, readers' records, the newsletter's, the outbox's, suggestions', flags' and the
// similar-articles index's rows. Plain data; no I/O.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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
  // Set: replace (an OPML outline's `longread:paused`; un-pausing makes the blog due at once). Unset: an
  // existing blog keeps its state, a new one is not paused.
  std::optional<bool> paused{};
  // Set: replace the hosts the blog's full-text pages may also come from (an OPML outline's
  // `longread:allowHosts`). Unset: an existing blog keeps its list, a new one has none.
  std::optional<std::vector<std::string>> allowed_hosts{};
};

// An operator's change to one blog (`longread blogs edit / pause / resume`): each set field replaces the
// stored one; unset fields, the crawl state, validators and articles are kept.
struct BlogEdit {
  std::optional<std::string> title{};
  std::optional<std::string> category{};  // slug; created when new; empty: "uncategorized"
  std::optional<bool> short_form{};
  std::optional<std::string> feed_url{};
  std::optional<bool> paused{};  // false also lifts a crash quarantine; on a paused or quarantined blog it
                                 // makes it due at once
  // Replaces the hosts the blog's full-text pages may also come from (canonical hosts; `blogs edit
  // --allow-host / --disallow-host`).
  std::optional<std::vector<std::string>> allowed_hosts{};
};

// An article's search vectors in PostgreSQL's binary forms, as the server receives them
// (storage/postgres/search_vectors.h).
struct PreparedSearchVectors {
  std::string words;  // the ids of the words of title and text: an int4[]
  std::string rank;   // the title: a tsvector
  // The pairs of neighbouring words: the bytes of a bytea (storage/postgres/phrase_filter.h).
  std::string phrase_filter;
  // The common words `search` leaves out, a bit each: the bytes of a bytea (storage/postgres/common_words.h).
  std::string common_words;
  // The words of the text's lead, which relevance counts: the bytes of a bytea
  // (storage/postgres/phrase_filter.h).
  std::string lead_filter;
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
  // Set: replace the stored Blog::feed_update_interval; zero clears it (a parsed feed without a hint). Unset
  // (a 304, a failure): keep it.
  std::optional<std::chrono::minutes> feed_update_interval{};
  // Feed metadata, applied when non-empty and the blog has none from its list.
  std::string feed_title{};
  std::string site_url{};
  std::string author{};
  std::vector<model::Article> articles{};  // upserted by (blog_id, guid)

  // Budgets, applied in the same transaction after the articles (docs/storage.md, "Budgets"). A crawl that
  // inserted articles leaves the blog at most `max_articles` rows (0: no cap) by deleting, oldest first,
  // hidden (junk) articles, then visible ones; never one with a vote, on a reading list, kept by the
  // operator, or whose guid is in `feed_guids` (the feed holds it now: deleted, it would come back as new).
  std::int64_t max_articles = 0;
  std::vector<std::string> feed_guids{};
  // Set: hidden articles of the blog first seen before this lose their bodies (summary, content, text,
  // excerpt); guid, content hash and verdict stay, so the entry is never new again.
  std::optional<TimePoint> prune_hidden_before{};

  // The articles' bodies in the form the store writes them, one per article in order, made by
  // ArticleStore::prepare_crawl on the thread that built the record; empty: the store makes them as it saves.
  // An empty string is an article without any body.
  std::vector<std::string> prepared_bodies{};
  // PostgreSQL: the articles' search vectors, one per article in order, made by prepare_crawl likewise;
  // empty: the store makes them as it saves.
  std::vector<PreparedSearchVectors> prepared_search{};
};

struct SaveStats {
  int inserted = 0;
  int updated = 0;  // content changed; votes and first-seen kept
  int unchanged = 0;
  int deleted = 0;        // rows removed to keep the blog within CrawlRecord::max_articles
  int bodies_pruned = 0;  // hidden articles whose bodies were emptied (CrawlRecord::prune_hidden_before)
  // The row of each of the record's articles after the save, in the record's order (a guid the record
  // repeats: its first sighting's row), and the rows deleted to keep the blog within
  // CrawlRecord::max_articles: what the near-duplicate decision needs of the save, without reading the blog's
  // rows again.
  std::vector<std::int64_t> ids{};
  std::vector<std::int64_t> deleted_ids{};
};

// A crawler's mark on a blog whose feed it is parsing (migration 0015): who ("host:pid:nonce") and since.
struct ParsingMark {
  std::int64_t blog_id = 0;
  std::string owner{};
  TimePoint since{};
};

// A crawler that died while parsing a blog (its mark outlived it): what to store for the blog.
struct CrawlerCrash {
  ParsingMark mark{};  // as read: the crash is recorded only while the blog still carries exactly this mark
  int crashes = 0;     // the blog's crashes in a row, this one included
  bool quarantine = false;
  std::string status{};  // stored as the last status and error
  std::optional<TimePoint> next_due_at{};
  TimePoint now{};
};

// What the pipeline needs to know of an already stored article to avoid repeated work.
struct StoredArticleKey {
  std::int64_t id = 0;
  std::string guid{};
  // As last stored: the Article::content_hash the pipeline gave, else the store's
  // stable_hash_hex(title + "\x1f" + summary_html + "\x1f" + content_html).
  std::string content_hash{};
  bool full_text_fetched = false;
  int full_text_failures = 0;
};

enum class ArticleOrder { kNewest, kTop, kHot };

// A rolling period of Top: the votes cast in the last 7 or 30 days.
enum class VotePeriod { kWeek, kMonth };
[[nodiscard]] constexpr int period_days(VotePeriod period) {
  return period == VotePeriod::kWeek ? 7 : 30;
}

// One reader's personal filters applied inside a listing's SQL (docs/readers.md, "Personal filters"), so a
// page holds `limit` articles the reader may see and keyset cursors stay exact: the blogs and categories
// they muted are left out; with `hide_read`, so are the articles they have read (article_reads and
// read_horizons, the state feed apps share); with `newsletter_categories`, only the categories they chose
// for their newsletter are kept (all when they chose none).
struct ReaderFilter {
  std::int64_t reader_id = 0;
  bool hide_read = false;
  bool newsletter_categories = false;
};

// A listing of articles for a page. Junk is excluded unless `include_junk`.
struct ArticleQuery {
  std::optional<std::int64_t> blog_id{};
  std::optional<std::string> category{};
  std::optional<TimePoint> since{};  // only articles dated at or after this (the newsletter's week)
  std::optional<TimePoint> until{};  // only articles dated before this (a past week of the top-five feed)
  // kTop: rank by the votes cast in the period (votes.created_at), listing only articles that got one
  // then; ties by all-time votes, then newest (Top "this week" / "this month"). The period ends at the
  // last age_period_votes(now): votes older than its start are no longer counted from then on.
  std::optional<VotePeriod> vote_period{};
  bool voted_only = false;  // only articles with at least one vote (Top "all time" never pads)
  ArticleOrder order = ArticleOrder::kNewest;
  std::optional<std::int64_t> exclude_blog_id{};
  std::optional<std::int64_t> exclude_article_id{};
  bool include_junk = false;
  int limit = 30;
  int offset = 0;  // ignored when `after` is set
  // A cursor from ArticlePage::next (article_page): the page starts right after the article it names, one
  // index seek however deep (keyset pagination). Empty: from the start (or `offset`).
  std::string after{};
  std::optional<ReaderFilter> reader{};  // set: that reader's personal filters apply
};

// An article with what a page shows of its blog.
struct ArticleView {
  model::Article article{};
  std::string blog_title{};
  std::string blog_site_url{};
  std::string blog_category{};
};

// One page of the hot order (docs/ranking.md) with at most `per_blog_cap` articles of one blog per page.
// Pages are cut from one sequence: the hot order walked from the top, where an article whose blog already
// has `per_blog_cap` on the page being filled moves on to the next page (ahead of what follows), so page
// N+1 never repeats or skips what page N showed. When `kCapLookahead` articles wait for later pages (one
// blog floods the listing) or the listing runs out, the waiting ones fill the page in order even past the
// cap (unless `strict_cap`): a listing with one busy blog still has full pages.
struct HotPageQuery {
  std::optional<std::string> category{};
  std::optional<std::int64_t> exclude_blog_id{};
  int page = 1;  // 1-based; ignored when `after` is set
  // A cursor from HotPage::next: the walk resumes after the last index entry that page read, with the
  // articles it held back (a blog over its cap) leading this page, so the pages are cut exactly as if
  // walked from the top.
  std::string after{};
  int page_size = 25;
  int per_blog_cap = 0;     // 0: no cap (the plain hot order)
  bool strict_cap = false;  // a short page rather than more than per_blog_cap of one blog ("More in")
  std::optional<ReaderFilter> reader{};  // set: that reader's personal filters apply
  static constexpr int kCapLookahead = 250;
};

// One page of a listing (article_page, hot_page). `next` is an opaque cursor for the page after it, to be
// passed back as ArticleQuery::after / HotPageQuery::after; it is URL-safe (digits, '-', '.' and '_') and
// holds the sort key of the last article the page used, so a link to the next page stays valid while
// articles are added (they are never repeated or skipped by it) and costs one index seek at any depth.
struct ArticlePage {
  std::vector<ArticleView> articles{};  // in the listing's order
  bool has_more = false;                // a later page has articles
  std::string next{};                   // cursor of the next page; empty when !has_more
};
using HotPage = ArticlePage;

// Search ranks only the newest matches (by article id, i.e. by when they were stored) so that a common
// word costs no more than a rare one; a query's pages end after this many hits.
inline constexpr int kSearchCandidates = 1000;
// The relevance of a search hit halves for every this many days of age (display_at), so a year-old article
// needs twice the BM25 relevance of today's to rank level with it.
inline constexpr int kSearchHalfLifeDays = 365;
// Words and quoted phrases a search uses; the rest of a longer query is ignored.
inline constexpr int kMaxSearchTerms = 32;

struct SearchHit {
  ArticleView view{};
  std::string snippet{};  // text with matches wrapped in \x01 ... \x02 (the page escapes, then marks)
};

// What /metrics reports about the stored data (DatabaseStore::site_stats).
struct SiteStats {
  std::int64_t blogs = 0;
  std::int64_t blogs_due = 0;  // due now: neither paused nor quarantined, next poll time reached
  std::int64_t blogs_paused = 0;
  std::int64_t blogs_quarantined = 0;
  std::int64_t blogs_failing = 0;  // whose last poll failed (one or more failures in a row)
  std::int64_t articles_visible = 0;
  std::int64_t articles_junk = 0;
  std::int64_t articles_held = 0;  // hidden by readers' flags until an operator decides
  std::int64_t readers = 0;
  std::int64_t subscribers = 0;                     // confirmed and not unsubscribed
  std::int64_t outbox_queued = 0;                   // account mails waiting to be sent
  std::optional<TimePoint> last_newsletter_sent{};  // the latest delivery of a newsletter issue
};

// How much one DatabaseStore::maintain_search_index call may do.
struct SearchIndexUpkeep {
  // PostgreSQL: the index of the newest articles covers at least this many of the newest ids, and is built
  // again over the newest this-many once it covers twice as many; none is built while the table holds
  // fewer than twice as many ids (the whole index is then small).
  std::int64_t recent_ids = 100'000;
  // SQLite: pages of FTS5 segments merged at most.
  int merge_pages = 500;
};

// What one DatabaseStore::maintain_search_index call did.
struct SearchIndexReport {
  bool changed = false;   // an index was built, dropped or merged
  bool busy = false;      // another process holds the upkeep (PostgreSQL): nothing was done
  std::string summary{};  // one line for the log and the CLI
};

// --- similar articles (migration 0027, docs/similar.md). The store keeps the index and the picks; the
// pipeline computes them (curate/similar.h).

// Stored document frequencies of term buckets (curate::df_bucket), as similar_term_frequencies reads them.
struct SimilarTermStats {
  std::int64_t documents = 0;      // articles counted
  std::vector<std::int64_t> df{};  // per bucket asked, in the order asked
};

// Articles to add to one bucket's document frequency (add_similar_terms).
struct SimilarTermCount {
  std::uint32_t bucket = 0;
  std::int64_t articles = 0;
};

// One entry of the inverted index.
struct SimilarPostingRow {
  std::int64_t article_id = 0;
  std::uint64_t term = 0;  // curate::term_hash
  double weight = 0;
};

// What picks need to know of a candidate article.
struct SimilarCandidateRow {
  std::int64_t id = 0;
  std::int64_t blog_id = 0;
  std::uint64_t simhash = 0;
  bool visible = false;
};

// A pick as stored: for `article_id`'s list, `similar_id`, with its score and reason.
struct SimilarPickRow {
  std::int64_t article_id = 0;
  std::int64_t similar_id = 0;
  double score = 0;
  std::string shared{};  // "lock free, ring buffer, cache line"
};

// What indexing one article writes, in one transaction.
struct SimilarWrite {
  std::int64_t article_id = 0;
  // Its signature terms (hash, weight). Each joins the term's postings while the term has fewer than
  // `postings_per_term`, else replaces the lightest one when heavier.
  std::vector<std::pair<std::uint64_t, double>> postings{};
  int postings_per_term = 128;
  // Its picks: replace its list.
  std::vector<SimilarPickRow> picks{};
  // The article offered to older articles' lists (article_id: the older one, similar_id: this one). It
  // joins a list that has fewer than `picks_per_article` picks, or replaces the list's lowest pick when it
  // scores higher; otherwise nothing changes.
  std::vector<SimilarPickRow> offers{};
  int picks_per_article = 8;
};

// A batch of the similar-articles queue (SimilarStore::similar_backlog), oldest first.
struct SimilarBacklog {
  std::vector<std::int64_t> queued{};   // every id read from the queue, visible or not
  std::vector<ArticleView> articles{};  // those of them still visible, with their text
};

// A pick as the article page shows it.
struct SimilarArticle {
  ArticleView view{};
  double score = 0;
  std::string shared{};
};

// "For you": fresh articles like what one reader voted for and saved, found through the stored similar
// picks both ways (a seed's own picks, and newer articles that picked a seed).
struct ForYouQuery {
  std::int64_t reader_id = 0;
  TimePoint since{};  // only articles dated at or after this
  int limit = 30;
  int max_seeds = 200;  // the reader's most recent votes and saves that are taken as seeds
};
// One pick and its reason: the seed it is most like.
struct ForYouPick {
  ArticleView article{};
  model::Article because{};    // the seed (id, title and blog_id are set: enough for its link)
  bool because_saved = false;  // the reader saved the seed (else voted for it)
  double score = 0;            // the sum of its likeness to every seed it is like
  std::string shared{};        // the words it shares with `because`
};
struct ForYou {
  std::int64_t seeds = 0;  // the reader's votes and saves, an article counted once
  std::vector<ForYouPick>
      picks{};  // the most alike first; without what the reader muted, read, saved or voted for
};

// --- readers: accounts, sessions, votes, reading list, newsletter.

// A reader's account as stored: the password hash is an Argon2id string (libsodium crypto_pwhash_str).
struct ReaderAccount {
  std::int64_t id = 0;
  std::string email{};
  std::string password_hash{};
  TimePoint created_at{};
  // When the address was confirmed by the mailed link; nullopt while the account is pending (sign-up on
  // a site that sends mail). Accounts made without mail are confirmed when created.
  std::optional<TimePoint> confirmed_at{};
  bool is_operator = false;  // may use the admin area (`longread readers promote`)
};

// A server-side session. The cookie holds a random token; only its hash is stored, so a copy of the
// database does not log anyone in.
struct SessionRecord {
  std::string token_hash{};
  std::int64_t reader_id = 0;
  TimePoint created_at{};
  TimePoint expires_at{};
};

// Who a live session belongs to.
struct SessionReader {
  std::int64_t reader_id = 0;
  std::string email{};
  TimePoint expires_at{};
  bool is_operator = false;  // read with the session, so every admin request checks the current role
};

// One operator action in the audit log: who (reader id, nullopt for the server's CLI or a deleted account,
// and the address as it was), what ("blog.pause"), on what ("blog 12"), when, and details.
struct AuditEntry {
  std::int64_t id = 0;
  TimePoint at{};
  std::optional<std::int64_t> actor_id{};
  std::string actor{};
  std::string action{};
  std::string target{};
  std::string detail{};
};

// A followed blog as the admin area's blogs table shows it: the blog (crawl state, visible article
// count), when it was first followed, its newest article's date and how many articles it dated in the
// window asked for.
struct BlogHealth {
  model::Blog blog{};
  TimePoint followed_at{};
  std::optional<TimePoint> newest_article_at{};
  std::int64_t recent_articles = 0;  // dated at or after `since` (junk included: the blog posted them)
  std::int64_t stored_articles = 0;  // every stored article, junk included
};

// Where a followed blog is in its lifecycle (migration 0026): retired (by an operator or automatically: no
// crawl polls it, its articles stay on the site) and moved (the last permanent redirect of its feed).
struct BlogLifecycle {
  std::int64_t blog_id = 0;
  std::optional<TimePoint> retired_at{};
  std::string retired_reason{};
  std::string moved_from{};  // the feed URL a permanent redirect replaced; empty: none, or accepted
  std::optional<TimePoint> moved_at{};
};

// One page of the audit log, newest first; `next_before` is the id to pass for the page after it (0: none).
struct AuditPage {
  std::vector<AuditEntry> entries{};
  std::int64_t next_before = 0;
};

// --- readers' flags (migration 0023, docs/storage.md "Reader flags").

// Why a reader flags an article.
enum class FlagReason { kSpam, kAiGenerated, kNotAnArticle, kBrokenLink };
inline constexpr FlagReason kFlagReasons[] = {FlagReason::kSpam, FlagReason::kAiGenerated,
                                              FlagReason::kNotAnArticle, FlagReason::kBrokenLink};
// As stored and posted: "spam", "ai", "not_article", "broken_link".
[[nodiscard]] std::string_view flag_reason_name(FlagReason reason);
[[nodiscard]] std::optional<FlagReason> parse_flag_reason(std::string_view name);
// As readers read it: "spam", "AI-generated", "not an article", "broken link".
[[nodiscard]] std::string_view flag_reason_label(FlagReason reason);

// The bounds on flags (moderation.* in the configuration): the distinct readers' flags that hide an
// article until an operator decides, and how many articles one reader may flag in 24 hours.
struct FlagRules {
  int flags_to_hide = 3;
  int flags_per_day = 20;
};

enum class FlagOutcome {
  kFlagged,         // recorded
  kAlreadyFlagged,  // this reader had flagged it before: nothing changed
  kOverDailyLimit,  // the reader flagged FlagRules::flags_per_day articles in the last 24 hours
};

// An article's flags as one reader sees them (`reader_flag` is theirs) and as the site treats them.
struct FlagState {
  int flags = 0;                            // distinct readers who flagged it
  bool held = false;                        // hidden until an operator decides
  std::string decision{};                   // "", "keep", "junk"
  std::optional<FlagReason> reader_flag{};  // the asking reader's flag, if any
};

struct FlagResult {
  FlagOutcome outcome = FlagOutcome::kFlagged;
  FlagState state{};
};

// An operator's decision on a flagged article (/admin/flags).
enum class FlagDecision {
  kKeep,  // lifts the hold; later flags are recorded but never hold it again
  kJunk,  // the operator's junk override (as `longread junk ID`), which sticks across re-crawls
};

// A flagged article as /admin/flags lists it.
struct FlaggedArticle {
  std::int64_t article_id = 0;
  std::int64_t blog_id = 0;
  std::string title{};
  std::string link{};
  std::string blog_title{};
  std::string blog_site_url{};
  int flags = 0;
  std::array<int, std::size(kFlagReasons)> by_reason{};  // in kFlagReasons order
  TimePoint last_flag_at{};
  bool held = false;
  std::string decision{};  // "", "keep", "junk"
  std::optional<bool> keep_override{};
};

// An article's vote state after a vote or unvote.
struct VoteState {
  bool voted = false;
  int votes = 0;
};

// Which of some articles a reader has voted for, saved, and read (read as feed apps see it: an explicit
// mark, else a "mark all as read" horizon; migration 0025).
struct ReaderMarks {
  std::vector<std::int64_t> voted{};
  std::vector<std::int64_t> saved{};
  std::vector<std::int64_t> read{};
};

// --- personal filters (migration 0028).
// A blog or category a reader muted, with what the account page shows of it.
struct MutedBlog {
  std::int64_t blog_id = 0;
  std::string title{};
  std::string site_url{};
  TimePoint muted_at{};
};
struct MutedCategory {
  std::string slug{};
  std::string name{};
  TimePoint muted_at{};
};
// Everything one reader muted, most recent first.
struct ReaderMutes {
  std::vector<MutedBlog> blogs{};
  std::vector<MutedCategory> categories{};
};
// A reader's reading preferences. Defaults: read articles dimmed (not hidden), nothing marked read on
// scroll, the newsletter covers every category.
struct ReaderPreferences {
  bool hide_read = false;
  bool mark_read_on_scroll = false;
  std::vector<std::string> newsletter_categories{};  // slugs, sorted; empty: every category
};

// One reading-list entry with its article.
struct SavedArticle {
  ArticleView view{};
  TimePoint saved_at{};
  std::optional<TimePoint> read_at{};
};

// A link on a reader's reading list that is not an article of the site: imported from another service
// (Pocket, Instapaper, a browser's bookmarks) and matching no article here.
struct SavedLink {
  std::int64_t id = 0;
  std::string url{};
  std::string title{};
  TimePoint saved_at{};
  std::optional<TimePoint> read_at{};
};

// A link to import into a reading list (ReaderMarkStore::import_reading_list).
struct ImportedLink {
  std::string url{};
  std::string title{};
  std::optional<TimePoint> saved_at{};  // when the other service saved it; later than now counts as now
  bool read = false;
};

struct ImportSummary {
  int articles = 0;    // joined the reading list as an article of the site
  int links = 0;       // kept as plain saved links
  int already = 0;     // were on the list already (left as they were)
  int over_limit = 0;  // not kept: the reader has kMaxSavedLinks plain links
};

// Plain saved links one reader may keep.
inline constexpr int kMaxSavedLinks = 50000;

// --- feed apps over the Google Reader API (migration 0025).
// An app password: a reader's second password for one app, stored as an Argon2id hash and revocable.
struct AppPassword {
  std::int64_t id = 0;
  std::string name{};
  std::string password_hash{};
  TimePoint created_at{};
  std::optional<TimePoint> last_used_at{};  // the last ClientLogin with it
};
inline constexpr int kMaxAppPasswords = 10;

// A token ClientLogin hands an app (only its hash is stored).
struct ApiTokenRecord {
  std::string token_hash{};
  std::int64_t app_password_id = 0;
  std::int64_t reader_id = 0;
  TimePoint created_at{};
  TimePoint expires_at{};
};

// Which of the site's articles an app asks for, with one reader's read and starred marks (a stream of
// the Google Reader API). Newest first by the article's date unless `oldest_first`.
struct StreamQuery {
  std::optional<std::int64_t> blog_id{};
  std::optional<std::string> category{};
  bool starred_only = false;              // on the reader's reading list
  std::optional<bool> read{};             // only read (true) or only unread (false) articles
  std::optional<TimePoint> newer_than{};  // dated at or after
  std::optional<TimePoint> older_than{};  // dated before
  bool oldest_first = false;
  int limit = 20;
  std::string after{};  // StreamPage::next of the page before; kInvalidInput when forged
};
struct StreamItem {
  ArticleView view{};
  TimePoint display_at{};  // the date the stream is ordered by
  bool read = false;
  bool starred = false;  // on the reading list
};
struct StreamPage {
  std::vector<StreamItem> items{};
  std::string next{};  // empty: no more
};

struct Subscriber {
  std::int64_t id = 0;
  std::string email{};
  TimePoint created_at{};
  std::optional<TimePoint> confirmed_at{};
  // The confirmed reader account with the same address (compared as accounts compare them), whose personal
  // filters shape this subscriber's issue; nullopt: none (confirmed_subscribers fills it).
  std::optional<std::int64_t> reader_id{};
};

// One weekly issue: which articles it carries is fixed when it is first created, so a send that is
// interrupted and resumed sends the same issue.
struct NewsletterIssue {
  std::int64_t id = 0;
  std::string key{};  // "2024-W21"
  std::vector<std::int64_t> article_ids{};
  TimePoint created_at{};
};

// Per-recipient delivery states. "sending" is written (and committed) before the SMTP transaction starts
// and is never retried, so a crash mid-send cannot deliver twice (at most once); "retry" after a
// temporary failure; "sent"; "failed" after a permanent (5xx) refusal.
enum class DeliveryState { kSending, kSent, kRetry, kFailed };

// --- account-mail outbox (migration 0013, docs/mail.md): one queued account mail. The message is rendered
// when queued (RFC 5322, CRLF line ends) and holds a live signed link, so a row is deleted as soon as the
// mail is sent, refused for good or expired; nothing lingers.
struct OutboxMail {
  std::int64_t id = 0;
  std::string kind{};  // "confirm", "registered", "reset"; "newsletter" (the subscription confirmation)
  std::string recipient{};
  std::string message{};
  TimePoint created_at{};
  TimePoint not_after{};  // the link in it stops working then: never sent at or after this
  int attempts = 0;       // SMTP transactions started (counted when claimed)
  TimePoint next_attempt_at{};
  std::string last_error{};
};

// One article in the near-duplicate index.
struct SimhashEntry {
  std::int64_t id = 0;
  std::int64_t blog_id = 0;
  std::uint64_t simhash = 0;
  TimePoint date{};  // published, else first seen
};

// An original that a save entered in the near-duplicate log (ArticleStore::save_crawls with a decision), at
// its place in the log. Places follow the order in which those saves committed, which is not the order of
// article ids once several processes insert at once.
struct LoggedOriginal {
  std::int64_t seq = 0;
  SimhashEntry entry{};
};

// What the log holds after a place (DuplicateDecision::originals_since).
struct LoggedOriginals {
  std::vector<LoggedOriginal> originals;  // in log order, without those since marked duplicates
  std::int64_t last_seq = 0;              // the log's newest place: where the next read starts
  bool complete = true;  // false when the log no longer reaches back to the place asked for (pruned)
};

// A new junk verdict for one stored article (`longread rejudge`): curate::judge run again on what is stored.
struct VerdictUpdate {
  std::int64_t article_id = 0;
  bool junk = false;
  std::string reason{};  // empty when not junk
};

// What `rejudge --text` derives again from an article's stored HTML.
struct TextUpdate {
  std::int64_t article_id = 0;
  std::string text{};
  std::string excerpt{};
  int word_count = 0;
  int reading_minutes = 1;
  std::uint64_t simhash = 0;
};

// One batch of the body converter, `longread db compact` (docs/storage.md, "Article bodies").
struct CompactOptions {
  int batch = 500;            // articles per transaction
  std::int64_t after_id = 0;  // where the walk resumes (the previous batch's last_id; 0: the start)
  bool retrain = false;       // train a new dictionary even when one exists (at the start of the walk)
  // For tests: how long to wait inside the batch's transaction before committing, so a test can kill the
  // process while a batch is written but not committed.
  std::chrono::milliseconds hold_before_commit{0};
};

struct CompactBatch {
  std::int64_t converted = 0;  // articles written in the compressed form with the newest dictionary
  std::int64_t last_id = 0;    // the walk's position: the next batch's after_id
  bool done = false;           // no article after last_id needs converting
  std::optional<std::uint32_t> trained_dictionary{};  // the id of a dictionary trained by this batch
  std::vector<std::int64_t> unreadable{};  // articles whose stored body could not be read (left as they are)
};

// --- blog suggestions (migration 0022): a URL a reader suggested, or an operator typed into "Add a blog",
// what feed discovery found there, and the operator's decision.

// pending: discovery has not run yet. found: a feed, waiting for an operator. failed: no feed (or the URL
// could not be fetched). refused: the outbound address policy refused the URL. followed: the feed found is
// already a followed blog. approved: an operator followed it. rejected: an operator said no, with a reason.
enum class SuggestionStatus { kPending, kFound, kFailed, kRefused, kFollowed, kApproved, kRejected };
// "pending", "found", ... as stored.
[[nodiscard]] std::string_view to_string(SuggestionStatus status) noexcept;
// An operator has decided (approved or rejected), or there is nothing to decide on (followed).
[[nodiscard]] bool is_closed(SuggestionStatus status) noexcept;

// One of the newest posts of a suggested feed, with the junk rules' verdict.
struct SuggestedPost {
  std::string title{};
  std::string link{};
  std::optional<TimePoint> published{};
  bool junk = false;
  std::string junk_reason{};
};

struct Suggestion {
  std::int64_t id = 0;
  std::optional<std::int64_t> reader_id{};  // nullopt: an operator's "Add a blog", or a deleted account
  std::string reader_email{};               // the suggesting account's address while it exists
  bool by_operator = false;
  std::string url{};
  std::string note{};
  std::string category{};  // the operator's choice when adding; empty for readers' suggestions
  SuggestionStatus status = SuggestionStatus::kPending;
  TimePoint created_at{};
  int attempts = 0;  // discovery runs started (claims)
  // What discovery found (found, followed): the feed a blog would be stored under, its site, title, format
  // ("RSS 2.0"), entry count, newest dated entry and newest few posts.
  std::optional<TimePoint> discovered_at{};
  std::string feed_url{};
  std::string site_url{};
  std::string title{};
  std::string format{};
  std::int64_t entries = 0;
  std::optional<TimePoint> newest_post{};
  std::vector<SuggestedPost> posts{};
  std::string error{};                    // failed, refused: why
  std::optional<std::int64_t> blog_id{};  // followed: the blog that has the feed; approved: the new blog
  std::optional<TimePoint> decided_at{};  // approved, rejected
  std::string decided_by{};               // the operator's address
  std::string reason{};                   // rejected: the operator's reason
};

// A new suggestion. With per_day > 0, a reader with per_day suggestions created in the 24 hours before
// `now` is refused (kRateLimited); operators' entries (by_operator) are not counted or limited.
struct NewSuggestion {
  std::optional<std::int64_t> reader_id{};
  bool by_operator = false;
  std::string url{};
  std::string note{};
  std::string category{};
  TimePoint now{};
  int per_day = 0;
};

// What one discovery run found: status found, followed, failed or refused, with the fields that go with it.
struct SuggestionFinding {
  SuggestionStatus status = SuggestionStatus::kFound;
  TimePoint at{};
  std::string feed_url{};
  std::string site_url{};
  std::string title{};
  std::string format{};
  std::int64_t entries = 0;
  std::optional<TimePoint> newest_post{};
  std::vector<SuggestedPost> posts{};
  std::string error{};
  std::optional<std::int64_t> blog_id{};
};

// An operator's decision: approved (blog_id: the blog it became) or rejected (reason).
struct SuggestionDecision {
  SuggestionStatus status = SuggestionStatus::kApproved;
  TimePoint at{};
  std::string decided_by{};
  std::optional<std::int64_t> blog_id{};
  std::string reason{};
};

}  // namespace longread::storage
