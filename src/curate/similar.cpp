// Similar articles: TF-IDF signatures of top terms and cosine scoring over an inverted index (Manning,
// Raghavan, Schütze, "Introduction to Information Retrieval", 2008, ch. 6.3 and 7.1: sublinear tf
// scaling, and scoring only the documents that share a query term's postings).
#include "curate/similar.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "curate/curate.h"
#include "curate/words.h"

namespace longread::curate {
namespace {

// A light English stemmer: only plurals, so "queues" meets "queue" and "caches" meets "cache" while the
// word stays readable in a reason ("lock free", not "lock fre"). Words ending in "ss", "us" or "is" are
// not plurals ("class", "status", "analysis").
std::string stem(std::string_view word) {
  std::string out(word);
  if (out.size() >= 5 && out.ends_with("ies")) {
    out.resize(out.size() - 3);
    out += 'y';
  } else if (out.size() >= 4 && out.back() == 's' && !out.ends_with("ss") && !out.ends_with("us") &&
             !out.ends_with("is")) {
    out.pop_back();
  }
  return out;
}

}  // namespace

std::uint64_t term_hash(std::string_view term) {
  std::uint64_t h = 14695981039346656037ULL;
  for (const char c : term) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

std::uint32_t df_bucket(std::uint64_t hash) {
  return static_cast<std::uint32_t>(hash >> (64 - kDfBucketBits));
}

std::vector<TermCount> article_terms(std::string_view title, std::string_view text) {
  std::unordered_map<std::string, int> counts;
  std::unordered_map<std::string, int> pairs;
  auto count_text = [&](std::string_view source, int times, int max_words) {
    std::string previous;  // the last usable word, stemmed; empty after a stopword
    int words = 0;
    detail::for_each_word(source, [&](std::string_view word) {
      if (++words > max_words) return;
      if (!detail::usable_word(word)) {
        previous.clear();
        return;
      }
      std::string term = stem(word);
      counts[term] += times;
      if (!previous.empty()) pairs[previous + ' ' + term] += times;
      previous = std::move(term);
    });
  };
  count_text(title, kTitleWeight, kMaxTermWords);
  count_text(text, 1, kMaxTermWords);
  // A pair that occurs once is mostly chance adjacency ("remote slave"), and there are as many of them as
  // words: only pairs that recur (or are in the title) are terms. This halves the terms, and with them the
  // document-frequency updates, of a typical post.
  for (auto& [pair, count] : pairs) {
    if (count >= kMinPairCount) counts.emplace(pair, count);
  }
  std::vector<TermCount> out;
  out.reserve(counts.size());
  for (auto& [term, count] : counts) {
    const auto hash = term_hash(term);
    out.push_back({.term = term, .hash = hash, .count = count});
  }
  std::sort(out.begin(), out.end(), [](const TermCount& a, const TermCount& b) {
    return a.hash != b.hash ? a.hash < b.hash : a.term < b.term;
  });
  return out;
}

Signature signature(std::span<const TermCount> terms, std::span<const std::int64_t> df,
                    std::int64_t documents, NewTerms new_terms, int k) {
  Signature out;
  if (terms.size() != df.size() || documents <= 0 || k <= 0) return out;
  const bool use_ratio = documents >= kDfRatioMinDocuments;
  std::vector<WeightedTerm> weighted;
  weighted.reserve(terms.size());
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (df[i] < kMinDf && new_terms == NewTerms::kDrop) continue;
    const auto d = std::max<std::int64_t>(df[i], kMinDf);
    if (use_ratio && static_cast<double>(d) > kMaxDfRatio * static_cast<double>(documents)) continue;
    // A term weighed as if in d documents needs a site of at least d: otherwise a site's very first
    // article would weigh every term at log(2 / 2) = 0, have no signature, and never be found.
    const auto n = std::max(documents, d);
    const double idf = std::log(static_cast<double>(n + 1) / static_cast<double>(d));
    const double tf = 1.0 + std::log(static_cast<double>(std::max(terms[i].count, 1)));
    if (idf <= 0) continue;
    weighted.push_back({.term = terms[i].term, .hash = terms[i].hash, .weight = tf * idf});
  }
  auto heavier = [](const WeightedTerm& a, const WeightedTerm& b) {
    return a.weight != b.weight ? a.weight > b.weight : a.hash < b.hash;
  };
  const auto keep = std::min<std::size_t>(weighted.size(), static_cast<std::size_t>(k));
  std::partial_sort(weighted.begin(), weighted.begin() + static_cast<std::ptrdiff_t>(keep), weighted.end(),
                    heavier);
  weighted.resize(keep);
  double norm = 0;
  for (const auto& t : weighted) norm += t.weight * t.weight;
  norm = std::sqrt(norm);
  if (norm <= 0) return out;
  for (auto& t : weighted) t.weight /= norm;
  out.terms = std::move(weighted);
  return out;
}

std::vector<ScoredCandidate> score_candidates(const Signature& query, std::span<const Posting> postings,
                                              std::int64_t self_id) {
  std::unordered_map<std::uint64_t, int> index;  // term hash -> position in the query
  for (std::size_t i = 0; i < query.terms.size(); ++i)
    index.emplace(query.terms[i].hash, static_cast<int>(i));
  struct Accumulator {
    double score = 0;
    std::vector<std::pair<double, int>> shared;  // (contribution, query term)
  };
  std::unordered_map<std::int64_t, Accumulator> scores;
  for (const auto& posting : postings) {
    if (posting.article_id == self_id) continue;
    const auto term = index.find(posting.term);
    if (term == index.end()) continue;
    const double contribution = query.terms[static_cast<std::size_t>(term->second)].weight * posting.weight;
    auto& acc = scores[posting.article_id];
    // A posting repeated (the same article and term twice) counts once.
    if (std::any_of(acc.shared.begin(), acc.shared.end(),
                    [&](const auto& s) { return s.second == term->second; }))
      continue;
    acc.score += contribution;
    acc.shared.emplace_back(contribution, term->second);
  }
  std::vector<ScoredCandidate> out;
  for (auto& [id, acc] : scores) {
    if (static_cast<int>(acc.shared.size()) < kMinSharedTerms || acc.score < kMinSimilarScore) continue;
    std::sort(acc.shared.begin(), acc.shared.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    ScoredCandidate c{.article_id = id, .score = acc.score, .shared = {}};
    for (const auto& s : acc.shared) c.shared.push_back(s.second);
    out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(), [](const ScoredCandidate& a, const ScoredCandidate& b) {
    return a.score != b.score ? a.score > b.score : a.article_id > b.article_id;
  });
  return out;
}

std::vector<SimilarPick> pick_similar(const Signature& query, const SimilarSubject& subject,
                                      std::span<const ScoredCandidate> scored,
                                      std::span<const CandidateInfo> infos, int limit) {
  std::unordered_map<std::int64_t, const CandidateInfo*> by_id;
  for (const auto& info : infos) by_id.emplace(info.id, &info);
  std::vector<SimilarPick> out;
  for (const auto& candidate : scored) {
    if (static_cast<int>(out.size()) >= limit) break;
    const auto info = by_id.find(candidate.article_id);
    if (info == by_id.end() || candidate.article_id == subject.id) continue;
    const CandidateInfo& c = *info->second;
    if (!c.visible || c.blog_id == subject.blog_id) continue;
    if (subject.simhash != 0 && c.simhash != 0 && near_duplicate(subject.simhash, c.simhash)) continue;
    SimilarPick pick{.article_id = candidate.article_id, .score = candidate.score, .shared = {}};
    for (const int term : candidate.shared) {
      if (static_cast<int>(pick.shared.size()) >= kReasonTerms) break;
      if (term >= 0 && static_cast<std::size_t>(term) < query.terms.size())
        pick.shared.push_back(query.terms[static_cast<std::size_t>(term)].term);
    }
    out.push_back(std::move(pick));
  }
  return out;
}

std::string join_reason(const std::vector<std::string>& shared) {
  std::string out;
  for (const auto& term : shared) {
    if (!out.empty()) out += ", ";
    out += term;
  }
  return out;
}

}  // namespace longread::curate
