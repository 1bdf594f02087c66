// The storage interface: everything longread keeps goes through a Store. A SQLite backend ships now; a
// PostgreSQL one comes later, so SQL stays portable and the schema lives in numbered migrations.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
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
};

struct SaveStats {
  int inserted = 0;
  int updated = 0;  // content changed; votes and first-seen kept
  int unchanged = 0;
  int deleted = 0;        // rows removed to keep the blog within CrawlRecord::max_articles
  int bodies_pruned = 0;  // hidden articles whose bodies were emptied (CrawlRecord::prune_hidden_before)
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

// What /metrics reports about the stored data (Store::site_stats).
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

// --- similar articles (migration 0027, docs/similar.md). The store keeps the index and the picks; the
// pipeline computes them (curate/similar.h).

// Document frequencies of one article's term buckets (curate::df_bucket), as count_similar_terms gives them.
struct SimilarTermStats {
  std::int64_t documents = 0;      // articles counted so far (this one included when it was counted)
  std::vector<std::int64_t> df{};  // per bucket asked, in the order asked
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

// A link to import into a reading list (Store::import_reading_list).
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

// The store. Every method is safe to call from several threads; implementations serialise as needed.
class Store {
 public:
  virtual ~Store() = default;

  // --- blogs
  virtual Result<std::int64_t> upsert_blog(const BlogSeed& seed) = 0;
  virtual Result<std::optional<model::Blog>> blog(std::int64_t id) = 0;
  virtual Result<std::vector<model::Blog>> blogs() = 0;  // with article_count
  // Blogs due at `now`, paused ones and those another crawler has claimed left out.
  virtual Result<std::vector<model::Blog>> due_blogs(TimePoint now) = 0;
  // Claims for `owner` (one crawler process) the blogs due at `now`, at most `limit` of them in due order
  // (0: every one), until `lease_until`, in one transaction, and returns them. Several crawler processes
  // over one database each get blogs no other one holds: a claimed blog is not due for anyone until its
  // poll is recorded (which ends the claim), its owner gives it back, or the claim lapses at
  // `lease_until` (its crawler died) and another crawler takes it over.
  virtual Result<std::vector<model::Blog>> claim_due_blogs(std::string_view owner, TimePoint now,
                                                           TimePoint lease_until, int limit) = 0;
  // Gives back every claim `owner` still holds (the end of its pass): a blog it did not record is due again
  // at once.
  virtual Result<void> release_blog_claims(std::string_view owner) = 0;
  virtual Result<std::int64_t> blog_count() = 0;
  // The blog whose feed URL is exactly `feed_url` (as stored: after any permanent redirect), if any.
  virtual Result<std::optional<model::Blog>> blog_by_feed_url(std::string_view feed_url) = 0;
  // Applies `edit` in one transaction and returns the blog as it is afterwards. A new category re-files the
  // blog's articles that took its category (not those the classifier filed elsewhere), and a category left
  // with no blog and no article is dropped. kNotFound for an unknown blog; kConflict when the new feed URL
  // is another blog's.
  virtual Result<model::Blog> edit_blog(std::int64_t blog_id, const BlogEdit& edit) = 0;

  // --- crawling
  virtual Result<std::vector<StoredArticleKey>> article_keys(std::int64_t blog_id) = 0;
  virtual Result<SaveStats> save_crawl(const CrawlRecord& record) = 0;
  // Several crawl results in one transaction (group commit), each inside its own savepoint: a record that
  // cannot be saved is rolled back alone and reported in its slot, the others commit together. One commit
  // and one search-index flush for the group instead of one per blog. The outer error means nothing of the
  // group was saved (the transaction could not begin or commit).
  virtual Result<std::vector<Result<SaveStats>>> save_crawls(std::span<const CrawlRecord> records) = 0;
  // How many of a blog's articles, junk included, are dated (published, else first seen) at or after `since`:
  // how often it posts lately, for crawl.scheduler = entry_frequency. Undated articles first seen in the
  // blog's first crawl (its back catalogue) do not count. Runs once per blog per crawl, so it must be cheap
  // (SQLite: one range of an index, docs/fetch.md).
  virtual Result<std::int64_t> count_recent_articles(std::int64_t blog_id, TimePoint since) = 0;

