// Every real feed of the shared corpus parses without crashing, and feed-rs's expected parses
// (real-feeds/feed-rs/*.serde.json) agree with ours on titles, entry counts, entry titles and links.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/strings.h"
#include "feed/feed.h"
#include "feed/text.h"

namespace longread::feed {
namespace {
namespace fs = std::filesystem;

const fs::path kRealFeeds = fs::path(LONGREAD_CORPUS_DIR) / "real-feeds";

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool is_feed_file(const fs::path& p) {
  const std::string name = p.filename().string();
  if (name.starts_with("LICENSE") || name == "COPYING" || name.ends_with(".md") ||
      name.ends_with(".serde.json"))
    return false;
  return p.parent_path().filename() != "opml";
}

void expect_valid_utf8(const Feed& feed, const std::string& where) {
  EXPECT_TRUE(is_valid_utf8(feed.title)) << where;
  for (const auto& e : feed.entries) {
    EXPECT_TRUE(is_valid_utf8(e.title) && is_valid_utf8(e.summary) && is_valid_utf8(e.content) &&
                is_valid_utf8(e.link) && is_valid_utf8(e.id) && is_valid_utf8(e.author))
        << where;
  }
}

TEST(RealFeeds, EveryFileParsesWithoutCrash) {
  if (!fs::exists(kRealFeeds)) GTEST_SKIP() << "skipped: ../shared not present";
  std::size_t files = 0, parsed = 0, entries = 0;
  std::vector<std::string> errors;
  for (const auto& item : fs::recursive_directory_iterator(kRealFeeds)) {
    if (!item.is_regular_file() || !is_feed_file(item.path())) continue;
    ++files;
    const std::string bytes = read_file(item.path());
    auto feed = parse_feed(bytes, {.base_url = "https://example.com/feed", .content_type = {}});
    const std::string where = fs::relative(item.path(), kRealFeeds).string();
    if (!feed) {
      errors.push_back(where + ": " + feed.error().message);
      continue;
    }
    ++parsed;
    entries += feed->entries.size();
    expect_valid_utf8(*feed, where);
  }
  for (const auto& e : errors) std::cout << "  not parsed: " << e << "\n";
  std::cout << files << " files, " << parsed << " parsed, " << entries << " entries\n";
  EXPECT_GE(files, 200u);
  // Every file in the corpus is a feed (some deliberately broken): all must give a Feed.
  EXPECT_EQ(parsed, files);
}

// feed-rs keeps text/html titles as markup; our titles are plain text. It also keeps a JSON Feed's
// HTML-escaped titles ("Blog &#8211; InfluxData") as written, where we decode the references once
// (adapter.cpp, unescape_plain_text).
std::string expected_title(const nlohmann::json& text, bool json_feed) {
  if (!text.is_object() || !text["content"].is_string()) return {};
  const std::string content = text["content"].get<std::string>();
  if (text["content_type"] == "text/html") return html_to_text(content);
  return json_feed ? unescape_plain_text(content) : collapse_whitespace(content);
}

// feed-rs normalises URLs with a lower-case host (RFC 3986 section 6.2.2.1); we give links as found.
std::string lower_host(std::string url) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return url;
  const auto host_end = url.find('/', scheme_end + 3);
  for (std::size_t i = 0; i < std::min(host_end, url.size()); ++i)
    url[i] = static_cast<char>(std::tolower(url[i]));
  return url;
}

// The first link feed-rs reports as alternate (or without rel) for an entry.
std::optional<std::string> expected_link(const nlohmann::json& links) {
  if (!links.is_array()) return std::nullopt;
  for (const auto& l : links) {
    if (!l["href"].is_string()) continue;
    if (l["rel"].is_null() || l["rel"] == "alternate") return l["href"].get<std::string>();
  }
  return std::nullopt;
}

TEST(RealFeeds, AgreesWithFeedRsExpectations) {
  const fs::path dir = kRealFeeds / "feed-rs";
  if (!fs::exists(dir)) GTEST_SKIP() << "skipped: ../shared not present";
  std::size_t compared = 0;
  for (const auto& item : fs::directory_iterator(dir)) {
    const std::string name = item.path().filename().string();
    if (!name.ends_with(".serde.json")) continue;
    const std::string stem = name.substr(0, name.size() - std::string(".serde.json").size());
    fs::path source = dir / (stem + ".xml");
    if (!fs::exists(source)) source = dir / (stem + ".json");
    ASSERT_TRUE(fs::exists(source)) << stem;
    const auto expected = nlohmann::json::parse(read_file(item.path()));
    auto feed = parse_feed(read_file(source));
    ASSERT_TRUE(feed) << stem << ": " << feed.error().message;
    ++compared;
    SCOPED_TRACE(stem);
    const bool json_feed = feed->version.starts_with("json");
    EXPECT_EQ(feed->title, expected_title(expected["title"], json_feed));
    const auto& entries = expected["entries"];
    ASSERT_EQ(feed->entries.size(), entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
      EXPECT_EQ(feed->entries[i].title, expected_title(entries[i]["title"], json_feed)) << "entry " << i;
      if (auto link = expected_link(entries[i]["links"])) {
        EXPECT_EQ(lower_host(feed->entries[i].link), lower_host(*link)) << "entry " << i;
      }
    }
  }
  EXPECT_GE(compared, 40u);
}

TEST(RealFeeds, HugoDraftsDatedYearOne) {
  const fs::path path = kRealFeeds / "hugo-blogs/beachgeek_index.xml";
  if (!fs::exists(path)) GTEST_SKIP() << "skipped: ../shared not present";
  auto feed = parse_feed(read_file(path));
  ASSERT_TRUE(feed) << feed.error().message;
  std::size_t year_one = 0;
  for (const auto& e : feed->entries) {
    if (!e.published_raw.starts_with("Mon, 01 Jan 0001")) continue;
    ++year_one;
    ASSERT_TRUE(e.published.has_value());
    EXPECT_EQ(std::chrono::year_month_day{std::chrono::floor<std::chrono::days>(*e.published)}.year(),
              std::chrono::year{1});
    EXPECT_FALSE(is_plausible_feed_date(*e.published, now_seconds()));
  }
  EXPECT_GE(year_one, 1u);
}

}  // namespace
}  // namespace longread::feed
