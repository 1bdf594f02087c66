#include "pipeline/similar.h"

#include <algorithm>

#include "curate/similar.h"
#include "storage/store.h"

namespace longread::pipeline {

SimilarIndexer::SimilarIndexer(storage::SimilarStore& store, SimilarOptions options)
    : store_(store), options_(options) {}

Result<int> SimilarIndexer::add(const SimilarSource& article, bool count_terms) {
  const auto terms = curate::article_terms(article.title, article.text);
  if (terms.empty()) return 0;
  std::vector<std::uint32_t> buckets;
  buckets.reserve(terms.size());
  for (const auto& t : terms) buckets.push_back(curate::df_bucket(t.hash));
  auto stats = store_.count_similar_terms(buckets, count_terms);
  if (!stats) return std::unexpected(stats.error());
  // At crawl time a term new to the site may start a subject (kept); the rebuild counted every article
  // first, so there a term in one article is noise (dropped).
  const auto signature = curate::signature(terms, stats->df, stats->documents,
                                           count_terms ? curate::NewTerms::kKeep : curate::NewTerms::kDrop);
  if (signature.terms.empty()) return 0;

  std::vector<std::uint64_t> hashes;
  hashes.reserve(signature.terms.size());
  for (const auto& t : signature.terms) hashes.push_back(t.hash);
  auto postings = store_.similar_postings(hashes, options_.postings_per_term);
  if (!postings) return std::unexpected(postings.error());
  std::vector<curate::Posting> found;
  found.reserve(postings->size());
  for (const auto& p : *postings)
    found.push_back({.article_id = p.article_id, .term = p.term, .weight = p.weight});
  auto scored = curate::score_candidates(signature, found, article.id);
  if (scored.size() > static_cast<std::size_t>(options_.candidates))
    scored.resize(static_cast<std::size_t>(options_.candidates));

  std::vector<std::int64_t> ids;
  ids.reserve(scored.size());
  for (const auto& s : scored) ids.push_back(s.article_id);
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
  for (const auto& t : signature.terms) write.postings.emplace_back(t.hash, t.weight);
  for (std::size_t i = 0; i < picks.size(); ++i) {
    const auto reason = curate::join_reason(picks[i].shared);
    if (i < static_cast<std::size_t>(options_.picks_kept))
      write.picks.push_back({article.id, picks[i].article_id, picks[i].score, reason});
    if (i < static_cast<std::size_t>(options_.offers))
      write.offers.push_back({picks[i].article_id, article.id, picks[i].score, reason});
  }
  if (auto saved = store_.save_similar(write); !saved) return std::unexpected(saved.error());
  return static_cast<int>(write.picks.size());
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
      for (const auto& t : terms) buckets.push_back(curate::df_bucket(t.hash));
      if (auto counted = store_.count_similar_terms(buckets, true); !counted)
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
