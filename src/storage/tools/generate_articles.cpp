// longread-generate: fills a database with synthetic but plausible blogs and articles (titles,
// multi-paragraph text, excerpts, dates over two years, heavy-tailed votes; the store derives the hot
// score) for benchmarks. Deterministic for a given --seed. Writes through the Store, so the data is what
// the site reads.
//
// Two ways of writing text:
//   - realistic (the default): word frequencies, words per sentence, sentences per paragraph, paragraphs
//     per article and title shapes drawn from a model learned from real blog posts (corpus_model.txt,
//     made by bench/scale/corpus_model from the real-feeds corpus and built into the binary; --model
//     reads another). Words are drawn by their corpus frequency (Zipf-like, 16,000 distinct), plus a few
//     topic words per article that recur in it, as words of a real post do; so a word's document
//     frequency is like a real site's, from "the" in every article down to words in a fraction of 1 %.
//   - --worst-case: the old 106-word vocabulary, where every noun is in ~90 % of the articles: the worst
//     case for search (every query word matches nearly everything).
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

#include "core/strings.h"
#include "core/time.h"
#include "storage/store.h"
#include "storage/tools/corpus_text.h"
#include "storage/tools/measure_listings.h"

namespace {

using longread::TimePoint;
using longread::generate::CorpusModel;
using longread::generate::RealisticGenerator;
namespace storage = longread::storage;
namespace model = longread::model;

constexpr std::array kCategories = {"programming", "history",    "science", "economics", "design",
                                    "politics",    "philosophy", "writing", "culture",   "travel"};

constexpr std::array kAuthors = {"Ada",   "Brian",  "Chiara", "Dmitri", "Eliza",  "Farid",  "Grace", "Hiro",
                                 "Ines",  "Jonas",  "Kemal",  "Lena",   "Mateo",  "Nadia",  "Oskar", "Priya",
                                 "Quinn", "Rafael", "Sofia",  "Tomasz", "Ulrike", "Viktor", "Wen",   "Yusuf"};

constexpr std::array kNouns = {
    "compiler",   "garden",    "archive",   "protocol", "river",    "market",    "library",   "engine",
    "memory",     "border",    "language",  "theory",   "kitchen",  "network",   "empire",    "machine",
    "city",       "ritual",    "interface", "ledger",   "harbour",  "algorithm", "cathedral", "railway",
    "experiment", "map",       "letter",    "forest",   "database", "election",  "museum",    "typeface",
    "telescope",  "newspaper", "bridge",    "queue",    "printing", "currency",  "island",    "university"};
constexpr std::array kAdjectives = {"forgotten", "quiet",   "distributed", "medieval", "slow",
                                    "careful",   "broken",  "invisible",   "lazy",     "ancient",
                                    "practical", "strange", "small",       "honest",   "concurrent",
                                    "rural",     "modern",  "unfinished"};
constexpr std::array kVerbs = {"shapes",  "breaks",      "explains", "survives", "remembers", "hides",
                               "changes", "outlives",    "connects", "resists",  "measures",  "predicts",
                               "teaches", "complicates", "rewards",  "ignores"};
constexpr std::array kFiller = {"the",  "of",      "and",   "a",     "to",      "in",       "that",  "it",
                                "was",  "for",     "on",    "with",  "as",      "by",       "this",  "which",
                                "but",  "from",    "not",   "were",  "when",    "more",     "than",  "into",
                                "over", "because", "while", "after", "perhaps", "although", "every", "some"};

class TextGenerator {
 public:
  explicit TextGenerator(std::uint64_t seed) : rng_(seed) {}

  template <typename Array>
  const char* pick(const Array& words) {
    return words[std::uniform_int_distribution<std::size_t>(0, words.size() - 1)(rng_)];
  }
  int between(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double unit() { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_); }

  std::string title() {
    switch (between(0, 5)) {
      case 0:
        return fmt::format("The {} {}", pick(kAdjectives), pick(kNouns));
      case 1:
        return fmt::format("How the {} {} the {}", pick(kNouns), pick(kVerbs), pick(kNouns));
      case 2:
        return fmt::format("Notes on a {} {}", pick(kAdjectives), pick(kNouns));
      case 3:
        return fmt::format("Why every {} {} its {}", pick(kNouns), pick(kVerbs), pick(kNouns));
      case 4:
        return fmt::format("What I learned building a {} {}", pick(kAdjectives), pick(kNouns));
      default:
        return fmt::format("A {} history of the {}", pick(kAdjectives), pick(kNouns));
    }
  }

