// The articles role of the Store: crawl results, articles, listings and search, curation (verdicts,
// near-duplicates, the junk review) and the compressed bodies (docs/storage.md, "Roles").
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "model/model.h"
#include "storage/types.h"

namespace longread::storage {

// What a crawl's near-duplicate decision reads and writes (pipeline/duplicates.h): inside the transaction
// that saved the group it decides on, after the group's records are written, and under a lock that every
// process over the database takes for the decision, so each decision sees every group saved before it and
// two copies crawled by two processes at once are never both originals. Only the decision is serialised:
// the groups' inserts, most of a save's work, run at the same time.
class DuplicateDecision {
 public:
  virtual ~DuplicateDecision() = default;

  // A blog's stored articles as the transaction sees them (its own new articles included), as article_keys.
  virtual Result<std::vector<StoredArticleKey>> article_keys(std::int64_t blog_id) = 0;
  // The originals logged after place `after_seq` (0: from the start), in log order, without those marked
  // duplicates since. The log keeps its newest kNearDuplicateLogKept places; `complete` is false when places
  // after `after_seq` were dropped, and the reader must then read the whole index again (simhash_index).
  virtual Result<LoggedOriginals> originals_since(std::int64_t after_seq) = 0;
  // Appends the group's new originals to the log, at consecutive places; returns the first one's place (the
  // log's newest place when `ids` is empty).
  virtual Result<std::int64_t> log_originals(std::span<const std::int64_t> ids) = 0;
  // As ArticleStore::mark_duplicates, in this transaction.
  virtual Result<void> mark_duplicates(std::span<const std::pair<std::int64_t, std::int64_t>> marks) = 0;
};

// Called by save_crawls with the group's per-record results (a failed record was rolled back and stored
// nothing). An error undoes the whole group: nothing of it is saved, and save_crawls returns the error.
using DecideDuplicates =
    std::function<Result<void>(DuplicateDecision& decision, std::span<const Result<SaveStats>> results)>;

// How many places the near-duplicate log keeps: a process that saved nothing while more originals were
// logged reads the whole index again (a few seconds at a million articles).
inline constexpr std::int64_t kNearDuplicateLogKept = 200000;

// Articles: saved from crawls, read by pages, listings and search, judged again by curation.
// Every method is safe to call from several threads; implementations serialise as needed.
class ArticleStore {
 public:
  virtual ~ArticleStore() = default;

  // --- crawl results: what a crawl stores, and what it needs to know of what is stored
  virtual Result<std::vector<StoredArticleKey>> article_keys(std::int64_t blog_id) = 0;
  virtual Result<SaveStats> save_crawl(const CrawlRecord& record) = 0;
  // Several crawl results in one transaction (group commit), each inside its own savepoint: a record that
  // cannot be saved is rolled back alone and reported in its slot, the others commit together. One commit
  // and one search-index flush for the group instead of one per blog. The outer error means nothing of the
  // group was saved (the transaction could not begin or commit).
  // With `decide`, it is called last in the transaction, under the near-duplicate lock (DuplicateDecision).
  virtual Result<std::vector<Result<SaveStats>>> save_crawls(std::span<const CrawlRecord> records,
                                                             const DecideDuplicates& decide) = 0;
  Result<std::vector<Result<SaveStats>>> save_crawls(std::span<const CrawlRecord> records) {
    return save_crawls(records, {});
  }
  // The part of saving a record that needs no transaction, done beforehand on the caller's thread (a crawl's
  // parsing threads), so that the one thread that saves does less: SQLite compresses each article's body
  // into CrawlRecord::prepared_bodies; PostgreSQL's server compresses as it writes the row (TOAST), so there
  // it leaves the record as it is. save_crawls takes a record either way; a failure leaves it unprepared.
  virtual Result<void> prepare_crawl(CrawlRecord& record) = 0;
  // How many of a blog's articles, junk included, are dated (published, else first seen) at or after `since`:
  // how often it posts lately, for crawl.scheduler = entry_frequency. Undated articles first seen in the
  // blog's first crawl (its back catalogue) do not count. Runs once per blog per crawl, so it must be cheap
  // (SQLite: one range of an index, docs/fetch.md).
  virtual Result<std::int64_t> count_recent_articles(std::int64_t blog_id, TimePoint since) = 0;

  // --- reading: one article, listings, search, categories
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

  // --- curation: junk verdicts and the operator's overrides, near-duplicates, the junk review, bodies
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
  // Trains the database's first body dictionary once it holds kMinBodyDictionarySamples articles or more,
  // so that bodies stored from then on are compressed with it without waiting for an operator's `db
  // compact` (which also packs the older ones again). Returns the id trained by this call; nullopt when a
  // dictionary exists already (one indexed row read) or the articles are still too few. Safe from several
  // processes at once: one trains, the others find its dictionary.
  virtual Result<std::optional<std::uint32_t>> train_first_body_dictionary() = 0;
  // Near-duplicate detection: the SimHash of every stored article that is not itself a
  // duplicate, with what decides which copy is the original (earliest date, then lowest id). What other
  // processes store later is read from the near-duplicate log (DuplicateDecision), not by id: ids are drawn
  // before their saves commit, in no order of commits.
  virtual Result<std::vector<SimhashEntry>> simhash_index() = 0;
  // The near-duplicate log's newest place (0 when empty; DuplicateDecision): read before simhash_index(),
  // it is where that copy of the index catches up from.
  virtual Result<std::int64_t> near_duplicate_log_head() = 0;
  // Marks each article_id a duplicate of its original_id: hidden as junk with reason "duplicate of article
  // N". All the marks in one transaction: all or none. A mark whose original is no longer stored is skipped.
  virtual Result<void> mark_duplicates(std::span<const std::pair<std::int64_t, std::int64_t>> marks) = 0;
  virtual Result<std::vector<ArticleView>> recent_junk(int limit) = 0;
  // The junk review's near misses: visible articles the filter kept (no operator override) dated at or
  // after `since`, shortest first. The rules are first-match and give no margin; "too short" is the rule
  // most verdicts come from, so the shortest kept articles are the ones nearest to a junk verdict.
  virtual Result<std::vector<ArticleView>> near_misses(TimePoint since, int limit) = 0;
};

}  // namespace longread::storage
