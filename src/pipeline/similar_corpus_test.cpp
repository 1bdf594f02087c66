// Similar articles on real posts: every entry of the shared corpus's real feeds (deduplicated by title)
// is stored, the index is rebuilt as `longread similar rebuild` does, and the picks of articles with an
// obvious topic must mostly share it. The corpus has few topics that span several blogs, so each post is
// stored as a blog of its own here (the same-blog rule is tested in curate's and storage's tests); the
// topics are told by title words, never by ids.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "curate/curate.h"
#include "curate/similar.h"
#include "feed/feed.h"
#include "html/html.h"
#include "pipeline/similar.h"
#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::pipeline {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

struct Post {
  std::string title;
  std::string text;
  std::string source;  // the feed file, relative to real-feeds
};

// The corpus's real feeds; empty, after saying the test is skipped, when ../shared is not there.
fs::path real_feeds() {
  const fs::path dir = fs::path(LONGREAD_CORPUS_DIR) / "real-feeds";
  if (fs::is_directory(dir)) return dir;
  std::cout << "skipped: ../shared not present\n";
  return {};
}

// Every entry of every real feed with at least 80 words of text, one per title.
std::vector<Post> corpus_posts(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::map<std::string, Post> by_title;
  for (const auto& file : files) {
    auto parsed = feed::parse_feed(read_file(file));
    if (!parsed) continue;
    for (const auto& e : parsed->entries) {
      if (e.title.empty() || by_title.contains(e.title)) continue;
      auto text = html::strip_boilerplate(html::html_to_text(e.content.empty() ? e.summary : e.content));
      if (std::count(text.begin(), text.end(), ' ') < 80) continue;
      by_title.emplace(e.title, Post{e.title, std::move(text), fs::relative(file, dir).string()});
    }
  }
  std::vector<Post> out;
  for (auto& [title, post] : by_title) out.push_back(std::move(post));
  return out;
}

// Each post as the one article of a blog of its own, as the crawler stores it (with its SimHash, so
// near-duplicates are no picks), an hour older than the one before; the SimilarSource of each, in order.
// Empty when a save fails.
std::vector<SimilarSource> save_posts(storage::Store& store, const std::vector<Post>& posts) {
  const TimePoint now = now_seconds();
  std::vector<SimilarSource> sources;
  for (std::size_t i = 0; i < posts.size(); ++i) {
    const auto blog = store.upsert_blog({.feed_url = "https://blog" + std::to_string(i) + ".example/feed",
                                         .title = "blog " + std::to_string(i)});
    if (!blog) return {};
    model::Article a;
    a.guid = "post";
    a.title = posts[i].title;
    a.link = "https://blog" + std::to_string(i) + ".example/post";
    a.text = posts[i].text;
    a.simhash = curate::simhash(a.text);
    a.first_seen = now;
    a.published = now - std::chrono::hours(static_cast<int>(i));
    if (!store.save_crawl(
            {.blog_id = *blog, .attempted_at = now, .success = true, .status = "ok", .articles = {a}}))
      return {};
    const auto keys = store.article_keys(*blog);
    if (!keys || keys->size() != 1) return {};
    sources.push_back({.id = keys->front().id,
                       .blog_id = *blog,
                       .simhash = a.simhash,
                       .title = posts[i].title,
                       .text = posts[i].text});
  }
  return sources;
}

class SimilarCorpusTest : public longread::testing::StoreTest {
 protected:
  SimilarCorpusTest() : StoreTest("longread-similar-corpus") {}
};

