#include "pipeline/similar.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <unordered_map>

#include "curate/similar.h"
#include "storage/store.h"

namespace longread::pipeline {
namespace {

// The most articles one batch's reads and transaction take (the catch-up's batch).
constexpr std::size_t kMaxBatch = 200;
// The most distinct buckets held unwritten (about 40 bytes each in the map): a rebuild's or catch-up's
// thousand articles of a large vocabulary write their counts sooner.
constexpr std::size_t kMaxPendingBuckets = 1U << 18;

}  // namespace

SimilarIndexer::SimilarIndexer(storage::SimilarStore& store, SimilarOptions options)
    : store_(store), options_(options) {}

Result<int> SimilarIndexer::add(const SimilarSource& article, bool count_terms) {
  auto picks = add_all(std::span(&article, 1), count_terms);
  if (!picks) return std::unexpected(picks.error());
  return picks->front();
}

Result<std::vector<int>> SimilarIndexer::add_all(std::span<const SimilarSource> articles, bool count_terms) {
  // A batch holds every posting of its terms while it works, so a longer one (a crawl's group of thousands
  // of new articles) is indexed kMaxBatch at a time: each part finds the parts before it as stored postings.
  if (articles.size() > kMaxBatch) {
    std::vector<int> out;
    out.reserve(articles.size());
    for (std::size_t start = 0; start < articles.size(); start += kMaxBatch) {
      auto part = add_all(articles.subspan(start, std::min(kMaxBatch, articles.size() - start)), count_terms);
      if (!part) return std::unexpected(part.error());
      out.insert(out.end(), part->begin(), part->end());
    }
    return out;
  }
  // Each article's terms and distinct buckets (terms come ordered by hash, so a bucket's terms are adjacent).
  std::vector<std::vector<curate::TermCount>> terms(articles.size());
  std::vector<std::vector<std::uint32_t>> buckets(articles.size());
  std::vector<std::uint32_t> all_buckets;
  int counted = 0;
  for (std::size_t a = 0; a < articles.size(); ++a) {
    terms[a] = curate::article_terms(articles[a].title, articles[a].text);
    if (terms[a].empty()) continue;
    for (const auto& t : terms[a]) {
      const auto bucket = curate::df_bucket(t.hash);
      if (buckets[a].empty() || buckets[a].back() != bucket) buckets[a].push_back(bucket);
    }
    all_buckets.insert(all_buckets.end(), buckets[a].begin(), buckets[a].end());
    ++counted;
  }
  std::vector<int> out(articles.size(), 0);
  if (counted == 0) return out;
  if (auto written = flush_when_full(); !written) return std::unexpected(written.error());
  // Each article gets the frequencies it would have had counted alone after the ones before it: the stored
  // ones, plus this process's counts not yet written, plus the batch's so far.
  auto before = store_.similar_term_frequencies(all_buckets);
  if (!before) return std::unexpected(before.error());
  std::unordered_map<std::uint32_t, std::int64_t> df;
  for (std::size_t i = 0; i < all_buckets.size(); ++i) {
    const auto bucket = all_buckets[i];
    const auto mine = pending_.find(bucket);
    df.try_emplace(bucket, before->df[i] + (mine == pending_.end() ? 0 : mine->second));
  }
  std::int64_t documents = before->documents + pending_documents_;

  // Each article's signature, in batch order (they need only the frequencies above).
  std::vector<curate::Signature> signatures(articles.size());
  std::vector<std::uint64_t> all_hashes;
  for (std::size_t a = 0; a < articles.size(); ++a) {
    if (terms[a].empty()) continue;
    if (count_terms) {
      ++documents;
      for (const auto bucket : buckets[a]) ++df[bucket];
      count(buckets[a]);
    }
    std::vector<std::int64_t> term_df;
    term_df.reserve(terms[a].size());
    for (const auto& t : terms[a]) term_df.push_back(df[curate::df_bucket(t.hash)]);
    // At crawl time a term new to the site may start a subject (kept); the rebuild counted every article
    // first, so there a term in one article is noise (dropped).
    signatures[a] = curate::signature(terms[a], term_df, documents,
                                      count_terms ? curate::NewTerms::kKeep : curate::NewTerms::kDrop);
    for (const auto& t : signatures[a].terms) all_hashes.push_back(t.hash);
  }

  // The stored postings of every term of the batch in one read: nothing is written before the batch's
  // save, so each article finds what it would have found reading its own terms alone. The store reads them
  // and saves what is decided from them in one step, so that where several processes index at once the
  // decisions are made on the postings the writes land on.
  std::sort(all_hashes.begin(), all_hashes.end());
  all_hashes.erase(std::unique(all_hashes.begin(), all_hashes.end()), all_hashes.end());
  auto decide = [&](const std::vector<storage::SimilarPostingRow>& stored)
      -> Result<std::vector<storage::SimilarWrite>> {
    return decide_batch(articles, signatures, stored, out);
  };
  if (auto saved = store_.index_similar(all_hashes, options_.postings_per_term, decide); !saved)
    return std::unexpected(saved.error());
  return out;
}

Result<std::vector<storage::SimilarWrite>> SimilarIndexer::decide_batch(
    std::span<const SimilarSource> articles, const std::vector<curate::Signature>& signatures,
    const std::vector<storage::SimilarPostingRow>& stored, std::vector<int>& out) {
  std::unordered_map<std::uint64_t, std::vector<curate::Posting>> stored_postings;
  for (const auto& p : stored)
    stored_postings[p.term].push_back({.article_id = p.article_id, .term = p.term, .weight = p.weight});

  // Each article's candidates: its terms' stored postings, heaviest first, then the batch's own postings
  // so far, as stored ones (a later article of the batch finds an earlier one).
  std::unordered_map<std::uint64_t, std::vector<curate::Posting>> batch_postings;
  std::vector<std::vector<curate::ScoredCandidate>> scored(articles.size());
  std::vector<std::int64_t> candidate_ids;
  for (std::size_t a = 0; a < articles.size(); ++a) {
    const curate::Signature& signature = signatures[a];
    if (signature.terms.empty()) continue;
    std::vector<curate::Posting> found;
    for (const auto& t : signature.terms) {
      if (const auto it = stored_postings.find(t.hash); it != stored_postings.end())
        found.insert(found.end(), it->second.begin(), it->second.end());
    }
    for (const auto& t : signature.terms) {
      if (const auto it = batch_postings.find(t.hash); it != batch_postings.end())
        found.insert(found.end(), it->second.begin(), it->second.end());
    }
    scored[a] = curate::score_candidates(signature, found, articles[a].id);
    if (scored[a].size() > static_cast<std::size_t>(options_.candidates))
      scored[a].resize(static_cast<std::size_t>(options_.candidates));
    for (const auto& c : scored[a]) candidate_ids.push_back(c.article_id);
    for (const auto& t : signature.terms)
      batch_postings[t.hash].push_back({.article_id = articles[a].id, .term = t.hash, .weight = t.weight});
  }

  // Every candidate of the batch in one read.
  std::sort(candidate_ids.begin(), candidate_ids.end());
  candidate_ids.erase(std::unique(candidate_ids.begin(), candidate_ids.end()), candidate_ids.end());
  auto rows = store_.similar_candidates(candidate_ids);
  if (!rows) return std::unexpected(rows.error());
  std::unordered_map<std::int64_t, curate::CandidateInfo> candidates;
  for (const auto& r : *rows)
    candidates.emplace(
        r.id,
        curate::CandidateInfo{.id = r.id, .blog_id = r.blog_id, .simhash = r.simhash, .visible = r.visible});

  std::vector<storage::SimilarWrite> writes;
  for (std::size_t a = 0; a < articles.size(); ++a) {
    const curate::Signature& signature = signatures[a];
    if (signature.terms.empty()) continue;
    const SimilarSource& article = articles[a];
    std::vector<curate::CandidateInfo> infos;
    infos.reserve(scored[a].size());
    for (const auto& c : scored[a]) {
      if (const auto it = candidates.find(c.article_id); it != candidates.end()) infos.push_back(it->second);
    }
    const auto picks = curate::pick_similar(
        signature, {.id = article.id, .blog_id = article.blog_id, .simhash = article.simhash}, scored[a],
        infos, std::max(options_.picks_kept, options_.offers));

    storage::SimilarWrite write{.article_id = article.id,
                                .postings = {},
                                .postings_per_term = options_.postings_per_term,
                                .picks = {},
                                .offers = {},
                                .picks_per_article = options_.picks_kept};
    for (const auto& t : signature.terms) write.postings.emplace_back(t.hash, t.weight);
    for (std::size_t i = 0; i < picks.size(); ++i) {
      const auto reason = curate::join_reason(picks[i].shared);
      if (i < static_cast<std::size_t>(options_.picks_kept))
        write.picks.push_back({article.id, picks[i].article_id, picks[i].score, reason});
      if (i < static_cast<std::size_t>(options_.offers))
        write.offers.push_back({picks[i].article_id, article.id, picks[i].score, reason});
    }
    out[a] = static_cast<int>(write.picks.size());
    writes.push_back(std::move(write));
  }
  return writes;
}

void SimilarIndexer::count(std::span<const std::uint32_t> buckets) {
  for (const auto bucket : buckets) ++pending_[bucket];
  ++pending_documents_;
}

Result<void> SimilarIndexer::flush_when_full() {
  if (pending_documents_ < options_.counts_written_every && pending_.size() < kMaxPendingBuckets) return {};
  return flush();
}

Result<void> SimilarIndexer::flush() {
  if (pending_documents_ == 0 && pending_.empty()) return {};
  std::vector<storage::SimilarTermCount> counts;
  counts.reserve(pending_.size());
  for (const auto& [bucket, n] : pending_) counts.push_back({.bucket = bucket, .articles = n});
  std::sort(counts.begin(), counts.end(), [](const auto& x, const auto& y) { return x.bucket < y.bucket; });
  if (auto added = store_.add_similar_terms(counts, pending_documents_); !added)
    return std::unexpected(added.error());
  pending_.clear();
  pending_documents_ = 0;
  return {};
}

SimilarIndexer::~SimilarIndexer() {
  if (auto written = flush(); !written)
    spdlog::warn("similar: the term counts of {} articles were not written: {}", pending_documents_,
                 written.error().message);
}

Result<void> SimilarIndexer::defer(std::span<const std::int64_t> ids) {
  return store_.queue_similar(ids);
}

Result<SimilarRebuild> SimilarIndexer::rebuild(const std::function<void(int, std::int64_t)>& progress) {
  constexpr int kBatch = 500;
  if (auto cleared = store_.clear_similar(); !cleared) return std::unexpected(cleared.error());
  // Counts not yet written were of articles the rebuild counts again.
  pending_.clear();
  pending_documents_ = 0;
  SimilarRebuild out;
  // Pass 1: document frequencies over every article, so the first articles' signatures weigh their terms
  // against the whole site, not against the few articles before them.
  std::int64_t after = 0;
  std::int64_t done = 0;
  for (;;) {
    auto batch = store_.articles_for_similar(after, kBatch);
    if (!batch) return std::unexpected(batch.error());
    if (batch->empty()) break;
    for (const auto& view : *batch) {
      const auto terms = curate::article_terms(view.article.title, view.article.text);
      if (terms.empty()) continue;
      std::vector<std::uint32_t> buckets;
      buckets.reserve(terms.size());
      for (const auto& t : terms) {
        const auto bucket = curate::df_bucket(t.hash);
        if (buckets.empty() || buckets.back() != bucket) buckets.push_back(bucket);  // adjacent: by hash
      }
      count(buckets);
      if (auto written = flush_when_full(); !written) return std::unexpected(written.error());
    }
    done += static_cast<std::int64_t>(batch->size());
    after = batch->back().article.id;
    if (progress) progress(1, done);
  }
  if (auto written = flush(); !written) return std::unexpected(written.error());
  // Pass 2: picks, oldest first.
  after = 0;
  done = 0;
  for (;;) {
    auto batch = store_.articles_for_similar(after, kBatch);
    if (!batch) return std::unexpected(batch.error());
    if (batch->empty()) break;
    for (const auto& view : *batch) {
      const auto& a = view.article;
      auto picks = add(
          {.id = a.id, .blog_id = a.blog_id, .simhash = a.simhash, .title = a.title, .text = a.text}, false);
      if (!picks) return std::unexpected(picks.error());
      ++out.articles;
      out.picks += *picks;
    }
    done += static_cast<std::int64_t>(batch->size());
    after = batch->back().article.id;
    if (progress) progress(2, done);
  }
  return out;
}

}  // namespace longread::pipeline
