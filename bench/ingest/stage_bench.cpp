// stage_bench DIR [REPS]: where ingest CPU time goes, stage by stage, on one thread. Parses every feed file
// under DIR (same selection as bench/parse), then runs each curation stage of the crawl over every entry
// REPS times and prints thread CPU microseconds per entry for each. It also prints a digest of every
// stage's output (texts, excerpts, simhashes, languages, verdicts) so that an optimisation can be checked
// to change no result: the digest before and after must be equal.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "../common/corpus.h"
#include "core/strings.h"
#include "curate/curate.h"
#include "feed/feed.h"
#include "html/compare.h"
#include "html/dom.h"
#include "html/html.h"
#include "pipeline/article_builder.h"
#include "storage/postgres/common_words.h"
#include "storage/postgres/search_vectors.h"
#include "storage/search_tokenizer.h"

namespace {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// FNV-1a, folded over every output so that two builds can be compared by one number.
struct Digest {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  void add(std::string_view s) {
    for (const char c : s) {
      h ^= static_cast<unsigned char>(c);
      h *= 0x100000001b3ULL;
    }
    h ^= 0xff;
    h *= 0x100000001b3ULL;
  }
  void add(std::uint64_t v) { add(std::string_view(reinterpret_cast<const char*>(&v), sizeof v)); }
};

// The words in a tenth of the entries or more, as PostgreSQL's list of common words is made (at most 300,
// most common first), under a fixed key: the list a crawler would leave out of the search index.
longread::storage::postgres::CommonWords corpus_common_words(
    const longread::storage::SearchTokenizer& tokenizer, const std::vector<std::string>& bodies) {
  std::unordered_map<std::string, std::size_t> entries_with;
  for (const auto& body : bodies) {
    std::unordered_set<std::string> seen;
    tokenizer.for_each_token(longread::html::html_to_text(body), [&](std::string_view word) {
      seen.emplace(word);
      return true;
    });
    for (const auto& word : seen) ++entries_with[word];
  }
  std::vector<std::pair<std::size_t, std::string>> ranked;
  for (auto& [word, count] : entries_with)
    if (count * 10 >= bodies.size()) ranked.emplace_back(count, word);
  std::ranges::sort(ranked, [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  if (ranked.size() > 300) ranked.resize(300);
  std::vector<longread::storage::postgres::CommonWords::Word> words;
  for (const auto& [count, word] : ranked)
    words.push_back({word, static_cast<double>(count) / static_cast<double>(bodies.size())});
  return longread::storage::postgres::CommonWords(std::move(words), "stage_bench key.");
}

struct Stage {
  const char* name;
  double seconds = 0;
};
}  // namespace

int main(int argc, char** argv) {
  using namespace longread;
  if (argc < 2) {
    fmt::print(stderr, "usage: stage_bench DIR [REPS]\n");
    return 2;
  }
  const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  auto [files, bytes] = longread::bench::read_feed_files(argv[1]);

  Stage parse{"parse_feed"}, to_text{"html_to_text"}, to_text_gumbo{"html_to_text, gumbo (reference)"},
      boiler{"strip_boilerplate"}, excerpt{"make_excerpt"}, words{"count_words"}, simhash{"simhash"},
      language{"detect_language"}, judge{"judge"}, build{"build_article (all of curation)"},
      summary_parsed{"looks_like_summary, entry parsed"}, summary_given{"looks_like_summary, marker given"},
      learn_template{"learn_feed_template (per entry)"}, vectors{"search_vectors (PostgreSQL's)"};
  std::vector<feed::Feed> feeds;
  for (int r = 0; r < reps; ++r) {
    feeds.clear();
    const double t0 = thread_cpu_seconds();
    for (const auto& f : files) {
      if (auto parsed = feed::parse_feed(f, {.base_url = "https://example.com/feed", .content_type = {}}))
        feeds.push_back(std::move(*parsed));
    }
    parse.seconds += thread_cpu_seconds() - t0;
  }

  std::vector<std::string> bodies;
  for (const auto& feed : feeds)
    for (const auto& e : feed.entries)
      bodies.push_back(e.content.size() >= e.summary.size() ? e.content : e.summary);
  const std::size_t n = bodies.size();

  Digest digest;
  model::Blog blog;
  blog.id = 1;
  blog.category = "tech";
  const curate::JunkOptions junk_options;
  pipeline::CurationContext context;
  context.junk_options = &junk_options;
  const TimePoint now = now_seconds();
  auto opened = storage::SearchTokenizer::open();
  if (!opened) {
    fmt::print(stderr, "stage_bench: {}\n", opened.error().message);
    return 1;
  }
  const std::unique_ptr<storage::SearchTokenizer> tokenizer = std::move(*opened);
  const storage::postgres::CommonWords common = corpus_common_words(*tokenizer, bodies);
  std::string agreement;
  std::string summary_agreement;
  for (int r = 0; r < reps; ++r) {
    const bool record = r == 0;
    std::vector<std::string> raw(n), texts(n);
    double t0 = thread_cpu_seconds();
    for (std::size_t i = 0; i < n; ++i) raw[i] = html::html_to_text(bodies[i]);
    to_text.seconds += thread_cpu_seconds() - t0;
    std::vector<std::string> reference(n);
    t0 = thread_cpu_seconds();
    for (std::size_t i = 0; i < n; ++i) reference[i] = html::detail::html_to_text_gumbo(bodies[i]);
    to_text_gumbo.seconds += thread_cpu_seconds() - t0;
    if (record) {
      // How far the libxml2 SAX text is from gumbo's HTML5 text on the same entries.
      std::size_t same = 0;
      double f1 = 0;
      double worst = 1;
      std::size_t worst_i = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (raw[i] == reference[i]) {
          ++same;
          f1 += 1;
          continue;
        }
        const double f = html::token_f1(raw[i], reference[i]).f1;
        f1 += f;
        if (f < worst) {
          worst = f;
          worst_i = i;
        }
      }
      agreement = fmt::format(
          "html_to_text vs gumbo reference: {} of {} entries identical, mean token F1 {:.4f}, lowest {:.4f}",
          same, n, f1 / static_cast<double>(n), worst);
      if (std::getenv("STAGE_BENCH_SHOW_WORST") != nullptr)
        fmt::print("worst entry:\n--- html\n{}\n--- libxml2\n{}\n--- gumbo\n{}\n", bodies[worst_i],
                   raw[worst_i], reference[worst_i]);
    }
    t0 = thread_cpu_seconds();
    for (std::size_t i = 0; i < n; ++i) texts[i] = html::strip_boilerplate(raw[i]);
    boiler.seconds += thread_cpu_seconds() - t0;
    t0 = thread_cpu_seconds();
    for (std::size_t i = 0; i < n; ++i) {
      const std::string e = html::make_excerpt(texts[i], 2000);
      if (record) digest.add(e);
    }
    excerpt.seconds += thread_cpu_seconds() - t0;
    // The crawler's summary test: the entry's HTML parsed again for its ending (as it was), against the
    // ending read off the text that building the article made anyway (as it is).
    std::vector<char> parsed_answers(n), given_answers(n);
    t0 = thread_cpu_seconds();
    for (std::size_t i = 0; i < n; ++i) parsed_answers[i] = html::looks_like_summary(bodies[i], texts[i]);
    summary_parsed.seconds += thread_cpu_seconds() - t0;
    t0 = thread_cpu_seconds();
    for (std::size_t i = 0; i < n; ++i)
      given_answers[i] =
          html::looks_like_summary(bodies[i], texts[i], html::ends_with_truncation_marker(raw[i]));
    summary_given.seconds += thread_cpu_seconds() - t0;
    if (record) {
      std::size_t summaries = 0;
      std::size_t differ = 0;
      for (std::size_t i = 0; i < n; ++i) {
        summaries += parsed_answers[i] != 0 ? 1 : 0;
        differ += parsed_answers[i] != given_answers[i] ? 1 : 0;
        digest.add(static_cast<std::uint64_t>(parsed_answers[i]));
      }
      summary_agreement =
          fmt::format("looks_like_summary: {} of {} entries are summaries; the two ways differ on {}",
                      summaries, n, differ);
    }
    t0 = thread_cpu_seconds();
    std::size_t total_words = 0;
    for (std::size_t i = 0; i < n; ++i) total_words += count_words(texts[i]);
    words.seconds += thread_cpu_seconds() - t0;
    t0 = thread_cpu_seconds();
    std::vector<std::uint64_t> hashes(n);
    for (std::size_t i = 0; i < n; ++i) hashes[i] = curate::simhash(texts[i]);
    simhash.seconds += thread_cpu_seconds() - t0;
    t0 = thread_cpu_seconds();
    std::vector<std::string> languages(n);
    for (std::size_t i = 0; i < n; ++i) languages[i] = curate::detect_language(texts[i]);
    language.seconds += thread_cpu_seconds() - t0;
    if (record) {
      digest.add(total_words);
      for (std::size_t i = 0; i < n; ++i) {
        digest.add(raw[i]);
        digest.add(texts[i]);
        digest.add(hashes[i]);
        digest.add(languages[i]);
      }
    }
    t0 = thread_cpu_seconds();
    std::size_t k = 0;
    for (const auto& feed : feeds) {
      for (const auto& e : feed.entries) {
        auto article = pipeline::build_article(e, blog, now, context);
        if (record) {
          digest.add(article.text);
          digest.add(article.excerpt);
          digest.add(article.title);
          digest.add(article.simhash);
          digest.add(static_cast<std::uint64_t>(article.word_count));
          digest.add(article.junk_reason);
        }
        ++k;
      }
    }
    build.seconds += thread_cpu_seconds() - t0;
    // judge alone, on articles built above (rebuild cheaply: judge only needs the curated fields).
    t0 = thread_cpu_seconds();
    k = 0;
    for (const auto& feed : feeds) {
      for (const auto& e : feed.entries) {
        model::Article a;
        a.title = e.title;
        a.link = e.link;
        a.text = texts[k];
        a.content_html = e.content;
        a.summary_html = e.summary;
        a.word_count = static_cast<int>(count_words(a.text));
        const auto verdict = curate::judge(a, blog, junk_options);
        if (record) digest.add(verdict.reason);
        ++k;
      }
    }
    judge.seconds += thread_cpu_seconds() - t0;
    // Each blog's template, learnt from its feed's entry texts as a crawl learns it; its keys go into the
    // digest, sorted, so two builds' keys can be compared.
    std::vector<std::vector<std::string>> per_feed;
    k = 0;
    for (const auto& feed : feeds) {
      auto& feed_texts = per_feed.emplace_back();
      for (std::size_t e = 0; e < feed.entries.size(); ++e) feed_texts.push_back(texts[k++]);
    }
    t0 = thread_cpu_seconds();
    for (const auto& feed_texts : per_feed) {
      const html::FeedTemplate learnt = html::learn_feed_template(feed_texts);
      if (record) {
        std::vector<std::string> keys(learnt.keys.begin(), learnt.keys.end());
        std::ranges::sort(keys);
        for (const auto& key : keys) digest.add(key);
      }
    }
    learn_template.seconds += thread_cpu_seconds() - t0;
    // What a PostgreSQL crawler makes of each article for the search index: word ids, the title's rank
    // vector, the phrase and lead filters and the bitmap of common words, all five in the digest.
    t0 = thread_cpu_seconds();
    k = 0;
    for (const auto& feed : feeds) {
      for (const auto& e : feed.entries) {
        const auto made = storage::postgres::search_vectors(*tokenizer, common, e.title, texts[k++]);
        if (record) {
          digest.add(made.words);
          digest.add(made.rank);
          digest.add(made.phrase_filter);
          digest.add(made.common_words);
          digest.add(made.lead_filter);
        }
      }
    }
    vectors.seconds += thread_cpu_seconds() - t0;
  }

  fmt::print("{} files, {:.2f} MB, {} entries, {} reps (thread CPU time)\n", files.size(),
             static_cast<double>(bytes) / 1048576.0, n, reps);
  const double per = 1e6 / static_cast<double>(n * static_cast<std::size_t>(reps));
  for (const Stage* s : {&parse, &to_text, &to_text_gumbo, &boiler, &excerpt, &words, &simhash, &language,
                         &judge, &build, &summary_parsed, &summary_given, &learn_template, &vectors}) {
    fmt::print("  {:<34} {:9.1f} us/entry {:8.3f} s per pass\n", s->name, s->seconds * per,
               s->seconds / reps);
  }
  fmt::print("{}\n", agreement);
  fmt::print("{}\n", summary_agreement);
  fmt::print("output digest: {:016x}\n", digest.h);
  return 0;
}
