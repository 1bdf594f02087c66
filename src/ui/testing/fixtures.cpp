#include "ui/testing/fixtures.h"

#include <fmt/format.h>

#include <chrono>

#include "core/strings.h"

namespace longread::ui::testing {
namespace {

using std::chrono::hours;
using std::chrono::minutes;

const char* const kParagraphs[] = {
    "A queue that never takes a lock sounds like a free lunch, and like most free lunches it is paid for "
    "somewhere else: in memory ordering, in the ABA problem, and in the long afternoon you will spend "
    "convincing yourself that a compare-and-swap loop really does terminate.",
    "The first part of this series built a single-producer, single-consumer ring buffer. Two indices, one "
    "written by each side, and acquire/release pairs to make the data visible before the index that "
    "announces it. That design is almost boring, which is the highest praise a concurrent data structure "
    "can earn.",
    "Multiple producers change everything. Now two threads can race for the same slot, and the index can no "
    "longer be a plain store. The classic answer is Michael and Scott's linked queue, which swings a tail "
    "pointer with compare-and-swap and lets any thread help a lagging operation finish.",
    "Helping is the part that surprises people. A thread that finds the tail pointing at a node that already "
    "has a successor does not wait for the slow thread that appended it; it advances the tail itself and "
    "tries again. Progress is guaranteed for the system, even if not for any one thread.",
    "Memory reclamation is where the real difficulty lives. A dequeued node cannot be freed while another "
    "thread might still read its next pointer. Hazard pointers, epochs and reference counting all solve "
    "this, "
    "each with its own cost in throughput, latency and sheer code.",
    "In the benchmarks at the end of this post the bounded ring wins by a wide margin whenever its capacity "
    "is enough, which is most of the time. Reach for the linked queue when you truly need unbounded growth, "
    "and measure before you believe anything written here.",
};

std::string long_text(int variant) {
  std::string text;
  for (int round = 0; round < 2; ++round) {
    for (const char* paragraph : kParagraphs) {
      if (!text.empty()) text += "\n\n";
      text += paragraph;
    }
  }
  if (variant > 0) text = fmt::format("Entry {} of the notebook. ", variant) + text;
  return text;
}

model::Article make_article(std::string guid, std::string title, std::string link, std::string text,
                            std::optional<TimePoint> published, TimePoint first_seen, std::string category) {
  model::Article a;
  a.guid = std::move(guid);
  a.title = std::move(title);
  a.link = std::move(link);
  a.published = published;
  a.undated = !published.has_value();
  a.first_seen = first_seen;
  a.text = std::move(text);
  // As the crawl stores it (html::make_excerpt): paragraphs joined into one line.
  a.excerpt = truncate_words(collapse_whitespace(a.text), 2000);
  a.word_count = static_cast<int>(count_words(a.text));
  a.reading_minutes = std::max(1, a.word_count / 200);
  a.category = std::move(category);
  a.content_html = "<p>" + a.text + "</p>";
  return a;
}

Result<std::int64_t> add_blog(storage::Store& store, const std::string& feed, const std::string& site,
                              const std::string& title, const std::string& category) {
  storage::BlogSeed seed;
  seed.feed_url = feed;
  seed.site_url = site;
  seed.title = title;
  seed.category = category;
  return store.upsert_blog(seed);
}

Result<void> save(storage::Store& store, std::int64_t blog_id, TimePoint now,
                  std::vector<model::Article> articles) {
  storage::CrawlRecord record;
  record.blog_id = blog_id;
  record.attempted_at = now;
  record.success = true;
  record.status = "ok";
  record.next_due_at = now + hours(1);
  record.articles = std::move(articles);
  auto saved = store.save_crawl(record);
  if (!saved) return std::unexpected(saved.error());
  return {};
}

Result<std::int64_t> find_article(storage::Store& store, std::int64_t blog_id, std::string_view guid) {
  auto keys = store.article_keys(blog_id);
  if (!keys) return std::unexpected(keys.error());
  for (const auto& key : *keys) {
    if (key.guid == guid) return key.id;
  }
  return fail(ErrorKind::kNotFound, "fixtures: article " + std::string(guid) + " was not stored");
}

}  // namespace

Result<FixtureIds> seed_fixtures(storage::Store& store, TimePoint now) {
  FixtureIds ids;
  auto ada = add_blog(store, "https://ada.example.com/feed.xml", "https://ada.example.com/", "Ada's Notebook",
                      "programming");
  if (!ada) return std::unexpected(ada.error());
  ids.ada_blog = *ada;
  auto history = add_blog(store, "https://history.example.org/atom.xml", "https://history.example.org/",
                          "Field Notes on History", "history");
  if (!history) return std::unexpected(history.error());
  ids.history_blog = *history;
  auto compiler = add_blog(store, "https://compilers.example.net/rss", "https://compilers.example.net/",
                           "Compiler Diaries", "programming");
  if (!compiler) return std::unexpected(compiler.error());
  ids.compiler_blog = *compiler;
  auto evil = add_blog(store, "https://evil.example/feed", "javascript:alert(1)", "<script>alert(1)</script>",
                       "security");
  if (!evil) return std::unexpected(evil.error());
  ids.evil_blog = *evil;

  // 2022-05-23T09:30:00Z
  const TimePoint may_23 = from_unix(1653298200);
  std::vector<model::Article> ada_articles;
  // Its third paragraph is a code block as html_to_text gives <pre>: lines and indentation kept, one
  // line longer than a phone is wide.
  std::string lock_free_text = long_text(0);
  const std::size_t third = lock_free_text.find("\n\n", lock_free_text.find("\n\n") + 2);
  lock_free_text.insert(
      third,
      "\n\nwhile (!tail.compare_exchange_weak(expected, desired, std::memory_order_release,\n"
      "                                    std::memory_order_relaxed)) {\n"
      "  desired->next = expected;\n}");
  ada_articles.push_back(make_article("ada-lock-free-2", "Lock-free queues, part 2",
                                      "https://ada.example.com/2022/lock-free-queues-2", lock_free_text,
                                      may_23, may_23, "programming"));
  ada_articles.back().reading_minutes = 8;
  for (int i = 1; i <= 29; ++i) {
    const TimePoint when = now - hours(3 * i);
    ada_articles.push_back(make_article(fmt::format("ada-note-{}", i), fmt::format("Notebook entry {}", i),
                                        fmt::format("https://ada.example.com/notes/{}", i), long_text(i),
                                        when, when, "programming"));
  }
  if (auto r = save(store, ids.ada_blog, now, std::move(ada_articles)); !r) return std::unexpected(r.error());

  std::vector<model::Article> history_articles;
  history_articles.push_back(make_article("history-zeppelin",
                                          "The last voyage of the Hindenburg's sister ship",
                                          "https://history.example.org/zeppelin",
                                          "Few remember the Graf Zeppelin II, the sister ship that never "
                                          "carried a paying passenger. Its story is one "
                                          "of timing: built for an age of airships that ended before it "
                                          "could begin.\n\nThe zeppelin flew a handful "
                                          "of electronic-intelligence flights along the British coast in "
                                          "1939, listening for radar, before it was "
                                          "scrapped for its aluminium.",
                                          now - minutes(5), now - minutes(5), "history"));
  history_articles.push_back(make_article(
      "history-undated", "Notes on medieval bookkeeping", "https://history.example.org/bookkeeping",
      "Double-entry bookkeeping spread from Italian merchants through the "
      "printing of Pacioli's Summa in 1494.",
      std::nullopt, now - hours(50), "history"));
  if (auto r = save(store, ids.history_blog, now, std::move(history_articles)); !r)
    return std::unexpected(r.error());

  std::vector<model::Article> compiler_articles;
  for (int i = 1; i <= 3; ++i) {
    const TimePoint when = now - hours(2 * i + 1);
    compiler_articles.push_back(
        make_article(fmt::format("cc-{}", i), fmt::format("Register allocation, week {}", i),
                     fmt::format("https://compilers.example.net/ra-{}", i),
                     // Week 1's excerpt holds a long unbroken address, as real posts do: the site must wrap
                     // it rather than scroll sideways (tests/browser: phone width).
                     (i == 1 ? std::string("The paper is at https://compilers.example.net/papers/"
                                           "poletto-sarkar-1999-linear-scan-register-allocation-acm-toplas-"
                                           "volume-21-number-5-pages-895-913.pdf and worth reading. ")
                             : std::string()) +
                         "Linear scan allocates registers in one pass over live intervals. " + long_text(0),
                     when, when, "programming"));
  }
  if (auto r = save(store, ids.compiler_blog, now, std::move(compiler_articles)); !r)
    return std::unexpected(r.error());

  std::vector<model::Article> evil_articles;
  evil_articles.push_back(
      make_article("evil-1", "<script>alert(1)</script>", "javascript:alert(1)",
                   "<img src=x onerror=alert(1)> is text here, never markup. " + long_text(0), now - hours(1),
                   now - hours(1), "security"));
  if (auto r = save(store, ids.evil_blog, now, std::move(evil_articles)); !r)
    return std::unexpected(r.error());

  auto lock_free = find_article(store, ids.ada_blog, "ada-lock-free-2");
  if (!lock_free) return std::unexpected(lock_free.error());
  ids.lock_free_article = *lock_free;
  // Similar articles as a crawl would have stored them (docs/similar.md), so the browser test's axe-core
  // run sees the section.
  {
    storage::SimilarWrite similar{.article_id = ids.lock_free_article};
    for (int i = 1; i <= 2; ++i) {
      auto week = find_article(store, ids.compiler_blog, fmt::format("cc-{}", i));
      if (!week) return std::unexpected(week.error());
      similar.picks.push_back(
          {ids.lock_free_article, *week, 0.5 - 0.1 * i, "cache line, register, live interval"});
    }
    if (auto r = store.save_similar(similar); !r) return std::unexpected(r.error());
  }
  auto evil_article = find_article(store, ids.evil_blog, "evil-1");
  if (!evil_article) return std::unexpected(evil_article.error());
  ids.evil_article = *evil_article;
  auto undated = find_article(store, ids.history_blog, "history-undated");
  if (!undated) return std::unexpected(undated.error());
  ids.undated_article = *undated;
  auto recent = find_article(store, ids.history_blog, "history-zeppelin");
  if (!recent) return std::unexpected(recent.error());
  ids.recent_article = *recent;
  return ids;
}

}  // namespace longread::ui::testing
