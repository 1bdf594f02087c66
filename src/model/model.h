// Plain domain types shared by every stage. No I/O, no behaviour beyond trivial accessors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/time.h"

namespace longread::model {

// A blog we follow: where its feed is, what we know of it, and the state of its crawl schedule.
struct Blog {
  std::int64_t id = 0;
  std::string feed_url;
  std::string site_url;
  std::string title;
  std::string author;
  std::string category;     // category slug, e.g. "programming"
  bool short_form = false;  // short posts are this blog's normal form: the length rule does not apply
  bool paused = false;      // the operator paused it (`longread blogs pause`): no crawl polls it
  // Hosts besides the blog's own site (the registrable domain of its feed and site URLs) that its
  // full-text pages may come from, as the operator allowed them (`blogs edit --allow-host`); lower case.
  std::vector<std::string> allowed_hosts;

  // HTTP caching validators from the last 200 response (RFC 9110 section 8.8).
  std::string etag;
  std::string last_modified;

  // Crawl state.
  std::optional<TimePoint> last_attempt_at;
  std::optional<TimePoint> last_success_at;
  std::optional<TimePoint> next_due_at;  // nullopt: due now
  int consecutive_failures = 0;
  std::string last_status;  // "ok", "not modified", "HTTP 404", ...
  std::string last_error;   // empty when the last attempt succeeded
  std::optional<TimePoint> last_error_at;
  // The feed's own polling hint from the last parse (RSS <ttl>, sy:updatePeriod / sy:updateFrequency): kept
  // for the polls answered 304, which carry no feed to read it from.
  std::optional<std::chrono::minutes> feed_update_interval;

  // Crash quarantine (docs/fetch.md, "Quarantine"): how many crawler processes in a row died while parsing
  // this blog's feed; at 3 it is quarantined, polled by no crawl until `longread blogs resume`.
  int crashes = 0;
  bool quarantined = false;

  std::int64_t article_count = 0;  // filled by listings
};

// An article: one entry of a blog's feed, with what curation made of it.
struct Article {
  std::int64_t id = 0;
  std::int64_t blog_id = 0;
  std::string guid;  // identity within the blog: feed guid, else canonical link, else hash of title+date
  std::string title;
  std::string link;  // http(s) only; empty when the feed's link was unusable
  std::string author;
  std::optional<TimePoint> published;
  std::optional<TimePoint> updated;
  bool undated = false;  // the feed gave no plausible date: `first_seen` stands in for it
  std::string summary_html;
  std::string content_html;
  TimePoint first_seen{};
  // Hash of the entry as the feed gave it (title, link, summary, content), set by the pipeline before
  // any full-text replacement; the store compares it to decide "unchanged" vs "updated".
  std::string content_hash;

  // Curation results.
  std::string text;     // plain text of the best content available
  std::string excerpt;  // ~2,000 characters of `text`, cut at a word boundary
  int word_count = 0;
  int reading_minutes = 1;
  std::string category;  // article's category slug (the blog's unless the classifier is confident)
  bool junk = false;
  std::string junk_reason;
  std::optional<std::int64_t> duplicate_of;
  std::optional<bool> keep_override;  // operator's `longread keep/junk ID`; sticks across re-crawls
  bool full_text_fetched = false;     // the original page was fetched once for a summary-only entry
  int full_text_failures = 0;         // attempts at that page that failed for a passing reason (retried)
  bool truncated = false;  // the feed's entry was longer than crawl.max_entry_kb and was cut (migration 0015)
  // Why the page was not used: "refused: 10.0.0.1 is a private address (...)", "HTTP 404"; empty when it
  // was read or never tried.
  std::string full_text_error;
  std::uint64_t simhash = 0;

  // Ranking (docs/ranking.md). rank_prior: the article's worth before votes, in days of newness (depth,
  // quiet blog), set by the pipeline; score: the store's hot score (votes, date and prior).
  int votes = 0;
  double rank_prior = 0.0;
  double score = 0.0;

  // The date shown to readers: published, else first seen.
  [[nodiscard]] TimePoint display_date() const { return published.value_or(first_seen); }
};

// A category of the site ("programming", "history", ...).
struct Category {
  std::string slug;
  std::string name;
  std::int64_t article_count = 0;
};

}  // namespace longread::model