  // Crash quarantine (migration 0015, docs/fetch.md "Quarantine"). Each is one statement, committed at once:
  // the mark must be on disk before the parse it covers starts.
  // Marks `blog_id` as being parsed by `owner` since `since` (replacing any mark).
  virtual Result<void> mark_parsing(std::int64_t blog_id, std::string_view owner, TimePoint since) = 0;
  // Every blog that carries a mark.
  virtual Result<std::vector<ParsingMark>> parsing_marks() = 0;
  // Removes every mark of `owner` (the end of its pass; save_crawl removes a blog's mark with its result).
  virtual Result<void> clear_parsing_marks(std::string_view owner) = 0;
  // Records `crash` on its blog (crash count, quarantine, status and error, one more consecutive failure,
  // next due) and removes the mark, all only if the blog still carries exactly crash.mark; false when it
  // does not (another process recorded it first, or the blog was crawled again meanwhile).
  virtual Result<bool> record_crawler_crash(const CrawlerCrash& crash) = 0;

  // --- reading
  virtual Result<std::optional<ArticleView>> article(std::int64_t id) = 0;
  // Listings (articles, search, recent_junk) leave the big fields summary_html, content_html and text
  // empty to keep pages light; article(id) fills every field.
  virtual Result<std::vector<ArticleView>> articles(const ArticleQuery& query) = 0;
  virtual Result<std::int64_t> count_articles(const ArticleQuery& query) = 0;
  // One page of a listing: `query.limit` articles after `query.after` (keyset) or `query.offset`, whether
  // more follow, and the cursor of the next page. A cursor that is not one this listing made is kInvalidInput
  // ("store: bad listing cursor"); it never costs more than a valid one.
  virtual Result<ArticlePage> article_page(const ArticleQuery& query) = 0;
  // A page of the hot order with the per-blog cap (HotPageQuery). Reads the hot indexes' (score, blog_id)
  // entries down to the page, then the page's rows.
  virtual Result<HotPage> hot_page(const HotPageQuery& query) = 0;
  // Full-text search of visible articles (docs/storage.md, "Search"): the newest kSearchCandidates matches
  // are ranked by BM25 relevance halved for every kSearchHalfLifeDays of age; limit/offset page within them.
  // With `reader`, that reader's personal filters apply to the candidates before ranking (ReaderFilter).
  virtual Result<std::vector<SearchHit>> search(std::string_view query, int limit, int offset,
                                                const std::optional<ReaderFilter>& reader) = 0;
  Result<std::vector<SearchHit>> search(std::string_view query, int limit, int offset) {
    return search(query, limit, offset, std::nullopt);
  }
  virtual Result<std::vector<model::Category>> categories() = 0;  // with visible article counts
  // Every stored article, junk included (for the operator's status output).
  virtual Result<std::int64_t> article_count() = 0;
  // The site's totals at `now`, for the operator's metrics (/metrics). Cheap enough to read on every
  // scrape: counts come from indexes and the per-blog visible counts.
  virtual Result<SiteStats> site_stats(TimePoint now) = 0;
  // A number that changes whenever anything a page shows may have changed (any committed write, from this
  // process or another). The site caches rendered pages keyed by it, so it must be cheap (no table scan).
  virtual Result<std::int64_t> data_version() = 0;

