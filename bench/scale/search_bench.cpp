// search_bench DB [QUERIES] [PEER_QUERIES] [SEED]: how long a new search takes on a large database.
//
// Picks distinct queries from the database's own index (fts5vocab): one, two and three words drawn from
// the words in about 0.1 %, 2 % and 20 % of the indexed articles, and two-word phrases taken from article
// texts. Each query is run once, through Store::search (the page cache of the site is not involved, and
// no query repeats), and the p50 / p95 / p99 of each kind are printed. The named peer is the search as it
// was before candidates were capped: BM25 for every match, then the top 20 (kept here only, verbatim),
// run on the first PEER_QUERIES queries of each kind in the same run. Also prints the database's size and
// bytes per article.
#include <fmt/core.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "storage/store.h"

namespace {

using Clock = std::chrono::steady_clock;

// This thread's CPU time: on a shared machine the wall clock also counts other processes' turns.
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct StmtFinalizer {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Db = std::unique_ptr<sqlite3, DbCloser>;
using Stmt = std::unique_ptr<sqlite3_stmt, StmtFinalizer>;

Stmt prepare(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
    fmt::print(stderr, "search_bench: {}: {}\n", sql, sqlite3_errmsg(db));
    std::exit(1);
  }
  return Stmt(s);
}

std::int64_t scalar(sqlite3* db, const std::string& sql) {
  auto s = prepare(db, sql);
  return sqlite3_step(s.get()) == SQLITE_ROW ? sqlite3_column_int64(s.get(), 0) : -1;
}

// The search as it was before: BM25 of every match, sorted, then the page (kept verbatim as the peer).
constexpr const char* kOldSearch =
    "SELECT a.id, a.title, snippet(articles_fts, 1, char(1), char(2), '…', 32) FROM ("
    "  SELECT rowid AS id, bm25(articles_fts, 10.0, 1.0) AS rank_score"
    "  FROM articles_fts WHERE articles_fts MATCH :match"
    "  ORDER BY rank_score, rowid DESC LIMIT :limit OFFSET :offset"
    " ) s CROSS JOIN articles_fts ON articles_fts.rowid = s.id AND articles_fts MATCH :match"
    " JOIN articles a ON a.id = s.id JOIN blogs b ON b.id = a.blog_id"
    " ORDER BY s.rank_score, s.id DESC";

// What the old search made of a query: each word a quoted FTS5 string; a "phrase" stays one string.
std::string old_match(const std::string& query) {
  if (query.starts_with('"')) return query;
  std::string match;
  std::size_t i = 0;
  while (i < query.size()) {
    std::size_t end = query.find(' ', i);
    if (end == std::string::npos) end = query.size();
    if (!match.empty()) match += ' ';
    match += '"' + query.substr(i, end - i) + '"';
    i = end + 1;
  }
  return match;
}

struct Kind {
  std::string name;
  std::vector<std::string> queries;
  std::string note;
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: search_bench DB [QUERIES] [PEER_QUERIES] [SEED]\n");
    return 2;
  }
  const std::string path = argv[1];
  const int per_kind = argc > 2 ? std::max(1, std::atoi(argv[2])) : 40;
  const int peer_per_kind = argc > 3 ? std::max(0, std::atoi(argv[3])) : 10;
  std::mt19937_64 rng(argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 7);

  sqlite3* raw = nullptr;
  if (sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    fmt::print(stderr, "search_bench: cannot open {}\n", path);
    return 1;
  }
  Db db(raw);
  const std::int64_t articles = scalar(db.get(), "SELECT COUNT(*) FROM articles");
  const std::int64_t indexed = scalar(db.get(), "SELECT COUNT(*) FROM articles WHERE visible = 1");
  std::uintmax_t bytes = std::filesystem::file_size(path);
  fmt::print("database: {} articles ({} searchable), {:.2f} GB, {:.0f} bytes per article\n", articles,
             indexed, static_cast<double>(bytes) / 1e9,
             static_cast<double>(bytes) / static_cast<double>(articles));

