#include "pipeline/similar.h"

#include <algorithm>
#include <unordered_map>

#include "curate/similar.h"
#include "storage/store.h"

namespace longread::pipeline {

SimilarIndexer::SimilarIndexer(storage::SimilarStore& store, SimilarOptions options)
    : store_(store), options_(options) {}

Result<int> SimilarIndexer::add(const SimilarSource& article, bool count_terms) {
  auto picks = add_all(std::span(&article, 1), count_terms);
  if (!picks) return std::unexpected(picks.error());
  return picks->front();
}

Result<std::vector<int>> SimilarIndexer::add_all(std::span<const SimilarSource> articles, bool count_terms) {
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
  // One transaction counts the whole batch; each article then gets the frequencies it would have had
  // counted alone after the ones before it: those from before the batch plus the batch's so far.
  auto before = store_.count_similar_terms(all_buckets, count_terms ? counted : 0);
  if (!before) return std::unexpected(before.error());
  std::unordered_map<std::uint32_t, std::int64_t> df;
  for (std::size_t i = 0; i < all_buckets.size(); ++i) df.try_emplace(all_buckets[i], before->df[i]);
  std::int64_t documents = before->documents;

  // The batch's own postings, as stored ones: a later article of the batch finds an earlier one.
  std::unordered_map<std::uint64_t, std::vector<curate::Posting>> batch_postings;
  std::vector<storage::SimilarWrite> writes;
  for (std::size_t a = 0; a < articles.size(); ++a) {
    if (terms[a].empty()) continue;
    const SimilarSource& article = articles[a];
    if (count_terms) {
      ++documents;
      for (const auto bucket : buckets[a]) ++df[bucket];
    }
    std::vector<std::int64_t> term_df;
    term_df.reserve(terms[a].size());
    for (const auto& t : terms[a]) term_df.push_back(df[curate::df_bucket(t.hash)]);
    // At crawl time a term new to the site may start a subject (kept); the rebuild counted every article
    // first, so there a term in one article is noise (dropped).
    const auto signature = curate::signature(terms[a], term_df, documents,
                                             count_terms ? curate::NewTerms::kKeep : curate::NewTerms::kDrop);
    if (signature.terms.empty()) continue;

    std::vector<std::uint64_t> hashes;
    hashes.reserve(signature.terms.size());
    for (const auto& t : signature.terms) hashes.push_back(t.hash);
    auto postings = store_.similar_postings(hashes, options_.postings_per_term);
    if (!postings) return std::unexpected(postings.error());
    std::vector<curate::Posting> found;
    found.reserve(postings->size());
    for (const auto& p : *postings)
      found.push_back({.article_id = p.article_id, .term = p.term, .weight = p.weight});
    for (const auto hash : hashes) {
      if (const auto it = batch_postings.find(hash); it != batch_postings.end())
        found.insert(found.end(), it->second.begin(), it->second.end());
    }
    auto scored = curate::score_candidates(signature, found, article.id);
    if (scored.size() > static_cast<std::size_t>(options_.candidates))
      scored.resize(static_cast<std::size_t>(options_.candidates));

    std::vector<std::int64_t> ids;
    ids.reserve(scored.size());
    for (const auto& c : scored) ids.push_back(c.article_id);
    auto rows = store_.similar_candidates(ids);
    if (!rows) return std::unexpected(rows.error());
    std::vector<curate::CandidateInfo> infos;
    infos.reserve(rows->size());
    for (const auto& r : *rows)
      infos.push_back({.id = r.id, .blog_id = r.blog_id, .simhash = r.simhash, .visible = r.visible});
    const auto picks = curate::pick_similar(
        signature, {.id = article.id, .blog_id = article.blog_id, .simhash = article.simhash}, scored, infos,
        std::max(options_.picks_kept, options_.offers));

    storage::SimilarWrite write{.article_id = article.id,
                                .postings = {},
                                .postings_per_term = options_.postings_per_term,
                                .picks = {},
                                .offers = {},
                                .picks_per_article = options_.picks_kept};
    for (const auto& t : signature.terms) {
      write.postings.emplace_back(t.hash, t.weight);
      batch_postings[t.hash].push_back({.article_id = article.id, .term = t.hash, .weight = t.weight});
    }
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
  if (auto saved = store_.save_similar_all(writes); !saved) return std::unexpected(saved.error());
  return out;
}

Result<void> SimilarIndexer::defer(std::span<const std::int64_t> ids) {
  return store_.queue_similar(ids);
}

Result<SimilarRebuild> SimilarIndexer::rebuild(const std::function<void(int, std::int64_t)>& progress) {
  constexpr int kBatch = 500;
  if (auto cleared = store_.clear_similar(); !cleared) return std::unexpected(cleared.error());
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
      if (auto counted = store_.count_similar_terms(buckets, 1); !counted)
        return std::unexpected(counted.error());
    }
    done += static_cast<std::int64_t>(batch->size());
    after = batch->back().article.id;
    if (progress) progress(1, done);
  }
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