TEST_F(SimilarCorpusTest, PicksOfArticlesWithAnObviousTopicMostlyShareIt) {
  const fs::path dir = real_feeds();
  if (dir.empty()) GTEST_SKIP() << "skipped: ../shared not present";
  const auto posts = corpus_posts(dir);
  ASSERT_GT(posts.size(), 100u) << "the corpus's real feeds give a few hundred posts";
  std::map<std::int64_t, const Post*> stored;  // article id -> post
  const auto sources = save_posts(*store_, posts);
  ASSERT_EQ(sources.size(), posts.size());
  for (std::size_t i = 0; i < posts.size(); ++i) stored[sources[i].id] = &posts[i];
  SimilarIndexer indexer(*store_);
  const auto rebuilt = indexer.rebuild();
  ASSERT_TRUE(rebuilt) << rebuilt.error().message;
  EXPECT_EQ(rebuilt->articles, static_cast<std::int64_t>(posts.size()));

  // Topics with several posts in the corpus: the posts of a feed on one subject, and posts whose title
  // names it as a word.
  struct Topic {
    std::string name;
    std::vector<std::string> sources;      // feed files on the subject
    std::vector<std::string> title_words;  // a title with any of these words is on the subject
  };
  const std::vector<Topic> topics = {
      {"Apache Airflow", {}, {"airflow", "mwaa"}},
      {"homelab (r/homelab)", {"feed-rs/atom_mediarss_reddit_1.xml"}, {"homelab", "nas", "proxmox"}},
      {"plant biology (bioRxiv)",
       {"netnewswire/bio.rdf"},
       {"arabidopsis", "maize", "wheat", "plant", "plants"}},
      {"ear, nose and throat (podcast)", {"netnewswire/expertopinionent.atom"}, {}},
  };
  for (const auto& topic : topics) {
    auto on_topic = [&](const Post& post) {
      if (std::find(topic.sources.begin(), topic.sources.end(), post.source) != topic.sources.end())
        return true;
      std::set<std::string> words;
      std::string word;
      for (const char c : lower(post.title) + " ") {
        if (std::isalnum(static_cast<unsigned char>(c))) {
          word += c;
        } else if (!word.empty()) {
          words.insert(std::move(word));
          word.clear();
        }
      }
      return std::any_of(topic.title_words.begin(), topic.title_words.end(),
                         [&](const std::string& w) { return words.contains(w); });
    };
    std::map<std::string, const Post*> by_title;
    for (const auto& [id, post] : stored) by_title.emplace(post->title, post);
    int articles = 0;
    int picks = 0;
    int picks_on_topic = 0;
    for (const auto& [id, post] : stored) {
      if (!on_topic(*post)) continue;
      ++articles;
      const auto similar = store_->similar_articles(id, 3).value();
      std::cout << topic.name << ": \"" << post->title << "\"\n";
      for (const auto& s : similar) {
        const bool hit = on_topic(*by_title.at(s.view.article.title));
        ++picks;
        if (hit) ++picks_on_topic;
        std::cout << "    " << (hit ? "+ " : "- ") << s.view.article.title << "  [shares: " << s.shared
                  << "]\n";
        EXPECT_FALSE(s.shared.empty());
      }
    }
    std::cout << topic.name << ": " << picks_on_topic << " of " << picks << " picks on the topic\n";
    ASSERT_GE(articles, 4) << topic.name << ": the corpus has several posts on it";
    ASSERT_GE(picks, articles) << topic.name << ": most posts get picks";
    // Mostly: more than half of the top-3 picks are on the topic (each topic is a few percent of the posts,
    // so chance would give a few percent).
    EXPECT_GT(picks_on_topic * 2, picks) << topic.name << ": " << picks_on_topic << " of " << picks;
  }
}

// A crawl indexes each save group's new articles in one batch (SimilarIndexer::add_all). That must pick what
// indexing them one at a time picks: the same frequencies per article, and earlier articles of the batch
// among a later one's candidates.
TEST_F(SimilarCorpusTest, ABatchPicksWhatOneArticleAtATimePicks) {
  const fs::path dir = real_feeds();
  if (dir.empty()) GTEST_SKIP() << "skipped: ../shared not present";
  const auto posts = corpus_posts(dir);
  ASSERT_GT(posts.size(), 100u);
  auto batched_store = storage::open_store((dir_ / "batched.sqlite").string());
  ASSERT_TRUE(batched_store) << batched_store.error().message;
  const auto sources = save_posts(*store_, posts);
  ASSERT_EQ(sources.size(), posts.size());
  const auto batched_sources = save_posts(**batched_store, posts);
  ASSERT_EQ(batched_sources.size(), posts.size());
  SimilarIndexer one_at_a_time(*store_);
  int picks = 0;
  for (const auto& source : sources) {
    auto picked = one_at_a_time.add(source);
    ASSERT_TRUE(picked) << picked.error().message;
    picks += *picked;
  }
  SimilarIndexer batched(**batched_store);
  constexpr std::size_t kGroup = 40;  // a crawl's save group of blogs with their new articles
  for (std::size_t start = 0; start < sources.size(); start += kGroup) {
    const auto group = std::span(batched_sources).subspan(start, std::min(kGroup, sources.size() - start));
    ASSERT_TRUE(batched.add_all(group));
  }
  // One batch of every post: indexed 200 at a time, each part finding the parts before it once stored.
  auto whole_store = storage::open_store((dir_ / "whole.sqlite").string());
  ASSERT_TRUE(whole_store) << whole_store.error().message;
  const auto whole_sources = save_posts(**whole_store, posts);
  ASSERT_EQ(whole_sources.size(), posts.size());
  ASSERT_GT(whole_sources.size(), 400u) << "the corpus makes more than two parts";
  auto whole_picks = SimilarIndexer(**whole_store).add_all(whole_sources);
  ASSERT_TRUE(whole_picks) << whole_picks.error().message;
  ASSERT_EQ(whole_picks->size(), whole_sources.size());
  EXPECT_GT(picks, static_cast<int>(posts.size()) / 4) << "the corpus gives picks to many posts";
  for (const auto& source : sources) {
    const auto expected = store_->similar_articles(source.id, 8).value();
    for (storage::Store* other : {batched_store->get(), whole_store->get()}) {
      const auto got = other->similar_articles(source.id, 8).value();
      ASSERT_EQ(got.size(), expected.size()) << "article " << source.id;
      for (std::size_t k = 0; k < got.size(); ++k) {
        EXPECT_EQ(got[k].view.article.id, expected[k].view.article.id) << "article " << source.id;
        EXPECT_DOUBLE_EQ(got[k].score, expected[k].score) << "article " << source.id;
      }
    }
  }
}