  // Every indexed word and the number of articles it is in (reads the whole index once).
  const auto vocab_start = Clock::now();
  char* error = nullptr;
  if (sqlite3_exec(db.get(), "CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, articles_fts, 'row')",
                   nullptr, nullptr, &error) != SQLITE_OK) {
    fmt::print(stderr, "search_bench: fts5vocab: {}\n", error ? error : "?");
    return 1;
  }
  std::vector<std::pair<std::string, std::int64_t>> vocab;
  {
    auto s = prepare(db.get(), "SELECT term, doc FROM temp.vocab");
    while (sqlite3_step(s.get()) == SQLITE_ROW) {
      std::string term = reinterpret_cast<const char*>(sqlite3_column_text(s.get(), 0));
      // Letters only: the index also holds numbers and pieces of URLs, which nobody searches for.
      if (std::all_of(term.begin(), term.end(), [](char c) { return c >= 'a' && c <= 'z'; }) &&
          term.size() >= 3)
        vocab.emplace_back(std::move(term), sqlite3_column_int64(s.get(), 1));
    }
  }
  fmt::print("index: {} words read in {:.1f} s\n", vocab.size(),
             std::chrono::duration<double>(Clock::now() - vocab_start).count());

  // The words nearest to each target document frequency: the band [target/2, target*2], or, when the
  // vocabulary has none there (the worst-case generator's 106 words), the nearest few.
  auto band = [&](double fraction, std::string& note) {
    const double target = fraction * static_cast<double>(indexed);
    std::vector<std::pair<std::string, std::int64_t>> in;
    for (const auto& [w, df] : vocab)
      if (static_cast<double>(df) >= target / 2 && static_cast<double>(df) <= target * 2)
        in.emplace_back(w, df);
    if (in.size() < 3) {
      in = vocab;
      std::sort(in.begin(), in.end(), [&](const auto& a, const auto& b) {
        return std::abs(std::log(static_cast<double>(a.second) / target)) <
               std::abs(std::log(static_cast<double>(b.second) / target));
      });
      in.resize(std::min<std::size_t>(in.size(), 20));
    }
    double mean = 0;
    for (const auto& [w, df] : in) mean += static_cast<double>(df);
    mean /= static_cast<double>(in.size());
    note = fmt::format("{} words, mean df {:.2f}%", in.size(), 100.0 * mean / static_cast<double>(indexed));
    std::vector<std::string> words;
    for (auto& [w, df] : in) words.push_back(w);
    std::shuffle(words.begin(), words.end(), rng);
    return words;
  };