  // --- curation
  // Sets (or clears with nullopt) the operator's keep/junk override of an article. Setting one is also
  // the operator's decision on readers' flags: it lifts a hold (as decide_flags), and later flags never
  // hold the article again.
  virtual Result<void> set_keep_override(std::int64_t article_id, std::optional<bool> keep) = 0;
  // Replaces the junk verdicts of stored articles in one transaction (`longread rejudge`, and `blogs edit
  // --short-form`). Visibility, the search index and the category counts follow; an operator's keep/junk
  // override still decides visibility; a duplicate keeps its "duplicate of" verdict (not touched). Returns
  // how many articles changed.
  virtual Result<std::int64_t> set_verdicts(std::span<const VerdictUpdate> updates) = 0;
  // Replaces the text, excerpt, counts and SimHash of each article that differs, in one transaction (the
  // search index follows); returns how many changed. Ids that are gone are skipped.
  virtual Result<std::int64_t> set_texts(std::span<const TextUpdate> updates) = 0;
  // Converts up to options.batch articles, after options.after_id, to the compressed body form (or to the
  // newest dictionary), in one transaction: a kill loses at most the batch, and a rerun finds what is
  // left. At the start of the walk, first trains a dictionary when there is none (or `retrain`).
  virtual Result<CompactBatch> compact_bodies(const CompactOptions& options) = 0;
  // Gives free pages back to the file system (VACUUM, then a WAL checkpoint); returns the file's size.
  virtual Result<std::int64_t> vacuum() = 0;
  // Near-duplicate detection: the SimHash of every stored article that is not itself a
  // duplicate, with what decides which copy is the original (earliest date, then lowest id).
  // Only the articles with an id above `after_id` (0: all): what other processes stored since a copy of
  // the index was read.
  virtual Result<std::vector<SimhashEntry>> simhash_index(std::int64_t after_id) = 0;
  // Marks each article_id a duplicate of its original_id: hidden as junk with reason "duplicate of article
  // N". All the marks in one transaction: all or none.
  virtual Result<void> mark_duplicates(std::span<const std::pair<std::int64_t, std::int64_t>> marks) = 0;
  virtual Result<std::vector<ArticleView>> recent_junk(int limit) = 0;
  // The junk review's near misses: visible articles the filter kept (no operator override) dated at or
  // after `since`, shortest first. The rules are first-match and give no margin; "too short" is the rule
  // most verdicts come from, so the shortest kept articles are the ones nearest to a junk verdict.
  virtual Result<std::vector<ArticleView>> near_misses(TimePoint since, int limit) = 0;
  // Removes a blog the operator no longer wants, with its articles (their votes, reading-list entries and
  // search entries go with them; copies elsewhere that pointed at them keep their junk verdict), in one
  // transaction. kNotFound for an unknown blog.
  virtual Result<void> delete_blog(std::int64_t blog_id) = 0;

  // --- readers.
  // A new account; kConflict when the email is taken (compared case-insensitively). `confirmed_at`
  // nullopt makes a pending account (see ReaderAccount).
  virtual Result<std::int64_t> create_reader(std::string_view email, std::string_view password_hash,
                                             TimePoint now, std::optional<TimePoint> confirmed_at) = 0;
  virtual Result<std::optional<ReaderAccount>> reader_by_email(std::string_view email) = 0;
  // Every account, oldest first (for the operator's `longread readers`).
  virtual Result<std::vector<ReaderAccount>> readers() = 0;
  // Replaces the password hash (a password reset, or a pending account signed up for again); with
  // `confirm_at`, also confirms a pending account. kNotFound for an unknown reader.
  virtual Result<void> set_reader_password(std::int64_t reader_id, std::string_view password_hash,
                                           std::optional<TimePoint> confirm_at) = 0;
  // Confirms a pending account (an already confirmed one keeps its time). kNotFound for an unknown reader.
  virtual Result<void> confirm_reader(std::int64_t reader_id, TimePoint now) = 0;
  // Deletes an account with everything that is its own (sessions, votes, reading list), in one
  // transaction: the articles it voted for lose those votes. kNotFound for an unknown reader.
  virtual Result<void> delete_reader(std::int64_t reader_id) = 0;
  // Ends every session of a reader (after a password reset); returns how many there were.
  virtual Result<int> delete_reader_sessions(std::int64_t reader_id) = 0;
  virtual Result<void> create_session(const SessionRecord& session) = 0;
  // The reader of an unexpired session, else nullopt.
  virtual Result<std::optional<SessionReader>> session_reader(std::string_view token_hash, TimePoint now) = 0;
  virtual Result<void> delete_session(std::string_view token_hash) = 0;
  virtual Result<int> delete_expired_sessions(TimePoint now) = 0;
  // Grants (or takes back) the operator role of the account with `email` (compared case-insensitively).
  // kNotFound for an unknown address.
  virtual Result<void> set_reader_operator(std::string_view email, bool is_operator) = 0;

