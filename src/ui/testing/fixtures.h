// Fixture blogs and articles for the site's HTTP tests, the browser test and manual looks: filled only
// through the public Store interface (upsert_blog + save_crawl), like the crawler does.
#pragma once

#include <cstdint>

#include "core/error.h"
#include "core/time.h"
#include "storage/store.h"

namespace longread::ui::testing {

struct FixtureIds {
  std::int64_t ada_blog = 0;           // "Ada's Notebook", programming, 30 articles
  std::int64_t history_blog = 0;       // "Field Notes on History", history
  std::int64_t compiler_blog = 0;      // "Compiler Diaries", programming
  std::int64_t evil_blog = 0;          // title "<script>alert(1)</script>", site "javascript:alert(1)"
  std::int64_t lock_free_article = 0;  // "Lock-free queues, part 2", 23rd May 2022, long text, 8 min read
  std::int64_t evil_article = 0;       // title "<script>alert(1)</script>", link "javascript:alert(1)"
  std::int64_t undated_article = 0;    // history, no date
  std::int64_t recent_article = 0;     // history, five minutes before `now`, mentions "zeppelin"
};

// Seeds the fixtures relative to `now`. Idempotent: running it twice updates the same rows.
Result<FixtureIds> seed_fixtures(storage::Store& store, TimePoint now);

}  // namespace longread::ui::testing
