// search_bench DB [QUERIES] [PEER_QUERIES] [SEED]: how long a new search takes on a large database.
//
// DB is a SQLite file or a postgresql:// URL (the store opens either, as the site does).
//
// Picks distinct queries from the database's own index: one, two and three words drawn from the words in
// about 0.1 %, 2 % and 20 % of the indexed articles, a word at 2 % beside one at 20 %, and two-word phrases
// taken from article texts. On SQLite the words and their document frequencies are the whole FTS5 index's
// (fts5vocab); on PostgreSQL they are counted in the texts of a systematic sample of the searchable
// articles (every k-th id, about 50,000 articles), split by the search's own tokenizer, and scaled to the
// whole: the index keeps words as ids (storage/postgres/common_words.h), reading every text of a million
// articles would take minutes, and ids follow the blogs, so every k-th id samples every blog alike. Each
// query is run once, through Store::search (the page cache of the site is not involved, and no query
// repeats), and the p50 / p95 / p99 of each kind are printed. The named peer runs on the first PEER_QUERIES
// queries of each kind in the same run: on SQLite the search as it was before candidates were capped (BM25
// for every match, then the top 20; kept here only, verbatim); on PostgreSQL its plain full-text search the
// way Miniflux searches (every match of websearch_to_tsquery through the GIN index, ordered by ts_rank, no
// candidate cap), over a table of its own (search_bench_peer) whose vectors hold every word, common ones
// included, made by the server's parser (to_tsvector) from each article's title and text as Miniflux's are:
// filled when the bench starts, after the database's size is printed, and dropped when it ends. The peer gets
// the same 1 s statement budget as longread's PostgreSQL search; a query cancelled at it counts as ">= 1000
// ms" (never dropped), and so does a longread search that times out. Also prints the database's size and
// bytes per article. SEARCH_BENCH_EACH=1 prints each query's times on stderr.
#include <fmt/core.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "article_texts.h"
#include "storage/postgres/database.h"
#include "storage/postgres/pg.h"
#include "storage/postgres/statement.h"
#include "storage/store.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace pg = longread::storage::postgres;

// A query cancelled at its statement budget: sorted after every measured time, printed as ">= budget".
constexpr double kTimedOut = std::numeric_limits<double>::infinity();
constexpr int kBudgetMs = 1000;  // PostgreSQL: longread's search budget, given to the peer too

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

// PostgreSQL's plain full-text search the way Miniflux searches (internal/storage/entry_query_builder.go,
// WithSearchQuery: `document_vectors @@ websearch_to_tsquery($n)`, ordered by ts_rank of the same query less
// 0.1 per day of age): every match, ranked, then the page. The query is what the reader typed, so a quoted
// phrase stays a phrase; `visible = 1` lets it use the same partial GIN index as longread's search.
constexpr const char* kMinifluxSearch =
    "SELECT a.id, a.title FROM search_bench_peer a"
    " WHERE a.visible = 1 AND a.search_vector @@ websearch_to_tsquery('longread_search', $1)"
    " ORDER BY ts_rank(a.search_vector, websearch_to_tsquery('longread_search', $1))"
    " - (extract(epoch FROM now()) - a.display_at) * 0.0000001 DESC LIMIT $2";

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

// A percentile for the table: a timed-out query shows as ">=" the budget it was cancelled at.
std::string cell(const std::vector<double>& v, double p) {
  const double x = percentile(v, p);
  return std::isinf(x) ? fmt::format(">={}ms", kBudgetMs) : fmt::format("{:.1f}ms", x);
}