  // Every followed blog with its health (BlogHealth), `since` bounding recent_articles; by title.
  virtual Result<std::vector<BlogHealth>> blog_health(TimePoint since) = 0;

  // --- the admin area's audit log: appended to, never changed.
  virtual Result<std::int64_t> add_audit_entry(const AuditEntry& entry) = 0;
  // At most `limit` entries older than id `before` (0: from the newest), newest first.
  virtual Result<AuditPage> audit_entries(int limit, std::int64_t before) = 0;

  // Votes: one per reader and article. kNotFound for an unknown or hidden (junk) article. The article's
  // votes and its hot score (migration 0005) change in the same transaction.
  virtual Result<VoteState> set_vote(std::int64_t reader_id, std::int64_t article_id, bool vote,
                                     TimePoint now) = 0;
  // Top by period counts each article's votes of the last 7 and 30 days in a column of its own (so the
  // listing is one index walk); this takes out of those counts the votes that have aged out of each
  // period by `now`, in batches of one transaction each, and returns how many counts it lowered (a vote
  // leaving both the week and the month lowers two). The site
  // calls it every minute; Top "this week" is exact as of the last call.
  virtual Result<std::int64_t> age_period_votes(TimePoint now) = 0;
  virtual Result<ReaderMarks> reader_marks(std::int64_t reader_id,
                                           const std::vector<std::int64_t>& article_ids) = 0;

  // Reading list. kNotFound for an unknown or hidden article.
  virtual Result<void> set_saved(std::int64_t reader_id, std::int64_t article_id, bool saved,
                                 TimePoint now) = 0;
  // kNotFound when the article is not on the reader's list.
  virtual Result<void> set_read(std::int64_t reader_id, std::int64_t article_id, bool read,
                                TimePoint now) = 0;
  // Newest saved first.
  virtual Result<std::vector<SavedArticle>> reading_list(std::int64_t reader_id, int limit, int offset) = 0;
  // Saved and not yet marked read.
  virtual Result<std::int64_t> reading_list_unread(std::int64_t reader_id) = 0;

  // --- a portable reading list: plain saved links and the private feed's token.
  // Imports `links` in one transaction. A link naming a visible article (by its exact link, or the same
  // with http/https swapped or a trailing slash added or dropped) joins the reading list as that article;
  // any other is kept as a SavedLink. What is already on the list stays as it is.
  virtual Result<ImportSummary> import_reading_list(std::int64_t reader_id,
                                                    const std::vector<ImportedLink>& links,
                                                    TimePoint now) = 0;
  // Newest saved first.
  virtual Result<std::vector<SavedLink>> saved_links(std::int64_t reader_id, int limit, int offset) = 0;
  // kNotFound when the link is not the reader's.
  virtual Result<void> set_saved_link_read(std::int64_t reader_id, std::int64_t link_id, bool read,
                                           TimePoint now) = 0;
  virtual Result<void> remove_saved_link(std::int64_t reader_id, std::int64_t link_id) = 0;
  // The secret token of the reader's reading-list feed (nullopt: none made yet).
  virtual Result<std::optional<std::string>> reading_list_feed_token(std::int64_t reader_id) = 0;
  // Replaces the token (a new one, or nullopt to turn the feed off): the old URL stops working at once.
  virtual Result<void> set_reading_list_feed_token(std::int64_t reader_id,
                                                   std::optional<std::string> token) = 0;
  virtual Result<std::optional<std::int64_t>> reader_by_reading_list_feed_token(std::string_view token) = 0;

