// Compressed article bodies (migration 0021, sqlite/article_body.h): a corrupt stored body fails the read of
// that article alone, with a "store: " error, and the converter leaves it as it is; set_texts (rejudge
// --text) and a refreshed curation (the full-text retry) rewrite the text of compressed and old-form rows
// and keep their HTML; the search index follows.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "storage/sqlite/article_body.h"
#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

class ArticleBodyTest : public longread::testing::StoreTest {
 protected:
  ArticleBodyTest() : StoreTest("longread_body") {}
  void SetUp() override {
    StoreTest::SetUp();
    path_ = (dir_ / "db.sqlite").string();
    auto blog =
        store_->upsert_blog({.feed_url = "https://a.example/feed", .title = "A", .category = "essays"});
    ASSERT_TRUE(blog);
    blog_ = *blog;
  }

  model::Article article(const std::string& guid, const std::string& words) {
    model::Article a;
    a.guid = guid;
    a.title = "Title " + guid;
    a.summary_html = "<p>summary of " + guid + "</p>";
    a.content_html = "<p>" + words + "</p>";
    a.text = words;
    a.excerpt = words.substr(0, 40);
    a.word_count = 3;
    a.published = from_unix(1'700'000'000);
    return a;
  }

  void save(const std::vector<model::Article>& articles) {
    CrawlRecord r{
        .blog_id = blog_, .attempted_at = from_unix(1'700'000'000), .success = true, .status = "ok"};
    r.articles = articles;
    auto saved = store_->save_crawl(r);
    ASSERT_TRUE(saved) << saved.error().message;
  }

  std::int64_t id_of(const std::string& guid) {
    auto keys = store_->article_keys(blog_);
    EXPECT_TRUE(keys);
    for (const auto& k : *keys)
      if (k.guid == guid) return k.id;
    ADD_FAILURE() << "no article " << guid;
    return 0;
  }

  // A raw connection with the store's functions, as the store's own connections have them.
  std::string exec(const std::string& sql) {
    sqlite3* db = nullptr;
    std::string error;
    if (sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
      return "cannot open";
    sqlite::register_body_functions(db, std::make_shared<sqlite::BodyDictionaries>());
    char* message = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK)
      error = message != nullptr ? message : "?";
    sqlite3_free(message);
    sqlite3_close(db);
    return error;
  }

  // The first column of the first row ("" for none), read with the store's functions registered.
  std::string query(const std::string& sql) {
    sqlite3* db = nullptr;
    std::string out;
    if (sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
      return "cannot open";
    sqlite::register_body_functions(db, std::make_shared<sqlite::BodyDictionaries>());
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      out = sqlite3_errmsg(db);
    } else if (sqlite3_step(stmt) == SQLITE_ROW) {
      const auto* text = sqlite3_column_text(stmt, 0);
      out = text ? reinterpret_cast<const char*>(text) : "NULL";
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return out;
  }

  // Overwrites bytes in the middle of an article's stored body, as a disk or a bad copy would. The
  // connection's longread_body_part is a stub that reads nothing, so the search index's update trigger sees
  // no change and the bytes go in unread.
  void corrupt_body(std::int64_t id, std::size_t from = 6) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    std::unique_ptr<sqlite3, decltype(&sqlite3_close)> guard(db, &sqlite3_close);
    sqlite3_create_function_v2(
        db, "longread_body_part", 3, SQLITE_UTF8, nullptr,
        [](sqlite3_context* c, int, sqlite3_value**) { sqlite3_result_text(c, "", 0, SQLITE_STATIC); },
        nullptr, nullptr, nullptr);
    sqlite3_stmt* stmt = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT body FROM articles WHERE id = ?1", -1, &stmt, nullptr),
              SQLITE_OK);
    sqlite3_bind_int64(stmt, 1, id);
    ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
    const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt, 0));
    std::string body(bytes ? bytes : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, 0)));
    sqlite3_finalize(stmt);
    ASSERT_GT(body.size(), 16u);
    for (std::size_t i = from; i + 6 < body.size(); ++i) body[i] = static_cast<char>(0xa5);
    ASSERT_EQ(sqlite3_prepare_v2(db, "UPDATE articles SET body = ?1 WHERE id = ?2", -1, &stmt, nullptr),
              SQLITE_OK);
    sqlite3_bind_blob(stmt, 1, body.data(), static_cast<int>(body.size()), SQLITE_TRANSIENT);
    sqlite3_bind_int64(stmt, 2, id);
    EXPECT_EQ(sqlite3_step(stmt), SQLITE_DONE) << sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
  }

  std::vector<std::int64_t> search_ids(const std::string& q) {
    auto hits = store_->search(q, 20, 0);
    EXPECT_TRUE(hits) << hits.error().message;
    std::vector<std::int64_t> ids;
    if (hits)
      for (const auto& h : *hits) ids.push_back(h.view.article.id);
    return ids;
  }

  std::string path_;
  std::int64_t blog_ = 0;
};

