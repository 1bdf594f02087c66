// Similar articles, the pure part (docs/similar.md): an article's text as terms, its top terms as a
// TF-IDF signature, and the ranking of candidates found through an inverted index into picks with the
// terms they share. No I/O: the pipeline reads document frequencies and postings from the store and hands
// them in.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace longread::curate {

// Terms of an article: stemmed words (a plural "s" dropped) and pairs of adjacent words ("ring buffer",
// "lock free": a hyphen separates words) that occur at least kMinPairCount times, both without stopwords,
// from the title (counted kTitleWeight times) and the first kMaxTermWords words of the text, so one
// article's cost is bounded whatever its length.
inline constexpr int kMaxTermWords = 1500;
inline constexpr int kTitleWeight = 3;
inline constexpr int kMinPairCount = 2;
// The signature: the kSignatureTerms terms of highest TF-IDF weight, L2-normalised.
inline constexpr int kSignatureTerms = 24;
// Document frequencies are counted per bucket of the term's hash (2^kDfBucketBits buckets): the table
// stays at most 4,194,304 rows however large the vocabulary grows; a collision only makes a rare term
// look more common (a lower weight), never a common one rare.
inline constexpr int kDfBucketBits = 22;
// A term in more than this share of the documents carries no signal: it never enters a signature (once
// the site has kDfRatioMinDocuments documents; before, every ratio is noise).
inline constexpr double kMaxDfRatio = 0.05;
inline constexpr std::int64_t kDfRatioMinDocuments = 200;
// A term in fewer documents than this matches nothing stored yet. Counted over the whole site (the
// rebuild), such terms (typos, numbers, one post's names) would only fill a signature, being the rarest:
// left out. At crawl time a new term may be the first of a new subject, so it is kept, weighed as if in
// kMinDf documents (no rarer): later articles on the subject find this one through it.
inline constexpr std::int64_t kMinDf = 2;
enum class NewTerms { kKeep, kDrop };
// Candidates share at least this many signature terms, and score at least kMinSimilarScore (cosine of
// the two signatures), or they are no pick.
inline constexpr int kMinSharedTerms = 2;
inline constexpr double kMinSimilarScore = 0.08;
// Terms named as the reason of a pick, the most weighty first.
inline constexpr int kReasonTerms = 4;

struct TermCount {
  std::string term;
  std::uint64_t hash = 0;  // term_hash(term)
  int count = 0;
};

// FNV-1a (64 bit) of the term: stable across builds and platforms, so stored postings stay valid.
[[nodiscard]] std::uint64_t term_hash(std::string_view term);
// The document-frequency bucket of a term hash (its top kDfBucketBits bits).
[[nodiscard]] std::uint32_t df_bucket(std::uint64_t hash);

// The distinct terms of an article with their counts, ordered by hash.
[[nodiscard]] std::vector<TermCount> article_terms(std::string_view title, std::string_view text);

struct WeightedTerm {
  std::string term;
  std::uint64_t hash = 0;
  double weight = 0;
};
// The top terms of an article, heaviest first; weights L2-normalised (their squares sum to 1).
struct Signature {
  std::vector<WeightedTerm> terms;
};

// The signature of `terms` given each one's document frequency (`df[i]` for `terms[i]`, this article
// counted) among `documents`: weight (1 + ln tf) * ln((documents + 1) / max(df, kMinDf)), terms over
// kMaxDfRatio left out, and those under kMinDf too unless `new_terms` is kKeep (see kMinDf), the `k` heaviest
// kept (ties by hash).
[[nodiscard]] Signature signature(std::span<const TermCount> terms, std::span<const std::int64_t> df,
                                  std::int64_t documents, NewTerms new_terms = NewTerms::kKeep,
                                  int k = kSignatureTerms);

// One entry of the inverted index: an article posted under one of its signature terms with its weight.
struct Posting {
  std::int64_t article_id = 0;
  std::uint64_t term = 0;
  double weight = 0;
};

// A candidate's score: the dot product of the two signatures (their cosine: both are unit vectors) over
// the terms they share, with those terms (indices into the query signature) heaviest contribution first.
struct ScoredCandidate {
  std::int64_t article_id = 0;
  double score = 0;
  std::vector<int> shared;
};

// Scores every article posted under a term of `query` (except `self_id`), best first (ties: newer id
// first). Candidates with fewer than kMinSharedTerms shared terms or a score under kMinSimilarScore are
// dropped.
[[nodiscard]] std::vector<ScoredCandidate> score_candidates(const Signature& query,
                                                            std::span<const Posting> postings,
                                                            std::int64_t self_id);

// What the picks need to know of a candidate article (read from the store).
struct CandidateInfo {
  std::int64_t id = 0;
  std::int64_t blog_id = 0;
  std::uint64_t simhash = 0;
  bool visible = false;  // not junk, not a duplicate, not held
};

struct SimilarPick {
  std::int64_t article_id = 0;
  double score = 0;
  std::vector<std::string> shared;  // the reason: the shared terms, heaviest first, at most kReasonTerms
};

// The article the picks are for.
struct SimilarSubject {
  std::int64_t id = 0;
  std::int64_t blog_id = 0;
  std::uint64_t simhash = 0;
};

// The best `limit` picks among `scored` (as score_candidates ordered them): only visible articles of
// other blogs that are not near-duplicates of the subject (SimHash, curate::near_duplicate); a candidate
// without info (deleted meanwhile) is skipped.
[[nodiscard]] std::vector<SimilarPick> pick_similar(const Signature& query, const SimilarSubject& subject,
                                                    std::span<const ScoredCandidate> scored,
                                                    std::span<const CandidateInfo> infos, int limit);

// "lock free, ring buffer, cache line": the reason as stored and shown.
[[nodiscard]] std::string join_reason(const std::vector<std::string>& shared);

}  // namespace longread::curate