  // --- feed apps (the Google Reader API): app passwords, their tokens, read state.
  // kConflict when the reader has kMaxAppPasswords already.
  virtual Result<std::int64_t> add_app_password(std::int64_t reader_id, std::string_view name,
                                                std::string_view password_hash, TimePoint now) = 0;
  // The reader's app passwords, newest first, with their hashes.
  virtual Result<std::vector<AppPassword>> app_passwords(std::int64_t reader_id) = 0;
  // Its tokens stop working with it. kNotFound when it is not the reader's.
  virtual Result<void> revoke_app_password(std::int64_t reader_id, std::int64_t app_password_id) = 0;
  // Stores a token (and notes the app password's use); tokens expired by `token.created_at` are dropped.
  virtual Result<void> add_api_token(const ApiTokenRecord& token) = 0;
  // The reader of a live token, else nullopt.
  virtual Result<std::optional<std::int64_t>> api_token_reader(std::string_view token_hash,
                                                               TimePoint now) = 0;
  // A page of a stream. An article is read when the reader marked it so, or when it is dated before a
  // horizon set by mark_stream_read (its blog's or every blog's) and was not kept unread since.
  virtual Result<StreamPage> reader_stream(std::int64_t reader_id, const StreamQuery& query) = 0;
  // The visible articles among `article_ids`, with the reader's marks, in the order asked.
  virtual Result<std::vector<StreamItem>> reader_items(std::int64_t reader_id,
                                                       const std::vector<std::int64_t>& article_ids) = 0;
  // Marks the visible articles among `article_ids` read or unread; returns how many there were.
  virtual Result<int> set_articles_read(std::int64_t reader_id, const std::vector<std::int64_t>& article_ids,
                                        bool read, TimePoint now) = 0;
  // Every article of a blog (nullopt: of every blog) dated before `before` becomes read, in one row.
  virtual Result<void> mark_stream_read(std::int64_t reader_id, std::optional<std::int64_t> blog_id,
                                        TimePoint before, TimePoint now) = 0;

  // Newsletter subscribers. add_subscriber is idempotent (an existing address keeps its state; a
  // previously unsubscribed one becomes pending again).
  virtual Result<Subscriber> add_subscriber(std::string_view email, TimePoint now) = 0;
  // false when there is no such (subscribed) address.
  virtual Result<bool> confirm_subscriber(std::string_view email, TimePoint now) = 0;
  virtual Result<bool> unsubscribe(std::string_view email, TimePoint now) = 0;
  virtual Result<std::vector<Subscriber>> confirmed_subscribers() = 0;
  virtual Result<void> record_subscriber_error(std::int64_t subscriber_id, std::string_view error,
                                               TimePoint now) = 0;
  // The issue with this key, created with `article_ids` when it does not exist yet.
  virtual Result<NewsletterIssue> newsletter_issue(std::string_view key,
                                                   const std::vector<std::int64_t>& article_ids,
                                                   TimePoint now) = 0;
  // Takes the right to send `issue_id` to `subscriber_id`: true (and state "sending" committed) when it
  // was never attempted or is waiting for a retry; false when it is sent, failed or was being sent.
  virtual Result<bool> claim_delivery(std::int64_t issue_id, std::int64_t subscriber_id, TimePoint now) = 0;
  virtual Result<void> finish_delivery(std::int64_t issue_id, std::int64_t subscriber_id, DeliveryState state,
                                       std::string_view error, TimePoint now) = 0;
  // Count of deliveries of an issue in `state`.
  virtual Result<std::int64_t> count_deliveries(std::int64_t issue_id, DeliveryState state) = 0;

