#include "storage/tools/measure_listings.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

namespace longread::storage::tools {
namespace {

constexpr int kPageSize = 25;

struct Percentiles {
  double p50 = 0, p95 = 0, p99 = 0;
};

Percentiles percentiles(std::vector<double> samples) {
  std::ranges::sort(samples);
  auto at = [&](double q) {
    const auto i = static_cast<std::size_t>(q * static_cast<double>(samples.size() - 1) + 0.5);
    return samples[std::min(i, samples.size() - 1)];
  };
  return {at(0.50), at(0.95), at(0.99)};
}

// One page of a listing from a cursor ("" = the first page).
using PageCall = std::function<Result<ArticlePage>(const std::string& after)>;

// Times `rounds` calls of `call` (after one warm-up) and prints its percentiles in ms.
bool time_calls(const std::string& name, int rounds, const std::function<bool()>& call) {
  if (!call()) return false;
  std::vector<double> ms;
  ms.reserve(static_cast<std::size_t>(rounds));
  for (int i = 0; i < rounds; ++i) {
    const auto start = std::chrono::steady_clock::now();
    if (!call()) return false;
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  const auto p = percentiles(std::move(ms));
  fmt::print("  {:<52} p50 {:>7.2f} ms  p95 {:>7.2f} ms  p99 {:>7.2f} ms\n", name, p.p50, p.p95, p.p99);
  return true;
}

bool measure_listing(const std::string& name, const PageCall& page, int rounds, int deep_page) {
  auto ok = [&](const Result<ArticlePage>& r) {
    if (!r) fmt::print(stderr, "{}: {}\n", name, r.error().message);
    return r.has_value();
  };
  if (!time_calls(name + ", page 1", rounds, [&] { return ok(page("")); })) return false;
  // Follow the cursors down to the deep page (or the last one).
  std::string cursor;
  int reached = 1;
  while (reached < deep_page) {
    auto p = page(cursor);
    if (!ok(p)) return false;
    if (!p->has_more) break;
    cursor = p->next;
    ++reached;
  }
  if (reached == 1) return true;
  return time_calls(fmt::format("{}, page {}{}", name, reached, reached < deep_page ? " (last)" : ""), rounds,
                    [&] { return ok(page(cursor)); });
}

}  // namespace

std::int64_t cast_votes(Store& store, std::int64_t votes, int readers, std::uint64_t seed, TimePoint now) {
  const std::int64_t articles = store.article_count().value_or(0);
  if (articles <= 0 || votes <= 0) return 0;
  std::vector<std::int64_t> reader_ids;
  for (int r = 0; r < readers; ++r) {
    const std::string email = fmt::format("reader-{}@generate.example", r);
    auto existing = store.reader_by_email(email);
    if (!existing) return -1;
    if (*existing) {
      reader_ids.push_back((*existing)->id);
      continue;
    }
    auto id = store.create_reader(email, "generated", now, now);
    if (!id) {
      fmt::print(stderr, "{}\n", id.error().message);
      return -1;
    }
    reader_ids.push_back(*id);
  }
  std::mt19937_64 rng(seed ^ 0x766f746573ULL);
  std::uniform_int_distribution<std::int64_t> article(1, articles);
  std::uniform_int_distribution<std::size_t> reader(0, reader_ids.size() - 1);
  std::uniform_int_distribution<std::int64_t> age(0, 30LL * 86'400 - 1);
  std::int64_t cast = 0;
  for (std::int64_t i = 0; i < votes; ++i) {
    auto state =
        store.set_vote(reader_ids[reader(rng)], article(rng), true, now - std::chrono::seconds(age(rng)));
    if (!state) {
      if (state.error().kind == ErrorKind::kNotFound) continue;  // a junk article
      fmt::print(stderr, "{}\n", state.error().message);
      return -1;
    }
    ++cast;
  }
  return cast;
}

bool measure_listings(Store& store, int rounds, int deep_page, TimePoint /*now*/) {
  auto listing = [&store](ArticleQuery query) -> PageCall {
    query.limit = kPageSize;
    return [&store, query](const std::string& after) {
      ArticleQuery q = query;
      q.after = after;
      return store.article_page(q);
    };
  };
  auto hot = [&store](HotPageQuery query) -> PageCall {
    query.page_size = kPageSize;
    return [&store, query](const std::string& after) {
      HotPageQuery q = query;
      q.after = after;
      return store.hot_page(q);
    };
  };
  // The pages as the site asks for them (src/ui/pages): Hot and a category with 2 per blog per page.
  const std::vector<std::pair<std::string, PageCall>> listings = {
      {"newest", listing({})},
      {"hot (2 per blog)", hot({.per_blog_cap = 2})},
      {"hot (no cap)", hot({})},
      {"category hot (2 per blog)", hot({.category = "history", .per_blog_cap = 2})},
      {"category newest", listing({.category = "history"})},
      {"blog newest", listing({.blog_id = 7})},
      {"top all time", listing({.voted_only = true, .order = ArticleOrder::kTop})},
      {"top this week (votes cast)",
       listing({.vote_period = VotePeriod::kWeek, .order = ArticleOrder::kTop})},
      {"top this month (votes cast)",
       listing({.vote_period = VotePeriod::kMonth, .order = ArticleOrder::kTop})},
  };
  fmt::print("listing timings ({} rounds each, {} per page, deep page by following cursors):\n", rounds,
             kPageSize);
  for (const auto& [name, call] : listings) {
    if (!measure_listing(name, call, rounds, deep_page)) return false;
  }
  // What a deep page cost before cursors, for comparison: OFFSET, and the capped walk from the top.
  const int offset = (deep_page - 1) * kPageSize;
  return time_calls(fmt::format("newest, page {} by OFFSET {} (before)", deep_page, offset), rounds,
                    [&] { return store.article_page({.limit = kPageSize, .offset = offset}).has_value(); }) &&
         time_calls(fmt::format("hot (2 per blog), page {} walked from the top (before)", deep_page), rounds,
                    [&] {
                      return store.hot_page({.page = deep_page, .page_size = kPageSize, .per_blog_cap = 2})
                          .has_value();
                    });
}

}  // namespace longread::storage::tools
