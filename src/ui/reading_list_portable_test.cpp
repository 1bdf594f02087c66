// The portable reading list over real HTTP: exports that read back with the importer, the private feed
// read with longread's own feed parser, and imports posted as multipart/form-data by libcurl (a real
// client's encoder, not ours). Real SQLite, the site's fixtures.
#include <curl/curl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <regex>

#include "feed/bookmarks.h"
#include "feed/feed.h"
#include "ui/testing/running_site.h"
#include "ui/testing/visitor.h"
#include "web/testing/client.h"

namespace longread::ui {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::Visitor;

struct Upload {
  long status = 0;
  std::string body;
};

std::size_t append(char* data, std::size_t size, std::size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

class ReadingListPortableTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    SiteOptions options = testing::test_site_options();
    options.accounts.signups_per_client = 1000;
    auto running = testing::RunningSite::start("reading-list-portable-test", std::move(options));
    ASSERT_TRUE(running) << running.error().message;
    running_ = std::move(*running);
  }
  static void TearDownTestSuite() {
    running_.reset();
    curl_global_cleanup();
  }

  static std::uint16_t port() { return running_->port(); }
  static storage::Store& store() { return running_->store(); }

  static Visitor signed_up(const std::string& email) { return testing::sign_up(port(), email); }

  static std::string article_link(std::int64_t id) {
    auto a = store().article(id);
    EXPECT_TRUE(a && *a);
    return a && *a ? (*a)->article.link : std::string();
  }

  // Posts `file` to /reading-list/import as a browser's file input would, with the visitor's cookies.
  static Upload upload(Visitor& v, const std::string& csrf, const std::string& file,
                       const std::string& name) {
    CURL* curl = curl_easy_init();
    Upload out;
    const std::string url = "http://127.0.0.1:" + std::to_string(port()) + "/reading-list/import";
    const std::string cookies = "lr_session=" + v.cookie("lr_session");
    curl_mime* mime = curl_mime_init(curl);
    curl_mimepart* token = curl_mime_addpart(mime);
    curl_mime_name(token, "csrf");
    curl_mime_data(token, csrf.data(), csrf.size());
    curl_mimepart* part = curl_mime_addpart(mime);
    curl_mime_name(part, "file");
    curl_mime_filename(part, name.c_str());
    curl_mime_type(part, name.ends_with(".csv") ? "text/csv" : "text/html");
    curl_mime_data(part, file.data(), file.size());
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_MIMEPOST, mime);
    curl_easy_setopt(curl, CURLOPT_COOKIE, cookies.c_str());
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out.body);
    if (curl_easy_perform(curl) == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out.status);
    curl_mime_free(mime);
    curl_easy_cleanup(curl);
    return out;
  }

  static inline std::unique_ptr<testing::RunningSite> running_;
};