TEST_F(ArticleBodyTest, BodiesAreStoredCompressedAndReadBackWhole) {
  save({article("a", "alpha words about a compiler"), article("b", "beta words about a garden")});
  EXPECT_EQ(query("SELECT count(*) FROM articles WHERE body IS NOT NULL AND text = '' AND content_html = ''"
                  " AND summary_html = ''"),
            "2");
  auto a = store_->article(id_of("a"));
  ASSERT_TRUE(a && *a) << (a ? "none" : a.error().message);
  EXPECT_EQ((*a)->article.summary_html, "<p>summary of a</p>");
  EXPECT_EQ((*a)->article.content_html, "<p>alpha words about a compiler</p>");
  EXPECT_EQ((*a)->article.text, "alpha words about a compiler");
  EXPECT_EQ(search_ids("compiler"), std::vector<std::int64_t>{id_of("a")});
}

TEST_F(ArticleBodyTest, CorruptBodyFailsOnlyItsOwnArticleWithAStoreError) {
  save({article("a", "alpha words about a compiler"), article("b", "beta words about a garden")});
  const std::int64_t bad = id_of("a");
  corrupt_body(bad);
  auto read = store_->article(bad);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message.rfind("store: cannot read article " + std::to_string(bad) + ": ", 0), 0u)
      << read.error().message;
  EXPECT_NE(read.error().message.find("corrupt"), std::string::npos) << read.error().message;
  // The other article, listings and search (whose snippet reads bodies) of other articles still work.
  auto good = store_->article(id_of("b"));
  ASSERT_TRUE(good && *good);
  EXPECT_EQ((*good)->article.text, "beta words about a garden");
  auto listed = store_->articles({});
  ASSERT_TRUE(listed) << listed.error().message;
  ASSERT_EQ(listed->size(), 2u);
  for (const auto& v : *listed)  // listed without its excerpt; the other keeps its own
    EXPECT_EQ(v.article.excerpt,
              v.article.id == bad ? "" : std::string("beta words about a garden").substr(0, 40));
  EXPECT_EQ(search_ids("garden"), std::vector<std::int64_t>{id_of("b")});
  // Found by its index entry, the bad one comes with an empty snippet instead of failing the page.
  auto hits = store_->search("compiler", 20, 0);
  ASSERT_TRUE(hits) << hits.error().message;
  ASSERT_EQ(hits->size(), 1u);
  EXPECT_EQ((*hits)[0].snippet, "");
  // A body whose frame header is gone too: the converter tries it, reports it and leaves its bytes alone,
  // and converts the rest.
  save({article("c", "gamma words about a harbor")});
  const std::int64_t headless = id_of("c");
  corrupt_body(headless, 0);
  const std::string before = query("SELECT hex(body) FROM articles WHERE id = " + std::to_string(headless));
  auto batch = store_->compact_bodies({.batch = 100});
  ASSERT_TRUE(batch) << batch.error().message;
  EXPECT_EQ(batch->unreadable, std::vector<std::int64_t>{headless});
  EXPECT_TRUE(batch->done);
  EXPECT_EQ(query("SELECT hex(body) FROM articles WHERE id = " + std::to_string(headless)), before);
  auto headless_read = store_->article(headless);
  ASSERT_FALSE(headless_read);
  EXPECT_EQ(headless_read.error().message.rfind("store: cannot read article " + std::to_string(headless), 0),
            0u);
  EXPECT_FALSE(store_->article(bad));
  EXPECT_TRUE(store_->article(id_of("b")));
}

TEST_F(ArticleBodyTest, SetTextsRewritesTheTextOfCompressedAndOldFormRowsAndKeepsTheirHtml) {
  save({article("a", "alpha words about a compiler"), article("b", "beta words about a garden")});
  const std::int64_t a = id_of("a"), b = id_of("b");
  // b goes back to the old form, as a database from before migration 0021 has it.
  ASSERT_EQ(exec("UPDATE articles SET summary_html = longread_body_part(body, 0, summary_html),"
                 " content_html = longread_body_part(body, 1, content_html), excerpt = "
                 "longread_body_part(body, 3, excerpt), text = longread_body_part(body, 2,"
                 " text), body = NULL WHERE id = " +
                 std::to_string(b)),
            "");
  std::vector<TextUpdate> updates{
      {.article_id = a, .text = "alpha words about a zeppelin", .excerpt = "alpha"},
      {.article_id = b, .text = "beta words about a zeppelin", .excerpt = "beta"}};
  auto changed = store_->set_texts(updates);
  ASSERT_TRUE(changed) << changed.error().message;
  EXPECT_EQ(*changed, 2);
  for (const auto& [id, guid, words] : {std::tuple{a, "a", "alpha words about a compiler"},
                                        std::tuple{b, "b", "beta words about a garden"}}) {
    auto read = store_->article(id);
    ASSERT_TRUE(read && *read);
    EXPECT_EQ((*read)->article.summary_html, std::string("<p>summary of ") + guid + "</p>");
    EXPECT_EQ((*read)->article.content_html, std::string("<p>") + words + "</p>");
    EXPECT_NE((*read)->article.text.find("zeppelin"), std::string::npos);
  }
  EXPECT_EQ(query("SELECT count(*) FROM articles WHERE body IS NULL"), "0");
  EXPECT_EQ(search_ids("zeppelin").size(), 2u);
  EXPECT_TRUE(search_ids("compiler").empty());
  EXPECT_TRUE(search_ids("garden").empty());
  // The same texts again change nothing.
  auto again = store_->set_texts(updates);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, 0);
}