  std::string sentence() {
    std::string s;
    const int words = between(8, 24);
    for (int i = 0; i < words; ++i) {
      const double r = unit();
      const char* w = r < 0.55  ? pick(kFiller)
                      : r < 0.8 ? pick(kNouns)
                      : r < 0.9 ? pick(kAdjectives)
                                : pick(kVerbs);
      if (i == 0) {
        s += static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
        s += w + 1;
      } else {
        s += ' ';
        s += w;
      }
      if (i > 2 && i + 2 < words && unit() < 0.06) s += ',';
    }
    s += '.';
    return s;
  }

  std::vector<std::string> paragraphs() {
    std::vector<std::string> out(static_cast<std::size_t>(between(3, 7)));
    for (auto& p : out) {
      const int sentences = between(3, 7);
      for (int i = 0; i < sentences; ++i) {
        if (i > 0) p += ' ';
        p += sentence();
      }
    }
    return out;
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

void new_topic(TextGenerator&) {}  // the worst case has no topics: every word is everywhere
void new_topic(RealisticGenerator& gen) {
  gen.new_topic();
}

template <typename Generator>
model::Article make_article(Generator& gen, int index, const std::string& blog_category, TimePoint now) {
  model::Article a;
  a.guid = fmt::format("urn:longread-generate:{}", index);
  new_topic(gen);
  a.title = gen.title();
  a.author = gen.pick(kAuthors);
  // Spread over two years; newer articles a little more likely (blogs that are still active).
  const double age_days = 730.0 * std::pow(gen.unit(), 1.3);
  const auto published = now - std::chrono::seconds(static_cast<std::int64_t>(age_days * 86'400));
  a.published = published;
  a.first_seen = published + std::chrono::minutes(gen.between(5, 120));
  a.link = fmt::format("https://blog.example/{}/{}", index, longread::slugify(a.title));

  const auto paragraphs = gen.paragraphs();
  std::string text;
  for (const auto& p : paragraphs) {
    a.content_html += "<p>" + p + "</p>\n";
    if (!text.empty()) text += "\n\n";
    text += p;
  }
  a.summary_html = "<p>" + paragraphs.front() + "</p>";
  a.excerpt = longread::truncate_words(text, 2000);
  a.word_count = static_cast<int>(longread::count_words(text));
  a.reading_minutes = std::max(1, (a.word_count + 229) / 230);
  a.text = std::move(text);
  a.category = gen.unit() < 0.85 ? blog_category : gen.pick(kCategories);
  a.junk = gen.unit() < 0.03;
  if (a.junk) a.junk_reason = "too short";
  a.simhash = gen.rng()();

  // Heavy-tailed votes: most articles get a few, a handful get hundreds.
  a.votes = static_cast<int>(std::floor(std::exp(gen.unit() * gen.unit() * 6.5))) - 1;
  return a;
}

// Times the queries the site's pages make (warm cache, one thread) and prints the mean per call.
bool measure_queries(storage::Store& store, int rounds, TimePoint now) {
  auto time_it = [&](const char* name, auto&& call) {
    if (!call()) return false;  // warm up, and stop on the first error
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < rounds; ++i) {
      if (!call()) return false;
    }
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / rounds;
    fmt::print("  {:<44} {:>9.1f} us/call\n", name, us);
    return true;
  };
  auto list = [&](storage::ArticleQuery q) { return [&store, q] { return store.articles(q).has_value(); }; };
  auto count = [&](storage::ArticleQuery q) {
    return [&store, q] { return store.count_articles(q).has_value(); };
  };
  auto hot = [&](storage::HotPageQuery q) { return [&store, q] { return store.hot_page(q).has_value(); }; };
  auto search = [&](const char* terms) {
    return [&store, terms] { return store.search(terms, 20, 0).has_value(); };
  };
  fmt::print("query timings ({} rounds each):\n", rounds);
  return time_it("articles newest, page 1", list({})) &&
         time_it("articles newest, page 100 (offset 2970)", list({.offset = 2970})) &&
         time_it("articles top", list({.order = storage::ArticleOrder::kTop})) &&
         time_it("articles top this week (since)",
                 list({.since = now - std::chrono::days(7), .order = storage::ArticleOrder::kTop})) &&
         time_it("top this week (votes cast)",
                 list({.vote_period = storage::VotePeriod::kWeek, .order = storage::ArticleOrder::kTop})) &&
         time_it("hot_page 1, 2 per blog", hot({.page = 1, .per_blog_cap = 2})) &&
         time_it("hot_page 40, 2 per blog", hot({.page = 40, .per_blog_cap = 2})) &&
         time_it("hot_page 1 of a category, 2 per blog",
                 hot({.category = "history", .page = 1, .per_blog_cap = 2})) &&
         time_it("more in a category (5, one per blog)", hot({.category = "history",
                                                              .exclude_blog_id = 7,
                                                              .page_size = 5,
                                                              .per_blog_cap = 1,
                                                              .strict_cap = true})) &&
         time_it("articles hot", list({.order = storage::ArticleOrder::kHot})) &&
         time_it("articles by category, newest", list({.category = "history"})) &&
         time_it("articles by category, hot",
                 list({.category = "history", .order = storage::ArticleOrder::kHot})) &&
         time_it("articles by blog, newest", list({.blog_id = 7})) &&
         time_it("count_articles (all visible)", count({})) &&
         time_it("count_articles (category)", count({.category = "history"})) &&
         time_it("article(id) with body", [&] { return store.article(4242).has_value(); }) &&
         time_it("categories() with counts", [&] { return store.categories().has_value(); }) &&
         time_it("blogs() with counts", [&] { return store.blogs().has_value(); }) &&
         time_it("search \"compiler\" (1 common term)", search("compiler")) &&
         time_it("search \"forgotten compiler\" (2 terms)", search("forgotten compiler")) &&
         time_it("search \"telescope cathedral ledger\"", search("telescope cathedral ledger"));
}

struct Options {
  std::string db_path;
  int article_total = 0, blog_total = 0, batch = 0;
};

// Writes the blogs and articles; `gen` decides how the text reads.
template <typename Generator>
int generate(Generator& gen, storage::Store& store, const Options& options, TimePoint now,
             std::chrono::steady_clock::time_point started) {
  const auto& [db_path, article_total, blog_total, batch] = options;

  std::vector<std::int64_t> blog_ids;
  std::vector<std::string> blog_categories;
  for (int b = 0; b < blog_total; ++b) {
    const std::string category = kCategories[static_cast<std::size_t>(b) % kCategories.size()];
    storage::BlogSeed seed_blog{.feed_url = fmt::format("https://blog-{}.example/feed.xml", b),
                                .site_url = fmt::format("https://blog-{}.example/", b),
                                .title = fmt::format("{}'s {} notes", gen.pick(kAuthors), category),
                                .category = category};
    auto id = store.upsert_blog(seed_blog);
    if (!id) {
      fmt::print(stderr, "{}\n", id.error().message);
      return 1;
    }
    blog_ids.push_back(*id);
    blog_categories.push_back(category);
  }

  // Each blog gets an equal share of the articles, saved in crawls of at most `batch` articles, each
  // crawl one transaction. One thread makes the next blog's crawls while this one writes (2 cores).
  int written = 0;
  auto make_crawls = [&](std::size_t b) {
    std::vector<storage::CrawlRecord> records;
    const int share = article_total / blog_total + (static_cast<int>(b) < article_total % blog_total ? 1 : 0);
    for (int done = 0; done < share;) {
      storage::CrawlRecord& record = records.emplace_back();
      record.blog_id = blog_ids[b];
      record.attempted_at = now;
      record.success = true;
      record.status = "ok";
      record.next_due_at = now + std::chrono::hours(1);
      const int count = std::min(batch, share - done);
      record.articles.reserve(static_cast<std::size_t>(count));
      for (int i = 0; i < count; ++i) {
        record.articles.push_back(make_article(gen, written++, blog_categories[b], now));
      }
      done += count;
    }
    return records;
  };
  std::int64_t inserted = 0;
  bool dictionary_trained = false;
  auto next = std::async(std::launch::async, make_crawls, 0);
  for (std::size_t b = 0; b < blog_ids.size(); ++b) {
    auto records = next.get();
    if (b + 1 < blog_ids.size()) next = std::async(std::launch::async, make_crawls, b + 1);
    for (const auto& record : records) {
      auto stats = store.save_crawl(record);
      if (!stats) {
        fmt::print(stderr, "{}\n", stats.error().message);
        if (next.valid()) next.wait();
        return 1;
      }
      inserted += stats->inserted;
    }
    // As a crawl does, the first body dictionary once there are enough articles: the rest are compressed
    // with it.
    if (!dictionary_trained) {
      auto trained = store.train_first_body_dictionary();
      if (!trained) {
        fmt::print(stderr, "{}\n", trained.error().message);
        if (next.valid()) next.wait();
        return 1;
      }
      dictionary_trained = trained->has_value();
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  fmt::print("{} blogs, {} articles inserted ({} in the database) into {} in {:.1f} s\n", blog_total,
             inserted, store.article_count().value_or(-1), db_path, seconds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Fill a longread database with synthetic blogs and articles (for benchmarks)"};
  std::string db_path = "data/longread.db";
  int article_total = 100'000;
  int blog_total = 200;
  int batch = 5'000;
  std::uint64_t seed = 42;
  int measure_rounds = 0;
  app.add_option("--db", db_path, "SQLite file (created if missing) or postgresql:// URL")
      ->capture_default_str();
  app.add_option("-n,--articles", article_total,
                 "number of articles (0: only --measure an existing database)")
      ->capture_default_str()
      ->check(CLI::Range(0, 100'000'000));
  app.add_option("-b,--blogs", blog_total, "number of blogs")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--batch", batch, "articles per transaction (at most)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--seed", seed, "random seed")->capture_default_str();
  bool worst_case = false;
  std::string model_path;
  app.add_flag("--worst-case", worst_case,
               "the old 106-word vocabulary (every noun in ~90 % of articles) instead of the corpus model");
  app.add_option("--model", model_path, "corpus model file (default: the built-in one, from real-feeds)")
      ->excludes("--worst-case");
  app.add_option("--measure", measure_rounds, "then time each listing/search query this many times (0: skip)")
      ->check(CLI::Range(0, 100'000'000));
  std::int64_t votes = 0;
  int deep_page = 500;
  bool listings_only = false;
  app.add_option("--votes", votes,
                 "then cast this many votes from 1,000 generated readers on random articles over the last 30 "
                 "days (Top by period counts them)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{100'000'000}));
  app.add_option("--deep-page", deep_page, "the deep page --measure times each listing at (after page 1)")
      ->capture_default_str()
      ->check(CLI::Range(2, 100'000));
  app.add_flag("--listings-only", listings_only, "--measure times the listings only (not the other queries)");
  CLI11_PARSE(app, argc, argv);

  const auto started = std::chrono::steady_clock::now();
  auto store = storage::open_store(db_path);
  if (!store) {
    fmt::print(stderr, "{}\n", store.error().message);
    return 1;
  }
  const TimePoint now = longread::now_seconds();
  // After generating (or at once for -n 0): the votes, then the measurements.
  auto finish = [&] {
    if (votes > 0) {
      const auto vote_start = std::chrono::steady_clock::now();
      const std::int64_t cast = longread::storage::tools::cast_votes(**store, votes, 1000, seed, now);
      if (cast < 0) return 1;
      fmt::print("{} votes cast in {:.1f} s\n", cast,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - vote_start).count());
    }
    // The site ages Top's period counts every minute; a database from an older binary, or votes cast
    // into the past just now, need it once before the listings mean what the site would show.
    const auto aging_start = std::chrono::steady_clock::now();
    auto aged = (**store).age_period_votes(now);
    if (!aged) {
      fmt::print(stderr, "{}\n", aged.error().message);
      return 1;
    }
    fmt::print("{} votes aged out of Top's periods in {:.1f} s\n", *aged,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - aging_start).count());
    if (measure_rounds == 0) return 0;
    return (listings_only || measure_queries(**store, measure_rounds, now)) &&
                   longread::storage::tools::measure_listings(**store, measure_rounds, deep_page, now)
               ? 0
               : 1;
  };
  if (article_total == 0) return finish();

  const Options options{db_path, article_total, blog_total, batch};
  if (worst_case) {
    TextGenerator gen(seed);
    const int generated = generate(gen, **store, options, now, started);
    return generated != 0 ? generated : finish();
  }
  std::string model_text = longread::generate::builtin_corpus_model();
  if (!model_path.empty()) {
    std::ifstream in(model_path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    if (!in) {
      fmt::print(stderr, "generate: cannot read {}\n", model_path);
      return 1;
    }
    model_text = ss.str();
  }
  auto model = longread::generate::parse_corpus_model(model_text);
  if (!model) {
    fmt::print(stderr, "generate: bad corpus model {}: {}\n", model_path.empty() ? "(built in)" : model_path,
               model.error());
    return 1;
  }
  RealisticGenerator gen(*model, seed);
  const int generated = generate(gen, **store, options, now, started);
  return generated != 0 ? generated : finish();
}