// The words and their document frequencies (in `indexed` searchable articles) -> the query kinds.
std::vector<Kind> word_kinds(const std::vector<std::pair<std::string, std::int64_t>>& vocab,
                             std::int64_t indexed, int per_kind, std::mt19937_64& rng) {
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
  std::vector<std::vector<std::string>> bands;
  for (const auto& [fraction, label] :
       {std::pair{0.001, "0.1%"}, std::pair{0.02, "2%"}, std::pair{0.2, "20%"}}) {
    std::string note;
    const auto words = band(fraction, note);
    bands.push_back(words);
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
  // A word of the 2 % band beside one of the 20 % band ("the compiler"): on PostgreSQL the index answers the
  // first and each row's bitmap of common words the second. Drawn with a generator of its own, so the
  // phrases drawn after the word kinds stay the ones earlier builds drew.
  std::mt19937_64 mixed_rng(11);
  Kind mixed{"2 words at df 2% and 20%", {}, "one word of each band"};
  for (int attempt = 0; attempt < per_kind * 20 && static_cast<int>(mixed.queries.size()) < per_kind &&
                        !bands[1].empty() && !bands[2].empty();
       ++attempt) {
    std::string q = bands[1][mixed_rng() % bands[1].size()] + " " + bands[2][mixed_rng() % bands[2].size()];
    if (std::find(mixed.queries.begin(), mixed.queries.end(), q) == mixed.queries.end())
      mixed.queries.push_back(std::move(q));
  }
  kinds.push_back(std::move(mixed));
  return kinds;
}

// Phrases: two neighbouring words of a random article's text, read through the store (a body may be
// stored compressed: docs/storage.md, "Article bodies").
Kind phrase_kind(longread::storage::Store& store, std::int64_t max_id, int per_kind, std::mt19937_64& rng) {
  Kind kind{"phrase (2 words, quoted)", {}, "from article texts"};
  for (int attempt = 0; attempt < per_kind * 20 && static_cast<int>(kind.queries.size()) < per_kind;
       ++attempt) {
    const auto id = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(max_id));
    auto found = store.article(id);
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
  return kind;
}

// Runs every kind's queries through Store::search, and the first `peer_per_kind` of each through `peer`
// (which returns its time in ms, or kTimedOut), and prints the table. `server_cpu_ms` (optional) reads
// the CPU time the database server has spent for this process so far, added to this thread's.
int run_kinds(longread::storage::Store& store, const std::vector<Kind>& kinds, int peer_per_kind,
              const std::string& peer_label, const std::function<double(const std::string&)>& peer,
              const std::function<double()>& server_cpu_ms) {
  fmt::print("{:<26} {:>3} {:>9} {:>9} {:>9} {:>9} {:>5}  {:>3} {:>9} {:>9} {:>9}  {}\n",
             "query kind (distinct)", "n", "new p50", "new p95", "new p99", "cpu p95", "hits", "n",
             peer_label + " p50", peer_label + " p95", peer_label + " p99", "words");
  double worst_p95 = 0;
  // SEARCH_BENCH_EACH=1: every query's wall and CPU milliseconds on stderr, to look into one.
  const bool each = std::getenv("SEARCH_BENCH_EACH") != nullptr;
  for (const auto& kind : kinds) {
    std::vector<double> fresh, fresh_cpu, old;
    std::size_t hits = 0;
    int timeouts = 0;
    for (const auto& q : kind.queries) {
      const auto start = Clock::now();
      const double cpu_start = thread_cpu_ms() + (server_cpu_ms ? server_cpu_ms() : 0.0);
      auto result = store.search(q, 21, 0);  // the search page asks for one more than it shows
      fresh_cpu.push_back(thread_cpu_ms() + (server_cpu_ms ? server_cpu_ms() : 0.0) - cpu_start);
      fresh.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      if (each) fmt::print(stderr, "{}\t{}\t{:.1f}\t{:.1f}\n", kind.name, q, fresh.back(), fresh_cpu.back());
      if (!result && result.error().kind == longread::ErrorKind::kTimeout) {
        fresh.back() = kTimedOut;
        ++timeouts;
        continue;
      }
      if (!result) {
        fmt::print(stderr, "{}\n", result.error().message);
        return 1;
      }
      hits += result->size();
    }
    int peer_timeouts = 0;
    for (std::size_t i = 0; i < kind.queries.size() && static_cast<int>(i) < peer_per_kind; ++i) {
      old.push_back(peer(kind.queries[i]));
      if (std::isinf(old.back())) ++peer_timeouts;
    }
    worst_p95 = std::max(worst_p95, percentile(fresh, 95));
    std::string note = kind.note;
    if (timeouts > 0) note += fmt::format("; {} of longread's timed out", timeouts);
    if (peer_timeouts > 0) note += fmt::format("; {} of the peer's timed out", peer_timeouts);
    fmt::print("{:<26} {:>3} {:>9} {:>9} {:>9} {:>7.1f}ms {:>5.1f}  {:>3} {:>9} {:>9} {:>9}  {}\n", kind.name,
               fresh.size(), cell(fresh, 50), cell(fresh, 95), cell(fresh, 99), percentile(fresh_cpu, 95),
               static_cast<double>(hits) / static_cast<double>(std::max<std::size_t>(1, fresh.size())),
               old.size(), cell(old, 50), cell(old, 95), cell(old, 99), note);
  }
  if (std::isinf(worst_p95)) {
    fmt::print("worst p95 of the new search: >= {} ms (target: 100 ms)\n", kBudgetMs);
  } else {
    fmt::print("worst p95 of the new search: {:.1f} ms (target: 100 ms)\n", worst_p95);
  }
  return 0;
}

int run_sqlite(const std::string& path, int per_kind, int peer_per_kind, std::mt19937_64& rng) {
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

  std::vector<Kind> kinds = word_kinds(vocab, indexed, per_kind, rng);
  auto store = longread::storage::open_sqlite_store(path);
  if (!store) {
    fmt::print(stderr, "{}\n", store.error().message);
    return 1;
  }
  kinds.push_back(phrase_kind(**store, scalar(db.get(), "SELECT MAX(id) FROM articles"), per_kind, rng));

  auto old_search = prepare(db.get(), kOldSearch);
  auto old = [&](const std::string& query) {
    const std::string match = old_match(query);
    const auto start = Clock::now();
    sqlite3_reset(old_search.get());
    sqlite3_bind_text(old_search.get(), 1, match.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(old_search.get(), 2, 21);
    sqlite3_bind_int(old_search.get(), 3, 0);
    while (sqlite3_step(old_search.get()) == SQLITE_ROW) {
    }
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  };
  return run_kinds(**store, kinds, peer_per_kind, "old", old, nullptr);
}

// One value of a statement the bench cannot do without.
pg::Rows must(pg::Connection& conn, const std::string& sql, const pg::Params& params = {}) {
  auto rows = conn.exec(sql, params);
  if (!rows) {
    fmt::print(stderr, "search_bench: {}: {}\n", sql, rows.error().message);
    std::exit(1);
  }
  return std::move(*rows);
}

// CPU time the server's processes serving this bench have run so far (/proc/PID/schedstat, nanoseconds),
// for a server on this machine.
double server_cpu_ms(pg::Connection& conn) {
  auto rows = conn.exec(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = "
      "'search_bench'");
  if (!rows) return 0;
  double total = 0;
  for (int r = 0; r < rows->size(); ++r) {
    std::ifstream in(fmt::format("/proc/{}/schedstat", rows->int64(r, 0)));
    double ns = 0;
    if (in >> ns) total += ns * 1e-6;
  }
  return total;
}

int run_postgres(const std::string& url, int per_kind, int peer_per_kind, std::mt19937_64& rng) {
  // Every connection this process opens (the store's too) names it, so the server CPU counted is its own,
  // not that of a crawler or generator on the same database.
  setenv("PGAPPNAME", "search_bench", 1);
  auto opened = pg::Connection::open(url);
  if (!opened) {
    fmt::print(stderr, "{}\n", opened.error().message);
    return 1;
  }
  pg::Connection& conn = *opened;
  auto counts = must(conn,
                     "SELECT COUNT(*), COUNT(*) FILTER (WHERE visible = 1), COALESCE(MAX(id), 0),"
                     " pg_database_size(current_database()) FROM articles");
  const std::int64_t articles = counts.int64(0, 0);
  const std::int64_t indexed = counts.int64(0, 1);
  const std::int64_t max_id = counts.int64(0, 2);
  const auto bytes = static_cast<double>(counts.int64(0, 3));
  fmt::print("database: {} articles ({} searchable), {:.2f} GB, {:.0f} bytes per article\n", articles,
             indexed, bytes / 1e9, bytes / static_cast<double>(std::max<std::int64_t>(1, articles)));

  // The sample: every k-th id, about kSample articles; its document frequencies scaled to the whole.
  constexpr std::int64_t kSample = 50'000;
  const std::int64_t step = std::max<std::int64_t>(1, max_id / kSample);
  const auto vocab_start = Clock::now();
  auto sampled = must(conn, fmt::format("SELECT COUNT(*) FROM articles WHERE visible = 1 AND id IN "
                                        "(SELECT generate_series(1, {}, {}))",
                                        max_id, step));
  const double scale =
      static_cast<double>(indexed) / static_cast<double>(std::max<std::int64_t>(1, sampled.int64(0, 0)));
  auto database = pg::Database::open(url, 1);
  if (!database) {
    fmt::print(stderr, "{}\n", database.error().message);
    return 1;
  }
  std::map<std::string, std::int64_t> merged;
  longread::bench::for_each_article_text(
      conn, **database,
      fmt::format("a.visible = 1 AND a.id IN (SELECT generate_series(1, {}, {}))", max_id, step),
      [&](const longread::bench::ArticleTexts& batch) {
        for (std::size_t i = 0; i < batch.ids.size(); ++i) {
          std::set<std::string> words;
          for (const std::string* part : {&batch.titles[i], &batch.texts[i]}) {
            (*database)->tokenizer().for_each_token(*part, [&](std::string_view word) {
              words.emplace(word);
              return true;
            });
          }
          for (const std::string& word : words) ++merged[word];
        }
      });
  std::vector<std::pair<std::string, std::int64_t>> vocab;
  for (auto& [word, count] : merged) {
    std::string term = word;
    // Letters only, as on SQLite: numbers and pieces of URLs are words too, which nobody searches for.
    if (std::all_of(term.begin(), term.end(), [](char c) { return c >= 'a' && c <= 'z'; }) &&
        term.size() >= 3)
      vocab.emplace_back(std::move(term), std::llround(static_cast<double>(count) * scale));
  }
  fmt::print("index: {} words read from a sample of {} articles in {:.1f} s\n", vocab.size(),
             sampled.int64(0, 0), std::chrono::duration<double>(Clock::now() - vocab_start).count());

  std::vector<Kind> kinds = word_kinds(vocab, indexed, per_kind, rng);
  auto store = longread::storage::open_store(url);
  if (!store) {
    fmt::print(stderr, "{}\n", store.error().message);
    return 1;
  }
  kinds.push_back(phrase_kind(**store, std::max<std::int64_t>(1, max_id), per_kind, rng));

  // The peer's table: every article's vector with its common words put back, indexed as articles is.
  const auto peer_start = Clock::now();
  must(conn, "DROP TABLE IF EXISTS search_bench_peer");  // left by a run that stopped half-way
  // Without autovacuum, which would otherwise vacuum and analyze the new table while longread's searches are
  // timed (VACUUM ANALYZE here instead), and only when the peer runs.
  if (peer_per_kind > 0) {
    must(conn,
         "CREATE TABLE search_bench_peer (id BIGINT PRIMARY KEY, title TEXT, visible INTEGER, display_at"
         " BIGINT, search_vector TSVECTOR) WITH (autovacuum_enabled = off)");
    longread::bench::for_each_article_text(
        conn, **database, "true", [&](const longread::bench::ArticleTexts& batch) {
          must(conn,
               "INSERT INTO search_bench_peer SELECT u.id, u.title, u.visible, u.display_at,"
               " to_tsvector('longread_search', u.title) || to_tsvector('longread_search', u.text)"
               " FROM unnest($1::bigint[], $2::text[], $3::int[], $4::bigint[], $5::text[])"
               " AS u(id, title, visible, display_at, text)",
               pg::Params(pg::id_array(batch.ids), pg::text_array(batch.titles), pg::id_array(batch.visible),
                          pg::id_array(batch.display_at), pg::text_array(batch.texts)));
        });
    must(conn, "CREATE INDEX ON search_bench_peer USING gin (search_vector) WHERE visible = 1");
    must(conn, "VACUUM ANALYZE search_bench_peer");
    fmt::print("peer: its table of full vectors made in {:.1f} s\n",
               std::chrono::duration<double>(Clock::now() - peer_start).count());
  }
  struct DropPeer {
    pg::Connection& conn;
    ~DropPeer() { (void)conn.exec("DROP TABLE IF EXISTS search_bench_peer"); }
  } drop_peer{conn};

  must(conn, fmt::format("SET statement_timeout = {}", kBudgetMs));
  auto miniflux = [&](const std::string& query) {
    const auto start = Clock::now();
    auto rows = conn.exec(kMinifluxSearch, pg::Params(query, 21));
    if (!rows) {
      if (rows.error().message.find("57014") != std::string::npos) return kTimedOut;  // query_canceled
      fmt::print(stderr, "search_bench: the peer's search: {}\n", rows.error().message);
      std::exit(1);
    }
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  };
  return run_kinds(**store, kinds, peer_per_kind, "mfx", miniflux, [&] { return server_cpu_ms(conn); });
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: search_bench DB [QUERIES] [PEER_QUERIES] [SEED]\n");
    return 2;
  }
  const std::string db = argv[1];
  const int per_kind = argc > 2 ? std::max(1, std::atoi(argv[2])) : 40;
  const int peer_per_kind = argc > 3 ? std::max(0, std::atoi(argv[3])) : 10;
  std::mt19937_64 rng(argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 7);
  return pg::is_postgres_url(db) ? run_postgres(db, per_kind, peer_per_kind, rng)
                                 : run_sqlite(db, per_kind, peer_per_kind, rng);
}
