// ranking_report: the first two pages of Hot on a crawled database, measured three ways: the old hot
// formula (log10(1 + votes) + age in days, no prior, no cap: computed here in SQL, since the store no
// longer orders by it), the stored score alone (prior, no cap) and the site's order (prior and the
// per-blog cap, Store::hot_page). For each: how many of the articles the 3 busiest blogs take, how many
// blogs appear, the median words, and how many reach 300 and 1,000 words (docs/ranking.md, docs/perf.md).
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "storage/store.h"

namespace {

namespace storage = longread::storage;

struct Item {
  std::int64_t blog_id = 0;
  std::string blog;
  int words = 0;
};

// The old hot order (migrations 0005/0006): what Hot showed before the prior and the cap.
constexpr const char* kOldHot =
    "SELECT a.blog_id, b.title, a.word_count FROM articles a JOIN blogs b ON b.id = a.blog_id"
    " WHERE a.visible = 1 ORDER BY log10(1 + a.votes) + (MIN(a.display_at, a.first_seen) - 1577836800)"
    " / 86400.0 DESC, a.display_at DESC, a.id DESC LIMIT ?";

std::vector<Item> old_order(const std::string& path, int n) {
  std::vector<Item> out;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    fmt::print(stderr, "ranking_report: cannot open {}\n", path);
    sqlite3_close(db);
    return out;
  }
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, kOldHot, -1, &stmt, nullptr) == SQLITE_OK) {
    sqlite3_bind_int(stmt, 1, n);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      const auto* title = sqlite3_column_text(stmt, 1);
      out.push_back({sqlite3_column_int64(stmt, 0), title ? reinterpret_cast<const char*>(title) : "",
                     sqlite3_column_int(stmt, 2)});
    }
  } else {
    fmt::print(stderr, "ranking_report: {}\n", sqlite3_errmsg(db));
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

std::vector<Item> items(const std::vector<storage::ArticleView>& views) {
  std::vector<Item> out;
  for (const auto& v : views) out.push_back({v.article.blog_id, v.blog_title, v.article.word_count});
  return out;
}

void report(const char* name, const std::vector<Item>& list) {
  if (list.empty()) {
    fmt::print("{:<34} (no articles)\n", name);
    return;
  }
  std::map<std::int64_t, int> per_blog;
  std::map<std::int64_t, std::string> names;
  for (const auto& item : list) {
    ++per_blog[item.blog_id];
    names[item.blog_id] = item.blog;
  }
  std::vector<std::pair<int, std::int64_t>> busiest;
  for (const auto& [blog, n] : per_blog) busiest.emplace_back(n, blog);
  std::ranges::sort(busiest, std::greater<>());
  int top3 = 0;
  std::string who;
  for (std::size_t i = 0; i < std::min<std::size_t>(3, busiest.size()); ++i) {
    top3 += busiest[i].first;
    who +=
        fmt::format("{}{} {}", i == 0 ? "" : ", ", names[busiest[i].second].substr(0, 28), busiest[i].first);
  }
  std::vector<int> words;
  for (const auto& item : list) words.push_back(item.words);
  std::ranges::sort(words);
  const double median = words.size() % 2 == 1 ? words[words.size() / 2]
                                              : (words[words.size() / 2 - 1] + words[words.size() / 2]) / 2.0;
  const auto under_300 = std::ranges::count_if(words, [](int w) { return w < 300; });
  const auto over_1000 = std::ranges::count_if(words, [](int w) { return w >= 1000; });
  fmt::print(
      "{:<34} {:>2} articles, {:>2} blogs, 3 busiest {:>2}/{} ({:>3.0f}%), median {:>4.0f} words, "
      "<300: {:>2}, >=1000: {:>2}\n{:<34} busiest: {}\n",
      name, list.size(), per_blog.size(), top3, list.size(), 100.0 * top3 / list.size(), median, under_300,
      over_1000, "", who);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"What the first two pages of Hot hold, before and after the fair ranking"};
  std::string db_path;
  int page_size = 25;
  int cap = 2;
  app.add_option("--db", db_path, "crawled database")->required();
  app.add_option("--page-size", page_size, "articles per page (the site's is 25)");
  app.add_option("--cap", cap, "articles of one blog per page (ranking.per_blog_cap)");
  CLI11_PARSE(app, argc, argv);

  auto store = storage::open_sqlite_store(db_path);
  if (!store) {
    fmt::print(stderr, "ranking_report: {}\n", store.error().message);
    return 1;
  }
  auto visible = (*store)->count_articles({});
  auto blogs = (*store)->blogs();
  if (!visible || !blogs) {
    fmt::print(stderr, "ranking_report: cannot read the store\n");
    return 1;
  }
  const auto with_articles = std::ranges::count_if(*blogs, [](const auto& b) { return b.article_count > 0; });
  fmt::print("{} visible articles from {} blogs; first two pages of Hot ({} per page):\n", *visible,
             with_articles, page_size);

  report("before (old formula, no cap)", old_order(db_path, 2 * page_size));
  std::vector<storage::ArticleView> plain;
  std::vector<storage::ArticleView> capped;
  for (int page = 1; page <= 2; ++page) {
    auto p = (*store)->hot_page({.page = page, .page_size = page_size});
    auto c = (*store)->hot_page({.page = page, .page_size = page_size, .per_blog_cap = cap});
    if (!p || !c) {
      fmt::print(stderr, "ranking_report: {}\n", (!p ? p.error() : c.error()).message);
      return 1;
    }
    plain.insert(plain.end(), p->articles.begin(), p->articles.end());
    capped.insert(capped.end(), c->articles.begin(), c->articles.end());
  }
  report("prior only (no cap)", items(plain));
  report(fmt::format("after (prior + {} per blog per page)", cap).c_str(), items(capped));
  return 0;
}