TEST_F(ArticleBodyTest, RefreshedCurationOfAnUnchangedItemKeepsItsSummaryAndReplacesContentAndText) {
  auto first = article("a", "alpha words about a compiler");
  first.content_hash = "h1";
  save({first});
  // The full-text retry: same item (same hash), now with the page's HTML and text.
  auto retried = first;
  retried.content_html = "<article><p>the full page about a lighthouse</p></article>";
  retried.text = "the full page about a lighthouse";
  retried.full_text_fetched = true;
  save({retried});
  auto read = store_->article(id_of("a"));
  ASSERT_TRUE(read && *read);
  EXPECT_EQ((*read)->article.summary_html, "<p>summary of a</p>");
  EXPECT_EQ((*read)->article.content_html, retried.content_html);
  EXPECT_EQ((*read)->article.text, retried.text);
  EXPECT_EQ(search_ids("lighthouse"), std::vector<std::int64_t>{id_of("a")});
  EXPECT_TRUE(search_ids("compiler").empty());
}

// The crawl trains the first dictionary on the newest bodies, which blogs wrote: 4,000 bodies of a
// megabyte each would be 4 GB to hold and train on. Each sample is cut at 16 KB and the samples stop at
// 64 MB in all; the dictionary is still trained, and frames made with it read back whole.
TEST(BodyDictionaryTrainerTest, HugeBodiesAreCutAndTheTrainingStopsAtItsBound) {
  std::string shared;
  std::uint64_t seed = 11;
  static constexpr std::array<const char*, 8> kWords = {"harbor", "ledger", "queue", "cache",
                                                        "river",  "lisp",   "tide",  "garden"};
  while (shared.size() < 100 * 1024) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    shared += kWords[(seed >> 33) % kWords.size()];
    shared += ' ';
  }
  BodyDictionaryTrainer trainer;
  constexpr std::size_t kRoom = kMaxDictionaryTrainingBytes / kMaxDictionarySampleBytes;
  for (std::size_t i = 0; i < kRoom + 100; ++i) {
    const std::string head = "<h1>post " + std::to_string(i) + "</h1>";
    trainer.add({.summary_html = head, .content_html = shared, .text = shared, .excerpt = ""});
    ASSERT_LE(trainer.bytes(), kMaxDictionaryTrainingBytes);
  }
  EXPECT_EQ(trainer.samples(), kRoom) << "each sample cut at 16 KB, none past 64 MB";
  EXPECT_EQ(trainer.bytes(), kRoom * kMaxDictionarySampleBytes);
  auto trained = trainer.train();
  ASSERT_TRUE(trained) << trained.error().message;
  ASSERT_TRUE(*trained);
  const std::string dict = (*trained)->second;

  struct Source : BodyDictionarySource {
    std::uint32_t id;
    std::string dict;
    Result<std::uint32_t> newest_id() const override { return id; }
    Result<std::optional<std::string>> dictionary(std::uint32_t asked) const override {
      return asked == id ? std::optional<std::string>{dict} : std::nullopt;
    }
  } source;
  source.id = (*trained)->first;
  source.dict = dict;
  BodyDictionaries dictionaries;
  const std::string text = shared.substr(0, 5000);
  auto frame = dictionaries.pack(source, {.summary_html = "",
                                          .content_html = "<p>" + text + "</p>",
                                          .text = text,
                                          .excerpt = text.substr(0, 100)});
  ASSERT_TRUE(frame) << frame.error().message;
  EXPECT_EQ(body_dictionary_id(*frame), source.id);
  auto back = dictionaries.unpack(source, *frame);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->text, text);
  EXPECT_EQ(back->content_html, "<p>" + text + "</p>");
}

}  // namespace
}  // namespace longread::storage
