// similar_bench: the CPU cost of adding one article to the similar-articles index at N articles
// (docs/similar.md, docs/perf.md), against a named peer in the same run.
//
//   similar_bench DB [N=1000000] [MEASURED=300] [BLOGS=2000]
//
// 1. Fills DB (a fresh SQLite file through the store's migrations) with N article rows and the index N
//    crawl-time adds would leave: every article's terms counted into the document frequencies in order,
//    its signature made with the frequencies so far, and posted under its terms, at most
//    SimilarOptions::postings_per_term (the heaviest) per term. This runs in memory and is written in bulk,
//    because N adds through the store would take hours; the pure functions are the ones the crawl runs.
//    Texts are synthetic: 600-1,200 words from a Zipf vocabulary of 60,000 words with stopwords between,
//    and the words of one of 20,000 topics recurring in each article, as a post's subject words do.
// 2. Adds MEASURED more articles through pipeline::SimilarIndexer::add on the real store, as the crawl
//    does (count terms, signature, postings, candidates, picks, offers, one write), timing each with the
//    thread's CPU clock (SQLite runs on the calling thread) and the wall clock.
// 3. The peer on the same articles: brute-force cosine against every article that shares a signature term,
//    from the uncapped postings held in memory (no I/O, no cap): what the cost becomes without the caps.
#include <sqlite3.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <fmt/core.h>

#include "curate/similar.h"
#include "pipeline/similar.h"
#include "storage/store.h"

namespace {

namespace curate = longread::curate;
namespace pipeline = longread::pipeline;
namespace storage = longread::storage;

constexpr int kVocabulary = 60000;
constexpr int kTopics = 20000;
constexpr int kTopicWords = 12;

double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}
double wall_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Pronounceable distinct words: index -> syllables.
std::string pseudo_word(int index) {
  static const char* kOnsets[] = {"b", "c", "d", "f", "g", "h", "j",  "k",  "l",  "m",  "n",  "p",
                                  "r", "s", "t", "v", "w", "z", "br", "st", "tr", "pl", "gr", "sh"};
  static const char* kVowels[] = {"a", "e", "i", "o", "u", "ai", "ou", "ea"};
  std::string out;
  int n = index + 24 * 8;  // at least two syllables
  while (n > 0) {
    out += kOnsets[n % 24];
    n /= 24;
    out += kVowels[n % 8];
    n /= 8;
  }
  return out;
}

class TextModel {
 public:
  TextModel() {
    words_.reserve(kVocabulary);
    std::vector<double> weights;
    for (int i = 0; i < kVocabulary; ++i) {
      words_.push_back(pseudo_word(i));
      weights.push_back(1.0 / std::pow(i + 2.7, 1.05));
    }
    double total = 0;
    for (const double w : weights) cdf_.push_back(total += w);
    for (double& c : cdf_) c /= total;
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int> tail(3000, kVocabulary - 1);
    topics_.resize(kTopics);
    for (auto& topic : topics_) {
      for (int k = 0; k < kTopicWords; ++k) topic.push_back(tail(rng));
    }
  }
  // The title and text of article `seed`.
  std::pair<std::string, std::string> article(std::uint64_t seed) const {
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ULL + 1);
    auto zipf = [&](std::mt19937_64& r) {
      const double u = std::uniform_real_distribution<double>(0, 1)(r);
      return static_cast<int>(std::min<std::size_t>(
          static_cast<std::size_t>(std::lower_bound(cdf_.begin(), cdf_.end(), u) - cdf_.begin()),
          cdf_.size() - 1));
    };
    const auto& topic = topics_[static_cast<std::size_t>(rng() % kTopics)];
    std::uniform_int_distribution<int> length(600, 1200);
    const int words = length(rng);
    std::string text;
    text.reserve(static_cast<std::size_t>(words) * 8);
    static const char* kStop[] = {"the", "and", "that", "with", "this", "for", "was", "are", "from", "but"};
    for (int i = 0; i < words; ++i) {
      const auto r = rng() % 100;
      if (r < 35) {
        text += kStop[rng() % 10];
      } else if (r < 41) {
        text += words_[static_cast<std::size_t>(topic[rng() % kTopicWords])];
      } else {
        text += words_[static_cast<std::size_t>(zipf(rng))];
      }
      text += (i % 15 == 14) ? ". " : " ";
    }
    std::string title = words_[static_cast<std::size_t>(topic[0])] + " and " +
                        words_[static_cast<std::size_t>(topic[1])] + " " +
                        words_[static_cast<std::size_t>(zipf(rng))];
    return {std::move(title), std::move(text)};
  }

 private:
  std::vector<std::string> words_;
  std::vector<double> cdf_;  // Zipf: cumulative share of words 0..i
  std::vector<std::vector<int>> topics_;
};