  std::vector<Kind> kinds;
  for (const auto& [fraction, label] :
       {std::pair{0.001, "0.1%"}, std::pair{0.02, "2%"}, std::pair{0.2, "20%"}}) {
    std::string note;
    const auto words = band(fraction, note);
    for (int n = 1; n <= 3; ++n) {
      Kind kind{fmt::format("{} word{} at df {}", n, n > 1 ? "s" : "", label), {}, note};
      std::vector<std::string> seen;
      for (int attempt = 0; attempt < per_kind * 20 && static_cast<int>(kind.queries.size()) < per_kind;
           ++attempt) {
        std::vector<std::string> picked;
        while (static_cast<int>(picked.size()) < n && picked.size() < words.size()) {
          const auto& w = words[rng() % words.size()];
          if (std::find(picked.begin(), picked.end(), w) == picked.end()) picked.push_back(w);
        }
        std::sort(picked.begin(), picked.end());
        std::string q;
        for (const auto& w : picked) q += (q.empty() ? "" : " ") + w;
        if (std::find(seen.begin(), seen.end(), q) != seen.end()) continue;  // distinct queries only
        seen.push_back(q);
        kind.queries.push_back(q);
      }
      kinds.push_back(std::move(kind));
    }
  }
  auto store = longread::storage::open_sqlite_store(path);
  if (!store) {
    fmt::print(stderr, "{}\n", store.error().message);
    return 1;
  }
  {
    // Phrases: two neighbouring words of a random article's text, read through the store (a body may be
    // stored compressed: docs/storage.md, "Article bodies").
    Kind kind{"phrase (2 words, quoted)", {}, "from article texts"};
    const std::int64_t max_id = scalar(db.get(), "SELECT MAX(id) FROM articles");
    for (int attempt = 0; attempt < per_kind * 20 && static_cast<int>(kind.queries.size()) < per_kind;
         ++attempt) {
      const auto id = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(max_id));
      auto found = (*store)->article(id);
      if (!found || !*found || (*found)->article.junk) continue;
      const std::string& text = (*found)->article.text;
      std::vector<std::string> words;
      std::string w;
      for (const char c : text) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
          w += static_cast<char>(c | 0x20);
        } else if (!w.empty()) {
          words.push_back(std::move(w));
          w.clear();
        }
      }
      if (words.size() < 10) continue;
      const std::size_t at = rng() % (words.size() - 1);
      if (words[at].size() < 3 || words[at + 1].size() < 3) continue;
      const std::string q = "\"" + words[at] + " " + words[at + 1] + "\"";
      if (std::find(kind.queries.begin(), kind.queries.end(), q) == kind.queries.end())
        kind.queries.push_back(q);
    }
    kinds.push_back(std::move(kind));
  }

  auto old_search = prepare(db.get(), kOldSearch);
  fmt::print("{:<26} {:>3} {:>9} {:>9} {:>9} {:>9} {:>5}  {:>3} {:>9} {:>9} {:>9}  {}\n",
             "query kind (distinct)", "n", "new p50", "new p95", "new p99", "cpu p95", "hits", "n", "old p50",
             "old p95", "old p99", "words");
  double worst_p95 = 0;
  for (const auto& kind : kinds) {
    std::vector<double> fresh, fresh_cpu, old;
    std::size_t hits = 0;
    for (const auto& q : kind.queries) {
      const auto start = Clock::now();
      const double cpu_start = thread_cpu_ms();
      auto result = (*store)->search(q, 21, 0);  // the search page asks for one more than it shows
      fresh_cpu.push_back(thread_cpu_ms() - cpu_start);
      fresh.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      if (!result) {
        fmt::print(stderr, "{}\n", result.error().message);
        return 1;
      }
      hits += result->size();
    }
    for (std::size_t i = 0; i < kind.queries.size() && static_cast<int>(i) < peer_per_kind; ++i) {
      const std::string match = old_match(kind.queries[i]);
      const auto start = Clock::now();
      sqlite3_reset(old_search.get());
      sqlite3_bind_text(old_search.get(), 1, match.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_int(old_search.get(), 2, 21);
      sqlite3_bind_int(old_search.get(), 3, 0);
      while (sqlite3_step(old_search.get()) == SQLITE_ROW) {
      }
      old.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    worst_p95 = std::max(worst_p95, percentile(fresh, 95));
    fmt::print(
        "{:<26} {:>3} {:>7.1f}ms {:>7.1f}ms {:>7.1f}ms {:>7.1f}ms {:>5.1f}  {:>3} {:>7.1f}ms {:>7.1f}ms "
        "{:>7.1f}ms  {}\n",
        kind.name, fresh.size(), percentile(fresh, 50), percentile(fresh, 95), percentile(fresh, 99),
        percentile(fresh_cpu, 95),
        static_cast<double>(hits) / static_cast<double>(std::max<std::size_t>(1, fresh.size())), old.size(),
        percentile(old, 50), percentile(old, 95), percentile(old, 99), kind.note);
  }
  fmt::print("worst p95 of the new search: {:.1f} ms (target: 100 ms)\n", worst_p95);
  return 0;
}