TEST_F(ReadingListPortableTest, ImportedListsJoinArticlesAndExportsReadBack) {
  Visitor ada = signed_up("ada-portable@example.org");
  const auto& ids = running_->ids();
  const std::string known = article_link(ids.lock_free_article);
  ASSERT_THAT(known, ::testing::StartsWith("http"));
  // A Pocket HTML export: one link is an article here (saved without its trailing slash, or with one),
  // one is not, one is read.
  const std::string toggled = known.ends_with('/') ? known.substr(0, known.size() - 1) : known + "/";
  const std::string pocket =
      "<!DOCTYPE html><html><head><title>Pocket Export</title></head><body><h1>Unread</h1><ul>"
      "<li><a href=\"" +
      toggled +
      "\" time_added=\"1600000000\" tags=\"\">Lock-free (from Pocket)</a></li>"
      "<li><a href=\"https://elsewhere.example/essay?a=1&amp;b=2\" time_added=\"1600000100\" tags=\"\">An "
      "essay "
      "elsewhere</a></li>"
      "</ul><h1>Read Archive</h1><ul>"
      "<li><a href=\"https://elsewhere.example/read\" time_added=\"1500000000\" tags=\"\">=Already "
      "read</a></li>"
      "</ul></body></html>";
  const std::string page = ada.get("/reading-list").body;
  EXPECT_THAT(page, HasSubstr("enctype=\"multipart/form-data\""));
  auto done = upload(ada, Visitor::token_in(page), pocket, "ril_export.html");
  ASSERT_EQ(done.status, 200) << done.body;
  EXPECT_THAT(done.body, HasSubstr("1 link joined your reading list"));
  EXPECT_THAT(done.body, HasSubstr("2 links kept as other saved links"));

  const std::string list = ada.get("/reading-list").body;
  EXPECT_THAT(list, HasSubstr("data-saved=\"" + std::to_string(ids.lock_free_article) + "\""));
  EXPECT_THAT(list, HasSubstr("An essay elsewhere"));
  EXPECT_THAT(list, HasSubstr("href=\"https://elsewhere.example/essay?a=1&amp;b=2\""));

  // The same file again: nothing new.
  auto again = upload(ada, Visitor::token_in(list), pocket, "ril_export.html");
  EXPECT_THAT(again.body, HasSubstr("3 links were already on your list"));

  // Each export holds the three, and the bookmark and CSV files read back through the importer.
  for (const std::string format : {"html", "csv"}) {
    auto res = ada.get("/reading-list/export/" + format);
    ASSERT_EQ(res.status, 200) << format;
    EXPECT_THAT(res.header("Content-Disposition").value_or(""),
                HasSubstr("attachment; filename=\"reading-list."));
    EXPECT_EQ(res.header("Cache-Control").value_or(""), "no-store");
    auto back = feed::parse_bookmarks(res.body);
    ASSERT_TRUE(back) << format << ": " << back.error().message;
    std::set<std::string> urls;
    for (const auto& b : back->bookmarks) {
      urls.insert(b.url);
      if (b.url == "https://elsewhere.example/read") {
        EXPECT_TRUE(b.read) << format;
        EXPECT_EQ(b.title, format == "csv" ? "'=Already read" : "=Already read") << format;
      }
    }
    EXPECT_EQ(urls, (std::set<std::string>{known, "https://elsewhere.example/essay?a=1&b=2",
                                           "https://elsewhere.example/read"}))
        << format;
  }
  auto json = ada.get("/reading-list/export/json");
  ASSERT_EQ(json.status, 200);
  auto doc = nlohmann::json::parse(json.body);
  ASSERT_EQ(doc["items"].size(), 3u);
  bool saw_article = false;
  for (const auto& item : doc["items"]) {
    if (item["url"] == known) {
      saw_article = true;
      EXPECT_THAT(item["page"].get<std::string>(),
                  HasSubstr("/read/" + std::to_string(ids.lock_free_article)));
      EXPECT_EQ(item["saved_at"], "2020-09-13T12:26:40Z");
    }
  }
  EXPECT_TRUE(saw_article);
  EXPECT_EQ(ada.get("/reading-list/export/xml").status, 404);

  // Another reader sees none of it, and cannot change Ada's links.
  Visitor bob = signed_up("bob-portable@example.org");
  std::smatch link;
  ASSERT_TRUE(std::regex_search(list, link, std::regex("data-link=\"([0-9]+)\"")));
  const std::string bob_page = bob.get("/reading-list").body;
  EXPECT_THAT(bob_page, Not(HasSubstr("An essay elsewhere")));
  EXPECT_EQ(nlohmann::json::parse(bob.get("/reading-list/export/json").body)["items"].size(), 0u);
  auto forged = bob.post("/reading-list/links/" + link[1].str(),
                         {{"csrf", Visitor::token_in(bob_page)}, {"action", "remove"}});
  EXPECT_EQ(forged.status, 404);
  // Ada can.
  auto removed = ada.post("/reading-list/links/" + link[1].str(),
                          {{"csrf", Visitor::token_in(list)}, {"action", "read"}});
  EXPECT_EQ(removed.status, 303);

  // A visitor is sent to log in; a form without its token is refused.
  Visitor stranger(port());
  EXPECT_EQ(stranger.get("/reading-list/export/json").status, 303);
  EXPECT_EQ(ada.post("/reading-list/links/" + link[1].str(), {{"action", "remove"}}).status, 403);
  EXPECT_EQ(upload(ada, "forged", pocket, "x.html").status, 403);
  // A visitor without a session, or with a made-up one, is refused from the header: the 403 comes although
  // the 6 MiB body the header announces is never sent.
  for (const std::string cookie : {"", "lr_session=not-a-session"}) {
    std::string head =
        "POST /reading-list/import HTTP/1.1\r\nHost: t\r\nContent-Type: multipart/form-data; "
        "boundary=zz\r\nContent-Length: 6291456\r\n";
    if (!cookie.empty()) head += "Cookie: " + cookie + "\r\n";
    auto refused = web::testing::raw_exchange(port(), head + "\r\n");
    ASSERT_TRUE(refused) << refused.error().message;
    EXPECT_TRUE(refused->starts_with("HTTP/1.1 403")) << cookie << ": " << *refused;
  }
}