  // A named secret (keys for CSRF tokens and signed links): `candidate` is stored when the name has none
  // yet; the stored value is returned, so every process sharing the database uses the same key.
  virtual Result<std::string> secret(std::string_view name, std::string_view candidate) = 0;

  // --- account-mail outbox (migration 0013). A row is due when next_attempt_at <= now < not_after.
  // Queues a mail (one INSERT; id, attempts and last_error of `mail` are ignored) and returns its id.
  virtual Result<std::int64_t> enqueue_mail(const OutboxMail& mail) = 0;
  // Takes up to `limit` due mails, oldest due first, in one transaction: each one's attempts is counted
  // and its next_attempt_at moved to `lease_until`, so no other sender takes it meanwhile, and a sender
  // that dies mid-send hands it back when the lease runs out. Returned as they are after the claim.
  virtual Result<std::vector<OutboxMail>> claim_due_mails(TimePoint now, TimePoint lease_until,
                                                          int limit) = 0;
  // Deletes a mail: sent (the SMTP server accepted it), or refused for good. false when it was gone.
  virtual Result<bool> delete_mail(std::int64_t id) = 0;
  // After a temporary failure: records `error` and when to try again.
  virtual Result<void> mark_mail_failed(std::int64_t id, std::string_view error,
                                        TimePoint next_attempt_at) = 0;
  // Deletes every mail whose link has expired (not_after <= now) and returns them (for the log).
  virtual Result<std::vector<OutboxMail>> drop_expired_mails(TimePoint now) = 0;
  // Every queued mail, by id (for tests and the operator).
  virtual Result<std::vector<OutboxMail>> outbox_mails() = 0;
  // The earliest next_attempt_at of any queued mail, nullopt when the outbox is empty.
  virtual Result<std::optional<TimePoint>> next_mail_due() = 0;
  // Whether a mail of `kind` ("confirm", "registered", "reset", "newsletter") may go to `recipient` (as the
  // caller normalises it: lower case) at `now`: true, and `now` recorded in one statement, when none was
  // recorded within `gap` before; false otherwise, recording nothing (migration 0016 mail_throttle). Rows
  // older than `gap` are deleted on the way, so the table holds at most the last `gap`'s recipients.
  virtual Result<bool> claim_mail_slot(std::string_view recipient, std::string_view kind, TimePoint now,
                                       std::chrono::seconds gap) = 0;
  // The operator's `mail retry`: makes the queued mail `id` (nullopt: every queued mail) due at `now`,
  // moving no mail's next attempt later. Returns how many mails it matched (0: no mail `id` is queued).
  virtual Result<int> retry_mails(std::optional<std::int64_t> id, TimePoint now) = 0;

  // --- blog suggestions (migration 0022), in one block so the other roles' methods stay apart.
  // Stores a pending suggestion and returns it; kRateLimited when the reader is at NewSuggestion::per_day
  // (counted and inserted in one transaction, so two requests at once cannot both pass).
  virtual Result<Suggestion> add_suggestion(const NewSuggestion& suggestion) = 0;
  // Takes up to `limit` pending suggestions whose lease has run out (or that were never claimed), oldest
  // first, in one transaction: each one's attempts is counted and its lease moved to `lease_until`, so no
  // other worker takes it meanwhile and one whose process died mid-discovery is taken again afterwards. A
  // pending suggestion already claimed `max_attempts` times ends as failed ("discovery did not finish
  // after N attempts") instead: a URL that kills the process cannot loop forever.
  virtual Result<std::vector<Suggestion>> claim_suggestions(TimePoint now, TimePoint lease_until, int limit,
                                                            int max_attempts) = 0;
  // Hands a claimed suggestion back at once (a discovery cut short because the process is stopping): its
  // lease is cleared and the claim not counted as an attempt, so the next run takes it up immediately.
  // Nothing happens to a suggestion that is no longer pending.
  virtual Result<void> release_suggestion(std::int64_t id) = 0;
  // Saves what discovery found for a pending suggestion. kNotFound for an unknown id; kConflict when it is
  // no longer pending (an operator rejected it meanwhile).
  virtual Result<void> save_suggestion_finding(std::int64_t id, const SuggestionFinding& finding) = 0;
  // Records an operator's decision and returns the suggestion as it is afterwards. Approving needs status
  // found; rejecting any status but approved and rejected. kNotFound, or kConflict when not allowed now.
  virtual Result<Suggestion> decide_suggestion(std::int64_t id, const SuggestionDecision& decision) = 0;
  virtual Result<std::optional<Suggestion>> suggestion(std::int64_t id) = 0;
  // A reader's suggestions, newest first.
  virtual Result<std::vector<Suggestion>> reader_suggestions(std::int64_t reader_id, int limit) = 0;
  // Every suggestion for the admin area: open ones (pending, found, failed, refused) first, then the
  // rest; newest first within each.
  virtual Result<std::vector<Suggestion>> suggestions(int limit) = 0;
  // A pending suggestion waiting for discovery (for the worker's wake-up), nullopt when none.
  virtual Result<std::optional<TimePoint>> next_suggestion_due() = 0;

