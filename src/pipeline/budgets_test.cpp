// Per-feed budgets: the newest entries of an oversized feed, and entries cut to their byte budget.
#include "pipeline/budgets.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "feed/feed.h"

namespace longread::pipeline {
namespace {

feed::Entry entry(const std::string& id, std::optional<int> day) {
  feed::Entry e;
  e.id = id;
  if (day) e.published = from_unix(1'600'000'000 + *day * 86400);
  return e;
}

std::vector<std::string> ids(const std::vector<feed::Entry>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.id);
  return out;
}

TEST(TakeNewestEntries, KeepsTheNewestInFeedOrder) {
  std::vector<feed::Entry> entries{entry("a", 3), entry("b", 9), entry("c", 1), entry("d", 7), entry("e", 5)};
  EXPECT_EQ(take_newest_entries(entries, 3), 2u);
  EXPECT_EQ(ids(entries), (std::vector<std::string>{"b", "d", "e"}));
}

TEST(TakeNewestEntries, UndatedEntriesComeAfterDatedOnesInFeedOrder) {
  std::vector<feed::Entry> entries{entry("u1", std::nullopt), entry("old", 1), entry("u2", std::nullopt),
                                   entry("new", 2), entry("u3", std::nullopt)};
  EXPECT_EQ(take_newest_entries(entries, 3), 2u);
  EXPECT_EQ(ids(entries), (std::vector<std::string>{"u1", "old", "new"}));
}

TEST(TakeNewestEntries, AFeedWithinTheBudgetIsUntouched) {
  std::vector<feed::Entry> entries{entry("a", 1), entry("b", 2)};
  EXPECT_EQ(take_newest_entries(entries, 2), 0u);
  EXPECT_EQ(ids(entries), (std::vector<std::string>{"a", "b"}));
}

TEST(CapEntry, ContentFirstThenTheSummaryGetsWhatIsLeft) {
  feed::Entry e;
  e.content = "<p>" + std::string(700, 'c') + "</p>";
  e.summary = "<p>" + std::string(700, 's') + "</p>";
  EXPECT_TRUE(cap_entry(e, 1000));
  EXPECT_EQ(e.content.size(), 707u);
  EXPECT_LE(e.content.size() + e.summary.size(), 1000u);
  EXPECT_TRUE(e.summary.starts_with("<p>sss"));
}

TEST(CapEntry, NeverSplitsATagOrAUtf8Sequence) {
  feed::Entry e;
  e.content = std::string(95, 'x') + "<a href=\"https://example.org/\">link</a>";
  EXPECT_TRUE(cap_entry(e, 100));
  EXPECT_EQ(e.content, std::string(95, 'x'));
  e.content = std::string(99, 'x') + "\u00e9\u00e9";  // the cut falls inside the first two-byte character
  EXPECT_TRUE(cap_entry(e, 100));
  EXPECT_EQ(e.content, std::string(99, 'x'));
}

TEST(CapEntry, OneLineFieldsAreCutToo) {
  feed::Entry e;
  e.title = std::string(10'000, 't');
  e.id = "guid";
  EXPECT_TRUE(cap_entry(e, 1000));
  EXPECT_EQ(e.title.size(), kMaxEntryFieldBytes);
  EXPECT_EQ(e.id, "guid");
}

TEST(CapEntry, AnEntryWithinTheBudgetIsNotFlagged) {
  feed::Entry e;
  e.title = "t";
  e.content = "<p>short</p>";
  e.summary = "<p>s</p>";
  EXPECT_FALSE(cap_entry(e, 1000));
  EXPECT_EQ(e.content, "<p>short</p>");
}

}  // namespace
}  // namespace longread::pipeline
