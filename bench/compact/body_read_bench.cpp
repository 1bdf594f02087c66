// body_read_bench DB [N]: the read cost of an article page's body on one database, in either form.
// Prints, over N (default 2000) random articles: Store::article() (the page's one read: row, blog and
// body; warm page cache, each id read once before timing), and, for rows stored compressed, the
// decompression alone (BodyDictionaries::unpack on the stored frame); and the first listing page of 30
// (newest; its excerpts are read from the bodies). p50/p95/p99 in microseconds.
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "storage/sqlite/article_body.h"
#include "storage/store.h"

namespace {

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::ranges::sort(v);
  return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}

std::string line(const char* what, const std::vector<double>& us) {
  return fmt::format("{:<34} n {:>5}  p50 {:>7.1f} us  p95 {:>7.1f} us  p99 {:>7.1f} us", what, us.size(),
                     percentile(us, 0.5), percentile(us, 0.95), percentile(us, 0.99));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: body_read_bench DB [N]\n");
    return 2;
  }
  const std::string path = argv[1];
  const int n = argc > 2 ? std::stoi(argv[2]) : 2000;
  auto store = longread::storage::open_sqlite_store(path);
  if (!store) {
    std::fprintf(stderr, "%s\n", store.error().message.c_str());
    return 1;
  }
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) return 1;
  std::unique_ptr<sqlite3, decltype(&sqlite3_close)> guard(db, &sqlite3_close);
  std::int64_t max_id = 0;
  {
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db, "SELECT MAX(id) FROM articles", -1, &s, nullptr);
    if (sqlite3_step(s) == SQLITE_ROW) max_id = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
  }
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<std::int64_t> pick(1, std::max<std::int64_t>(max_id, 1));
  std::vector<std::int64_t> ids;
  for (int i = 0; i < n; ++i) ids.push_back(pick(rng));
  for (const auto id : ids) (void)(*store)->article(id);  // warm the page cache

  std::vector<double> page_us;
  std::size_t bytes = 0;
  for (const auto id : ids) {
    const auto t0 = std::chrono::steady_clock::now();
    auto a = (*store)->article(id);
    const auto t1 = std::chrono::steady_clock::now();
    if (!a) {
      std::fprintf(stderr, "%s\n", a.error().message.c_str());
      return 1;
    }
    if (*a) bytes += (*a)->article.content_html.size() + (*a)->article.text.size();
    page_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }

  // The first listing page (newest, 30 rows), 200 times: its excerpts come from the bodies. (Deeper pages
  // cost the same per row: keyset pagination seeks, docs/perf.md "Listings at any depth".)
  std::vector<double> listing_us;
  for (int round = 0; round < 2; ++round) {  // the first round warms the page cache
    for (int i = 0; i < 200; ++i) {
      longread::storage::ArticleQuery query;
      query.limit = 30;
      const auto t0 = std::chrono::steady_clock::now();
      auto rows = (*store)->articles(query);
      const auto t1 = std::chrono::steady_clock::now();
      if (!rows) {
        std::fprintf(stderr, "%s\n", rows.error().message.c_str());
        return 1;
      }
      if (round == 1) listing_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
  }

  // Decompression alone, on the stored frames.
  longread::storage::sqlite::BodyDictionaries dictionaries;
  std::vector<double> unpack_us;
  sqlite3_stmt* s = nullptr;
  sqlite3_prepare_v2(db, "SELECT body FROM articles WHERE id = ?1 AND body IS NOT NULL", -1, &s, nullptr);
  for (int pass = 0; pass < 2; ++pass) {  // the first pass loads the dictionaries
    for (const auto id : ids) {
      sqlite3_bind_int64(s, 1, id);
      if (sqlite3_step(s) == SQLITE_ROW) {
        const std::string frame(static_cast<const char*>(sqlite3_column_blob(s, 0)),
                                static_cast<std::size_t>(sqlite3_column_bytes(s, 0)));
        const auto t0 = std::chrono::steady_clock::now();
        auto body = dictionaries.unpack(longread::storage::sqlite::SqliteBodyDictionaries(db), frame);
        const auto t1 = std::chrono::steady_clock::now();
        if (!body) {
          std::fprintf(stderr, "%s\n", body.error().message.c_str());
          return 1;
        }
        if (pass == 1) unpack_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      }
      sqlite3_reset(s);
    }
  }
  sqlite3_finalize(s);
  fmt::print("{}  (mean content+text {} bytes)\n", line("article page read (Store::article)", page_us),
             page_us.empty() ? 0 : bytes / page_us.size());
  if (!unpack_us.empty()) fmt::print("{}\n", line("decompress body only", unpack_us));
  fmt::print("{}\n", line("listing page of 30 (newest, first)", listing_us));
  return 0;
}