  // --- readers' flags (migration 0023). A reader flags a visible (or held) article once; kNotFound for
  // an unknown or hidden one. At rules.flags_to_hide distinct flags an article no operator decided on is
  // held: hidden from every listing, search, feed and count (articles.visible = 0) until an operator
  // decides. The flag, the daily limit's check and the hold are one transaction.
  virtual Result<FlagResult> flag_article(std::int64_t reader_id, std::int64_t article_id, FlagReason reason,
                                          TimePoint now, const FlagRules& rules) = 0;
  // Withdraws the reader's flag (false: there was none). A held article whose flags fall below the count
  // that held it is shown again; so it is when a flagging reader's account is deleted.
  virtual Result<bool> withdraw_flag(std::int64_t reader_id, std::int64_t article_id) = 0;
  // The article's flags, with `reader_id`'s own (nullopt: a visitor). kNotFound for an unknown article.
  virtual Result<FlagState> flag_state(std::int64_t article_id, std::optional<std::int64_t> reader_id) = 0;
  // Flagged articles, the most recently flagged first, at most `limit`.
  virtual Result<std::vector<FlaggedArticle>> flagged_articles(int limit) = 0;
  // An operator's decision (FlagDecision), in one transaction. kNotFound for an unknown article.
  virtual Result<void> decide_flags(std::int64_t article_id, FlagDecision decision) = 0;

  // --- personal filters (migration 0028): mutes and reading preferences, per reader. Listings apply them
  // through ArticleQuery::reader / HotPageQuery::reader and search's `reader`.
  // Mutes (true) or un-mutes a blog for a reader; returns whether anything changed. kNotFound for an
  // unknown blog (nothing is stored).
  virtual Result<bool> set_blog_muted(std::int64_t reader_id, std::int64_t blog_id, bool muted,
                                      TimePoint now) = 0;
  // The same for a category, by slug. kNotFound for an unknown category.
  virtual Result<bool> set_category_muted(std::int64_t reader_id, std::string_view category, bool muted,
                                          TimePoint now) = 0;
  // What the reader muted, most recent first.
  virtual Result<ReaderMutes> reader_mutes(std::int64_t reader_id) = 0;
  virtual Result<ReaderPreferences> reader_preferences(std::int64_t reader_id) = 0;
  // Replaces the reader's preferences in one transaction. kNotFound when a newsletter category is unknown
  // (nothing is stored).
  virtual Result<void> set_reader_preferences(std::int64_t reader_id,
                                              const ReaderPreferences& preferences) = 0;