// What each bad upload gets: a page saying what was wrong, and nothing imported.
TEST_F(ReadingListPortableTest, BadUploadsSayWhatWasWrong) {
  Visitor v = signed_up("bad-upload@example.org");
  const std::string token = Visitor::token_in(v.get("/reading-list").body);
  auto empty = upload(v, token, "", "empty.csv");
  EXPECT_EQ(empty.status, 400);
  EXPECT_THAT(empty.body, HasSubstr("Nothing was imported: Empty file."));
  auto no_url = upload(v, token, "name,link\nA,https://a.example/\n", "other.csv");
  EXPECT_EQ(no_url.status, 400);
  EXPECT_THAT(no_url.body, HasSubstr("no URL column"));
  // Over the upload limit (8 MiB): refused before the body is read.
  auto huge = upload(v, token, "url\n" + std::string(9 * 1024 * 1024, 'x'), "huge.csv");
  EXPECT_EQ(huge.status, 413);
  EXPECT_EQ(store()
                .saved_links(store().reader_by_email("bad-upload@example.org").value()->id, 10, 0)
                .value()
                .size(),
            0u);
  // A malformed multipart body is a 400.
  auto raw = web::testing::Client::connect(port());
  ASSERT_TRUE(raw);
  auto res =
      raw->request("POST", "/reading-list/import",
                   {{"Content-Type", "multipart/form-data; boundary=zz"},
                    {"Cookie", "lr_session=" + v.cookie("lr_session")}},
                   "--zz\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n" + token + "\r\n--zz");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 400);
}

TEST_F(ReadingListPortableTest, ThePrivateFeedFollowsItsTokenUntilReplaced) {
  Visitor v = signed_up("feed-reader@example.org");
  const auto& ids = running_->ids();
  std::string page = v.get("/reading-list").body;
  ASSERT_EQ(v.post("/reading-list/" + std::to_string(ids.lock_free_article),
                   {{"csrf", Visitor::token_in(page)}, {"action", "add"}})
                .status,
            303);
  ASSERT_THAT(page, HasSubstr("Make a private feed"));
  ASSERT_EQ(v.post("/reading-list/feed", {{"csrf", Visitor::token_in(page)}, {"action", "create"}}).status,
            303);
  page = v.get("/reading-list").body;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      page, m, std::regex("https://longread\\.test(/reading-list/feed\\.atom\\?token=[A-Za-z0-9_%-]+)")));
  const std::string first = m[1].str();

  auto res = web::testing::http_get(port(), first);
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200);
  EXPECT_EQ(res->header("Cache-Control").value_or(""), "private, max-age=300");
  EXPECT_EQ(res->header("Referrer-Policy").value_or(""), "no-referrer");
  auto parsed = feed::parse_feed(res->body);
  ASSERT_TRUE(parsed);
  EXPECT_FALSE(parsed->bozo) << parsed->bozo_message;
  ASSERT_EQ(parsed->entries.size(), 1u);
  EXPECT_EQ(parsed->entries[0].link, article_link(ids.lock_free_article));
  // The same entry id as in the site's own feeds.
  EXPECT_EQ(parsed->entries[0].id, "https://longread.test/blog/" + std::to_string(ids.ada_blog) + "/read/" +
                                       std::to_string(ids.lock_free_article));

  // Replaced: the old address is gone at once, the new one works.
  ASSERT_EQ(v.post("/reading-list/feed", {{"csrf", Visitor::token_in(page)}, {"action", "rotate"}}).status,
            303);
  EXPECT_EQ(web::testing::http_get(port(), first)->status, 404);
  page = v.get("/reading-list").body;
  ASSERT_TRUE(std::regex_search(
      page, m, std::regex("https://longread\\.test(/reading-list/feed\\.atom\\?token=[A-Za-z0-9_%-]+)")));
  EXPECT_NE(m[1].str(), first);
  const std::string second = m[1].str();
  EXPECT_EQ(web::testing::http_get(port(), second)->status, 200);
  // Turned off.
  ASSERT_EQ(v.post("/reading-list/feed", {{"csrf", Visitor::token_in(page)}, {"action", "off"}}).status, 303);
  EXPECT_EQ(web::testing::http_get(port(), second)->status, 404);
  EXPECT_EQ(web::testing::http_get(port(), "/reading-list/feed.atom")->status, 404);
  EXPECT_EQ(web::testing::http_get(port(), "/reading-list/feed.atom?token=")->status, 404);
  EXPECT_EQ(web::testing::http_get(port(), "/reading-list/feed.atom?token=" + std::string(300, 'a'))->status,
            404);
}

}  // namespace
}  // namespace longread::ui