// PostgreSQL decides a batch's postings in memory from one read of its terms' postings (under the lock
// every indexer takes) and writes them in two statements; SQLite posts each article's terms statement by
// statement. With caps small enough that most terms fill up, the same batches must store the same postings
// under every term, with the same weights, and the same picks on both.
class SimilarCorpusOnPostgresTest : public longread::testing::StoreTest {
 protected:
  SimilarCorpusOnPostgresTest()
      : StoreTest("longread-similar-corpus-pg", longread::testing::Backend::kPostgres) {}
};

TEST_F(SimilarCorpusOnPostgresTest, BatchesStoreThePostingsAndPicksSQLiteStores) {
  const fs::path dir = real_feeds();
  if (dir.empty()) GTEST_SKIP() << "skipped: ../shared not present";
  const auto posts = corpus_posts(dir);
  ASSERT_GT(posts.size(), 100u);
  auto reference = storage::open_store((dir_ / "reference.sqlite").string());
  ASSERT_TRUE(reference) << reference.error().message;
  const auto sqlite_sources = save_posts(**reference, posts);
  const auto postgres_sources = save_posts(*store_, posts);
  ASSERT_EQ(sqlite_sources.size(), posts.size());
  ASSERT_EQ(postgres_sources.size(), posts.size());
  const SimilarOptions options{.picks_kept = 4, .postings_per_term = 3, .candidates = 64, .offers = 6};
  SimilarIndexer on_sqlite(**reference, options);
  SimilarIndexer on_postgres(*store_, options);
  constexpr std::size_t kGroup = 40;
  for (std::size_t start = 0; start < posts.size(); start += kGroup) {
    const std::size_t n = std::min(kGroup, posts.size() - start);
    ASSERT_TRUE(on_sqlite.add_all(std::span(sqlite_sources).subspan(start, n)));
    ASSERT_TRUE(on_postgres.add_all(std::span(postgres_sources).subspan(start, n)));
  }

  // Article ids may differ between the databases: each is compared as its post's place in the corpus.
  std::map<std::int64_t, std::size_t> sqlite_place, postgres_place;
  for (std::size_t i = 0; i < posts.size(); ++i) {
    sqlite_place[sqlite_sources[i].id] = i;
    postgres_place[postgres_sources[i].id] = i;
  }
  std::set<std::uint64_t> hashes;
  for (const auto& post : posts) {
    for (const auto& t : curate::article_terms(post.title, post.text)) hashes.insert(t.hash);
  }
  const std::vector<std::uint64_t> terms(hashes.begin(), hashes.end());
  const auto postings_of = [&](storage::Store& store, const std::map<std::int64_t, std::size_t>& place,
                               int per_term) {
    std::set<std::tuple<std::uint64_t, std::size_t, double>> out;
    const auto rows = store.similar_postings(terms, per_term);
    EXPECT_TRUE(rows) << rows.error().message;
    if (rows) {
      for (const auto& r : *rows) out.insert({r.term, place.at(r.article_id), r.weight});
    }
    return out;
  };
  const auto expected_postings = postings_of(**reference, sqlite_place, 1000);
  EXPECT_GT(expected_postings.size(), posts.size()) << "the corpus posts many terms";
  EXPECT_EQ(postings_of(*store_, postgres_place, 1000), expected_postings);
  // The heaviest of each term, when fewer are asked for than it holds.
  const auto expected_heaviest = postings_of(**reference, sqlite_place, 1);
  EXPECT_LT(expected_heaviest.size(), expected_postings.size());
  EXPECT_EQ(postings_of(*store_, postgres_place, 1), expected_heaviest);

  int picks = 0;
  for (std::size_t i = 0; i < posts.size(); ++i) {
    const auto expected = (*reference)->similar_articles(sqlite_sources[i].id, 8).value();
    const auto got = store_->similar_articles(postgres_sources[i].id, 8).value();
    picks += static_cast<int>(expected.size());
    ASSERT_EQ(got.size(), expected.size()) << "post " << i;
    for (std::size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(postgres_place.at(got[k].view.article.id), sqlite_place.at(expected[k].view.article.id))
          << "post " << i;
      EXPECT_DOUBLE_EQ(got[k].score, expected[k].score) << "post " << i;
    }
  }
  EXPECT_GT(picks, static_cast<int>(posts.size()) / 4) << "the corpus gives picks to many posts";
}

}  // namespace
}  // namespace longread::pipeline