  // --- blog lifecycle (migration 0026, storage/lifecycle.h judges by it).
  // Every followed blog's lifecycle, by id.
  virtual Result<std::vector<BlogLifecycle>> blog_lifecycle() = 0;
  // Retires a blog: paused (no crawl polls it), with when and why; its articles stay on the site. false
  // when it already was retired; kNotFound for an unknown blog.
  virtual Result<bool> retire_blog(std::int64_t blog_id, std::string_view reason, TimePoint now) = 0;
  // Polls a retired blog again from the next crawl (due at once). false when it was not retired.
  virtual Result<bool> unretire_blog(std::int64_t blog_id) = 0;
  // The operator accepted a move: the mark goes, the blog stays at its new feed URL. false when none.
  virtual Result<bool> clear_blog_move(std::int64_t blog_id) = 0;

  // --- similar articles (migration 0027, docs/similar.md).
  // Counts one article's term buckets (each distinct bucket once) and the article as a document, in one
  // transaction, and returns the frequencies after counting. `count` false: only reads them.
  virtual Result<SimilarTermStats> count_similar_terms(std::span<const std::uint32_t> buckets,
                                                       bool count) = 0;
  // The postings of each term, heaviest first, at most `per_term` of each.
  virtual Result<std::vector<SimilarPostingRow>> similar_postings(std::span<const std::uint64_t> terms,
                                                                  int per_term) = 0;
  // The articles among `ids` that still exist, with their blog, SimHash and visibility.
  virtual Result<std::vector<SimilarCandidateRow>> similar_candidates(std::span<const std::int64_t> ids) = 0;
  // Writes one article's postings, picks and offers (SimilarWrite) in one transaction.
  virtual Result<void> save_similar(const SimilarWrite& write) = 0;
  // The article's stored picks that are visible now and of another blog, best first, at most `limit`.
  virtual Result<std::vector<SimilarArticle>> similar_articles(std::int64_t article_id, int limit) = 0;
  // Empties the index and every list (`longread similar rebuild` starts from nothing).
  virtual Result<void> clear_similar() = 0;
  // Visible articles after `after_id` by id, at most `limit`, with their text (for the rebuild).
  virtual Result<std::vector<ArticleView>> articles_for_similar(std::int64_t after_id, int limit) = 0;
  // A reader's "for you" picks (see ForYouQuery): visible articles only, never one the reader muted (blog
  // or category), read, saved or voted for.
  virtual Result<ForYou> for_you(const ForYouQuery& query) = 0;

  // --- process locks (migration 0031): named locks every process over the database sees.
  // Takes the lock `name` for `owner` until `until` when it is free, its holder's lease ran out by `now`,
  // or `owner` already holds it (the lease is then extended); true when `owner` holds it afterwards.
  virtual Result<bool> try_lock(std::string_view name, std::string_view owner, TimePoint now,
                                TimePoint until) = 0;
  // Gives the lock back when `owner` holds it.
  virtual Result<void> unlock(std::string_view name, std::string_view owner) = 0;

  // --- rate limits (migration 0029): attempts counted in the database, so every web process of a site
  // enforces one limit (accounts/rate_limiter.h names the keys).
  // The times of `key`'s attempts after `since`, newest first, at most `limit`.
  virtual Result<std::vector<TimePoint>> recent_attempts(std::string_view key, TimePoint since,
                                                         int limit) = 0;
  // Counts one attempt of `key` at `at` (leaving its window at `expires_at`), in one transaction that also
  // keeps the table bounded: the key keeps only its newest `keep_per_key` attempts, up to 64 rows that
  // have expired by `at` go, and past `max_rows` rows in all the oldest recorded go first.
  virtual Result<void> record_attempt(std::string_view key, TimePoint at, TimePoint expires_at,
                                      int keep_per_key, std::int64_t max_rows) = 0;
  // Forgets `key`'s attempts (after a successful log-in).
  virtual Result<void> clear_attempts(std::string_view key) = 0;
  // Forgets the attempts of every key that starts with `prefix` (an account's, from every client).
  virtual Result<void> clear_attempts_with_prefix(std::string_view prefix) = 0;
};

// Opens (creating if needed) the SQLite database at `path`, applies pending migrations, enables WAL.
Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path);

}  // namespace longread::storage