struct FlatPosting {
  std::uint64_t term;
  float weight;
  std::int64_t article;
};

void check(int rc, sqlite3* db, const char* what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    fmt::print(stderr, "bench: {}: {}\n", what, sqlite3_errmsg(db));
    std::exit(1);
  }
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}
double mean(const std::vector<double>& v) {
  double s = 0;
  for (const double x : v) s += x;
  return s / static_cast<double>(v.size());
}
long max_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: similar_bench DB [N=1000000] [MEASURED=300] [BLOGS=2000]\n");
    return 2;
  }
  const std::string path = argv[1];
  const std::int64_t n = argc > 2 ? std::stoll(argv[2]) : 1000000;
  const int measured = argc > 3 ? std::stoi(argv[3]) : 300;
  const int blogs = argc > 4 ? std::stoi(argv[4]) : 2000;
  const pipeline::SimilarOptions options;
  std::filesystem::remove(path);
  std::filesystem::remove(path + "-wal");
  std::filesystem::remove(path + "-shm");

  TextModel model;
  // Blogs and the schema, through the store.
  {
    auto store = storage::open_sqlite_store(path);
    if (!store) {
      fmt::print(stderr, "bench: {}\n", store.error().message);
      return 1;
    }
    for (int b = 0; b < blogs; ++b) {
      if (!(*store)->upsert_blog({.feed_url = fmt::format("https://blog{}.example/feed", b),
                                  .title = fmt::format("Blog {}", b)}))
        return 1;
    }
  }

  // 1. The index N crawl-time adds leave, in memory.
  const double build_start = wall_ms();
  std::vector<std::uint32_t> df(std::size_t{1} << curate::kDfBucketBits, 0);
  std::vector<FlatPosting> postings;
  postings.reserve(static_cast<std::size_t>(n) * curate::kSignatureTerms);
  std::vector<std::uint64_t> simhashes(static_cast<std::size_t>(n + measured));
  std::mt19937_64 simhash_rng(11);
  for (auto& s : simhashes) s = simhash_rng();
  std::vector<std::int64_t> term_df;
  // Texts and their terms are made on two threads a chunk at a time (the model is read-only); the document
  // frequencies and signatures, which depend on the order, on this one.
  constexpr std::int64_t kChunk = 2000;
  for (std::int64_t first = 1; first <= n; first += kChunk) {
    const std::int64_t last = std::min(n, first + kChunk - 1);
    std::vector<std::vector<curate::TermCount>> chunk(static_cast<std::size_t>(last - first + 1));
    auto make = [&](std::int64_t from, std::int64_t to) {
      for (std::int64_t i = from; i <= to; ++i) {
        const auto [title, text] = model.article(static_cast<std::uint64_t>(i));
        chunk[static_cast<std::size_t>(i - first)] = curate::article_terms(title, text);
      }
    };
    const std::int64_t middle = first + (last - first) / 2;
    std::thread helper(make, middle + 1, last);
    make(first, middle);
    helper.join();
    for (std::int64_t i = first; i <= last; ++i) {
      const auto& terms = chunk[static_cast<std::size_t>(i - first)];
      term_df.clear();
      std::vector<std::uint32_t> seen;
      seen.reserve(terms.size());
      for (const auto& t : terms) seen.push_back(curate::df_bucket(t.hash));
      std::sort(seen.begin(), seen.end());
      seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
      for (const auto b : seen) ++df[b];
      for (const auto& t : terms) term_df.push_back(df[curate::df_bucket(t.hash)]);
      const auto signature = curate::signature(terms, term_df, i);
      for (const auto& t : signature.terms) postings.push_back({t.hash, static_cast<float>(t.weight), i});
      if (i % 100000 == 0) fmt::print(stderr, "bench: {} articles indexed in memory\n", i);
    }
  }
  // The uncapped postings stay in memory for the peer; the store gets the heaviest per term.
  std::sort(postings.begin(), postings.end(), [](const FlatPosting& a, const FlatPosting& b) {
    return a.term != b.term       ? a.term < b.term
           : a.weight != b.weight ? a.weight > b.weight
                                  : a.article > b.article;
  });
  const double memory_build_s = (wall_ms() - build_start) / 1000;

  // Written in bulk: the article rows (N indexed + MEASURED to add), DF buckets, capped postings.
  const double write_start = wall_ms();
  std::int64_t posting_rows = 0;
  std::int64_t df_rows = 0;
  {
    sqlite3* db = nullptr;
    check(sqlite3_open(path.c_str(), &db), db, "open");
    check(
        sqlite3_exec(db, "PRAGMA synchronous=OFF; PRAGMA foreign_keys=OFF; BEGIN", nullptr, nullptr, nullptr),
        db, "begin");
    sqlite3_stmt* article = nullptr;
    check(sqlite3_prepare_v2(
              db,
              "INSERT INTO articles (id, blog_id, guid, title, first_seen, display_at, category, "
              "simhash, visible) VALUES (?, ?, ?, ?, ?, ?, 'uncategorized', ?, 1)",
              -1, &article, nullptr),
          db, "prepare");
    const std::int64_t now = std::time(nullptr);
    for (std::int64_t i = 1; i <= n + measured; ++i) {
      sqlite3_bind_int64(article, 1, i);
      sqlite3_bind_int64(article, 2, 1 + (i % blogs));
      const auto guid = fmt::format("a{}", i);
      sqlite3_bind_text(article, 3, guid.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(article, 4, guid.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64(article, 5, now - (n + measured - i) * 60);
      sqlite3_bind_int64(article, 6, now - (n + measured - i) * 60);
      sqlite3_bind_int64(article, 7, static_cast<sqlite3_int64>(simhashes[static_cast<std::size_t>(i - 1)]));
      check(sqlite3_step(article), db, "insert article");
      sqlite3_reset(article);
    }
    sqlite3_finalize(article);
    sqlite3_stmt* term = nullptr;
    check(sqlite3_prepare_v2(db, "INSERT INTO similar_terms (bucket, df) VALUES (?, ?)", -1, &term, nullptr),
          db, "prepare");
    auto put_df = [&](std::int64_t bucket, std::int64_t value) {
      sqlite3_bind_int64(term, 1, bucket);
      sqlite3_bind_int64(term, 2, value);
      check(sqlite3_step(term), db, "insert df");
      sqlite3_reset(term);
      ++df_rows;
    };
    put_df(-1, n);
    for (std::size_t b = 0; b < df.size(); ++b) {
      if (df[b] != 0) put_df(static_cast<std::int64_t>(b), df[b]);
    }
    sqlite3_finalize(term);
    sqlite3_stmt* posting = nullptr;
    check(sqlite3_prepare_v2(db, "INSERT INTO similar_postings (term, article_id, weight) VALUES (?, ?, ?)",
                             -1, &posting, nullptr),
          db, "prepare");
    std::uint64_t current = 0;
    int in_term = 0;
    for (const auto& p : postings) {
      if (p.term != current || posting_rows == 0) {
        current = p.term;
        in_term = 0;
      }
      if (in_term++ >= options.postings_per_term) continue;
      sqlite3_bind_int64(posting, 1, static_cast<sqlite3_int64>(p.term));
      sqlite3_bind_int64(posting, 2, p.article);
      sqlite3_bind_double(posting, 3, p.weight);
      check(sqlite3_step(posting), db, "insert posting");
      sqlite3_reset(posting);
      ++posting_rows;
    }
    sqlite3_finalize(posting);
    check(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr), db, "commit");
    sqlite3_close(db);
  }
  const double write_s = (wall_ms() - write_start) / 1000;
  std::int64_t distinct_terms = 0;
  for (std::size_t i = 0; i < postings.size(); ++i) {
    if (i == 0 || postings[i].term != postings[i - 1].term) ++distinct_terms;
  }
  fmt::print("similar: {} articles, {} blogs; {} cores; load average {}\n", n, blogs,
             std::thread::hardware_concurrency(), [] {
               FILE* f = std::fopen("/proc/loadavg", "r");
               char buf[64] = {0};
               if (f != nullptr) {
                 if (std::fgets(buf, sizeof buf, f) == nullptr) buf[0] = 0;
                 std::fclose(f);
               }
               std::string s(buf);
               return s.substr(0, s.find(' ', s.find(' ', s.find(' ') + 1) + 1));
             }());
  fmt::print(
      "index: {} signature terms ({} distinct), {} postings kept (cap {} per term), {} DF buckets; built in "
      "memory "
      "in {:.0f} s, written in {:.0f} s\n",
      postings.size(), distinct_terms, posting_rows, options.postings_per_term, df_rows, memory_build_s,
      write_s);

  // 2. MEASURED adds through the store, as the crawl makes them.
  auto opened = storage::open_sqlite_store(path);
  if (!opened) {
    fmt::print(stderr, "bench: {}\n", opened.error().message);
    return 1;
  }
  auto& store = **opened;
  {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* q = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT name, SUM(pgsize) FROM dbstat WHERE name LIKE 'similar%' OR name LIKE "
                       "'sqlite_autoindex_similar%' GROUP BY name ORDER BY name",
                       -1, &q, nullptr);
    std::int64_t total = 0;
    std::string parts;
    while (q != nullptr && sqlite3_step(q) == SQLITE_ROW) {
      const auto bytes = sqlite3_column_int64(q, 1);
      total += bytes;
      parts += fmt::format("{}{} {:.0f} MB", parts.empty() ? "" : ", ",
                           reinterpret_cast<const char*>(sqlite3_column_text(q, 0)),
                           static_cast<double>(bytes) / 1e6);
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    fmt::print("index on disk: {:.0f} MB ({:.0f} bytes per article): {}\n", static_cast<double>(total) / 1e6,
               static_cast<double>(total) / static_cast<double>(n), parts);
  }
  pipeline::SimilarIndexer indexer(store, options);
  std::vector<double> ours_cpu;
  std::vector<double> ours_wall;
  std::vector<double> peer_cpu;
  std::vector<double> peer_candidates;
  std::int64_t picks = 0;
  for (int k = 0; k < measured; ++k) {
    const std::int64_t id = n + 1 + k;
    const auto [title, text] = model.article(static_cast<std::uint64_t>(id));
    const double c0 = cpu_ms();
    const double w0 = wall_ms();
    auto added = indexer.add({.id = id,
                              .blog_id = 1 + (id % blogs),
                              .simhash = simhashes[static_cast<std::size_t>(id - 1)],
                              .title = title,
                              .text = text});
    ours_cpu.push_back(cpu_ms() - c0);
    ours_wall.push_back(wall_ms() - w0);
    if (!added) {
      fmt::print(stderr, "bench: {}\n", added.error().message);
      return 1;
    }
    picks += *added;

    // The peer: the same article's terms and signature, scored against every article posted under any
    // of its signature terms, uncapped.
    const double p0 = cpu_ms();
    const auto terms = curate::article_terms(title, text);
    std::vector<std::int64_t> frequencies;
    frequencies.reserve(terms.size());
    for (const auto& t : terms) frequencies.push_back(df[curate::df_bucket(t.hash)] + 1);
    const auto signature = curate::signature(terms, frequencies, n + 1);
    std::vector<curate::Posting> all;
    for (const auto& t : signature.terms) {
      auto lo = std::lower_bound(postings.begin(), postings.end(), t.hash,
                                 [](const FlatPosting& p, std::uint64_t h) { return p.term < h; });
      for (; lo != postings.end() && lo->term == t.hash; ++lo)
        all.push_back({.article_id = lo->article, .term = lo->term, .weight = lo->weight});
    }
    const auto scored = curate::score_candidates(signature, all, id);
    peer_cpu.push_back(cpu_ms() - p0);
    peer_candidates.push_back(static_cast<double>(all.size()));
    if (scored.size() > 1000000) fmt::print("");  // keep the result alive
  }
  fmt::print(
      "add one article (ours: capped postings in SQLite, picks and offers stored): CPU p50 {:.2f} ms, p95 "
      "{:.2f} "
      "ms, mean {:.2f} ms; wall p50 {:.2f} ms, p95 {:.2f} ms; {:.1f} picks per article\n",
      percentile(ours_cpu, 0.5), percentile(ours_cpu, 0.95), mean(ours_cpu), percentile(ours_wall, 0.5),
      percentile(ours_wall, 0.95), static_cast<double>(picks) / measured);
  fmt::print(
      "peer (brute force: cosine against every article sharing a signature term, uncapped, in memory, no "
      "writes): CPU p50 {:.2f} ms, p95 {:.2f} ms, mean {:.2f} ms; {:.0f} postings scored per article "
      "(mean)\n",
      percentile(peer_cpu, 0.5), percentile(peer_cpu, 0.95), mean(peer_cpu), mean(peer_candidates));
  fmt::print(
      "ratio peer/ours (mean CPU): {:.1f}x; max RSS of the bench {} MB (the in-memory build and the peer's "
      "uncapped postings included)\n",
      mean(peer_cpu) / mean(ours_cpu), max_rss_mb());
  return 0;
}
