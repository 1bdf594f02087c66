// The feed's own polling hint (Feed::update_interval): RSS 2.0 <ttl> and the RSS Syndication module's
// sy:updatePeriod / sy:updateFrequency, in RSS 2.0 and RSS 1.0, good, missing, garbage and huge; then the
// real feeds of the shared corpus that carry them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include "feed/feed.h"

namespace longread::feed {
namespace {
using namespace std::chrono;
namespace fs = std::filesystem;

std::string rss20(const std::string& channel_extra) {
  return R"(<?xml version="1.0"?>
<rss version="2.0" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"><channel>
<title>T</title><link>https://example.com/</link>)" +
         channel_extra + R"(<item><title>A</title><link>https://example.com/a</link></item></channel></rss>)";
}

std::string rss10(const std::string& channel_extra) {
  return R"(<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
         xmlns:syn="http://purl.org/rss/1.0/modules/syndication/">
<channel rdf:about="https://example.com/"><title>T</title><link>https://example.com/</link>)" +
         channel_extra + R"(</channel>
<item rdf:about="https://example.com/a"><title>A</title><link>https://example.com/a</link></item></rdf:RDF>)";
}

std::optional<minutes> interval_of(const std::string& bytes) {
  auto feed = parse_feed(bytes);
  EXPECT_TRUE(feed) << feed.error().message;
  if (!feed) return std::nullopt;
  EXPECT_EQ(feed->entries.size(), 1u);  // the hint does not disturb the rest of the parse
  return feed->update_interval;
}

TEST(UpdateInterval, Rss20Ttl) {
  EXPECT_EQ(interval_of(rss20("<ttl>180</ttl>")), minutes{180});
  EXPECT_EQ(interval_of(rss20("<ttl> 60\n</ttl>")), minutes{60});
  EXPECT_EQ(interval_of(rss20("<ttl>14400</ttl>")), minutes{14400});  // ten days: a hint; the crawl caps it
  EXPECT_EQ(interval_of(rss20("")), std::nullopt);
}

TEST(UpdateInterval, Rss20TtlGarbageIsNoHint) {
  for (const char* ttl : {"", "0", "-60", "sixty", "60 minutes", "1.5", "+60", "99999999999999999999",
                          "600000" /* over a year of minutes */}) {
    EXPECT_EQ(interval_of(rss20(std::string("<ttl>") + ttl + "</ttl>")), std::nullopt) << ttl;
  }
}

TEST(UpdateInterval, Rss20SyndicationModule) {
  const auto sy = [](const std::string& period, const std::string& frequency) {
    std::string extra;
    if (!period.empty()) extra += "<sy:updatePeriod>" + period + "</sy:updatePeriod>";
    if (!frequency.empty()) extra += "<sy:updateFrequency>" + frequency + "</sy:updateFrequency>";
    return interval_of(rss20(extra));
  };
  EXPECT_EQ(sy("hourly", "1"), minutes{60});
  EXPECT_EQ(sy("hourly", ""), minutes{60});  // frequency defaults to 1
  EXPECT_EQ(sy("daily", "2"), hours{12});
  EXPECT_EQ(sy("weekly", "1"), days{7});
  EXPECT_EQ(sy("monthly", "1"), days{30});
  EXPECT_EQ(sy("yearly", "1"), days{365});
  EXPECT_EQ(sy(" Daily ", "4"), hours{6});  // case and spaces forgiven
  EXPECT_EQ(sy("", "2"), hours{12});        // period defaults to daily
}

TEST(UpdateInterval, Rss20SyndicationGarbageIsNoHint) {
  for (const auto& [period, frequency] :
       std::vector<std::pair<std::string, std::string>>{{"foo", "1"},
                                                        {"hourly", "0"},
                                                        {"hourly", "-1"},
                                                        {"hourly", "often"},
                                                        {"daily", "1.5"},
                                                        {"hourly", "99999999999"},
                                                        {"hourly", "120"} /* 30 s */}) {
    EXPECT_EQ(interval_of(rss20("<sy:updatePeriod>" + period + "</sy:updatePeriod><sy:updateFrequency>" +
                                frequency + "</sy:updateFrequency>")),
              std::nullopt)
        << period << " / " << frequency;
  }
}

TEST(UpdateInterval, TtlAndSyndicationTogetherTakeTheLonger) {
  EXPECT_EQ(interval_of(rss20("<ttl>30</ttl><sy:updatePeriod>daily</sy:updatePeriod>")), days{1});
  EXPECT_EQ(interval_of(rss20("<ttl>1440</ttl><sy:updatePeriod>hourly</sy:updatePeriod>")), days{1});
  // A garbage one does not spoil a good one.
  EXPECT_EQ(interval_of(rss20("<ttl>junk</ttl><sy:updatePeriod>weekly</sy:updatePeriod>")), days{7});
  EXPECT_EQ(interval_of(rss20("<ttl>90</ttl><sy:updatePeriod>never</sy:updatePeriod>")), minutes{90});
}

TEST(UpdateInterval, SyndicationInTheWrongNamespaceIsIgnored) {
  EXPECT_EQ(interval_of(
                R"(<rss version="2.0" xmlns:sy="http://example.com/not-syndication"><channel>
<title>T</title><sy:updatePeriod>weekly</sy:updatePeriod><item><title>A</title></item></channel></rss>)"),
            std::nullopt);
}

TEST(UpdateInterval, Rss10Syndication) {
  EXPECT_EQ(interval_of(rss10("<syn:updatePeriod>hourly</syn:updatePeriod>"
                              "<syn:updateFrequency>2</syn:updateFrequency>"
                              "<syn:updateBase>1970-01-01T00:00+00:00</syn:updateBase>")),
            minutes{30});
  EXPECT_EQ(interval_of(rss10("<syn:updatePeriod>weekly</syn:updatePeriod>")), days{7});
  EXPECT_EQ(interval_of(rss10("")), std::nullopt);
  EXPECT_EQ(interval_of(rss10("<syn:updatePeriod>fortnightly</syn:updatePeriod>")), std::nullopt);
}

TEST(UpdateInterval, AtomAndJsonFeedHaveNone) {
  auto atom = parse_feed(
      R"(<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
<entry><title>A</title><id>a</id></entry></feed>)");
  ASSERT_TRUE(atom);
  EXPECT_EQ(atom->update_interval, std::nullopt);
}

// --- the shared corpus
// -----------------------------------------------------------------------------

const fs::path kCorpus = fs::path(LONGREAD_CORPUS_DIR);

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// What a reader of the raw text expects, found with regular expressions
// instead of the XML parser: the first <ttl>, and the Syndication
// elements under whatever prefix the file binds to the module's
// namespace.
std::optional<minutes> expected_from_text(const std::string& text) {
  std::optional<minutes> ttl, sy;
  std::smatch m;
  if (std::regex_search(text, m, std::regex(R"(<ttl>\s*([0-9]+)\s*</ttl>)"))) ttl = minutes{std::stoll(m[1])};
  if (text.find("purl.org/rss/1.0/modules/syndication") != std::string::npos &&
      std::regex_search(text, m, std::regex(R"(<\w+:updatePeriod>\s*(\w+)\s*<)"))) {
    const std::string period = m[1];
    const minutes length = period == "hourly"   ? minutes{hours{1}}
                           : period == "daily"  ? minutes{days{1}}
                           : period == "weekly" ? minutes{weeks{1}}
                                                : minutes{0};
    long long frequency = 1;
    if (std::regex_search(text, m, std::regex(R"(<\w+:updateFrequency>\s*([0-9]+)\s*<)")))
      frequency = std::stoll(m[1]);
    if (length > minutes{0}) sy = length / frequency;
  }
  if (ttl && sy) return std::max(*ttl, *sy);
  return ttl ? ttl : sy;
}

TEST(UpdateIntervalCorpus, RealRssFeedsWithTtlOrSyndicationParseTheirHint) {
  const fs::path real_feeds = kCorpus / "real-feeds";
  if (!fs::exists(real_feeds)) GTEST_SKIP() << "skipped: ../shared not present";
  int with_hint = 0, ttl_files = 0, sy_files = 0;
  for (const auto& item : fs::recursive_directory_iterator(real_feeds)) {
    if (!item.is_regular_file()) continue;
    const std::string text = read_file(item.path());
    const auto expected = expected_from_text(text);
    if (!expected) continue;
    auto feed = parse_feed(text, {.base_url = "https://example.com/feed", .content_type = {}});
    const std::string where = fs::relative(item.path(), real_feeds).string();
    ASSERT_TRUE(feed) << where << ": " << feed.error().message;
    // Only RSS carries these elements by specification; an Atom feed
    // that borrows sy:* is not read.
    if (!feed->version.starts_with("rss")) {
      EXPECT_EQ(feed->update_interval, std::nullopt) << where;
      continue;
    }
    EXPECT_EQ(feed->update_interval, expected) << where;
    ++with_hint;
    if (text.find("<ttl>") != std::string::npos) ++ttl_files;
    if (text.find("updatePeriod>") != std::string::npos) ++sy_files;
  }
  std::cout << "real RSS feeds with a hint: " << with_hint << " (" << ttl_files << " with <ttl>, " << sy_files
            << " with the Syndication module)\n";
  // The corpus has 18 feeds with <ttl> and 15 RSS feeds with the Syndication module (WordPress's default
  // hourly / 1, Slashdot's RSS 1.0 syn:, one hourly / 2); a scan that finds few of them is broken.
  EXPECT_GE(ttl_files, 15);
  EXPECT_GE(sy_files, 8);
  EXPECT_GE(with_hint, 25);
}

TEST(UpdateIntervalCorpus, FeedValidatorSyndicationCases) {
  const fs::path dir = kCorpus / "feedvalidator" / "rss" / "must";
  if (!fs::exists(dir)) GTEST_SKIP() << "skipped: ../shared not present";
  const auto of = [&dir](const char* name) -> std::optional<minutes> {
    auto feed = parse_feed(read_file(dir / name));
    EXPECT_TRUE(feed) << name;
    return feed ? feed->update_interval : std::nullopt;
  };
  EXPECT_EQ(of("sy_updatePeriod_hourly.xml"), hours{1});
  EXPECT_EQ(of("sy_updatePeriod_daily.xml"), days{1});
  EXPECT_EQ(of("sy_updatePeriod_weekly.xml"), weeks{1});
  EXPECT_EQ(of("sy_updatePeriod_monthly.xml"), days{30});
  EXPECT_EQ(of("sy_updatePeriod_yearly.xml"), days{365});
  EXPECT_EQ(of("invalid_sy_updatePeriod.xml"), std::nullopt);
  EXPECT_EQ(of("multiple_sy_updatePeriod.xml"), days{365});  // the first of two
  // Empty elements say nothing: no hint, rather than the module's
  // defaults.
  EXPECT_EQ(of("invalid_sy_updatePeriod_blank.xml"), std::nullopt);
  EXPECT_EQ(of("invalid_sy_updateFrequency_blank.xml"), std::nullopt);
  // A frequency alone divides the module's default period, daily.
  EXPECT_EQ(of("sy_updateFrequency.xml"), days{1});
  EXPECT_EQ(of("multiple_sy_updateFrequency.xml"), minutes{24});  // daily / 60, the first of two
  for (const char* name :
       {"invalid_sy_updateFrequency_decimal.xml", "invalid_sy_updateFrequency_negative.xml",
        "invalid_sy_updateFrequency_zero.xml"}) {
    EXPECT_EQ(of(name), std::nullopt) << name;
  }
}

}  // namespace
}  // namespace longread::feed
