// Feed parsing: bytes of an RSS 0.9x/2.0, RSS 1.0 (RDF), Atom 0.3/1.0 or JSON Feed 1.0/1.1 document -> Feed.
// Tolerant like a browser-grade reader: broken documents are recovered where possible and flagged `bozo`.
// The parser never does I/O.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"

namespace longread::feed {

// A link of a feed or entry (Atom link, RSS <enclosure>, JSON attachment); href resolved to absolute.
struct Link {
  std::string href, rel, type, title;
  std::int64_t length = 0;
};

// One entry (RSS item, Atom entry, JSON Feed item). All text is valid UTF-8.
struct Entry {
  std::string id;                // guid / atom:id / JSON Feed id, as given
  std::string title;             // plain text: entities decoded, markup stripped, whitespace folded
  std::string link;              // alternate link, resolved against xml:base / feed URL (may be non-http)
  std::vector<Link> links;       // all links, resolved
  std::vector<Link> enclosures;  // rel=enclosure / <enclosure> / JSON attachments
  std::string author;            // name (dc:creator, author/name, JSON authors[0].name, RSS author)
  std::optional<TimePoint> published, updated;  // parse_feed_date; nullopt when absent/unparseable
  std::string published_raw, updated_raw;       // the text as found
  std::string summary;  // HTML of description/summary (JSON: summary or content_text escaped)
  std::string content;  // HTML of content:encoded / atom:content / content_html (text escaped)
  std::vector<std::string> categories;
};

// A parsed feed. `version` uses feedparser's names: "rss090", "rss091u", "rss091n", "rss092", "rss093",
// "rss094", "rss20", "rss10", "atom03", "atom10", "json1", "json11"; "rss" / "atom" when the document does
// not say which version, "cdf" for Microsoft's Channel Definition Format; "" when unknown.
struct Feed {
  std::string version;
  std::string title, link, subtitle, author, language, id;  // link = site URL, resolved
  std::optional<TimePoint> updated;
  // How often the feed itself says it is worth polling (a minimum): RSS 2.0 <ttl> minutes, or the Syndication
  // module's sy:updatePeriod / sy:updateFrequency (RSS 1.0 and 2.0); the longer when both are given. nullopt
  // when absent or garbage (not a positive number, an unknown period, more than a year).
  std::optional<std::chrono::minutes> update_interval;
  std::vector<Entry> entries;
  bool bozo = false;         // the document was not well-formed and was recovered
  std::string bozo_message;  // e.g. "XML error at line 3: ..."
  std::string encoding;      // the document's encoding, lower case: "utf-8", "iso-8859-1", ...
};

// What the fetcher knows about the document: its URL (base for relative links) and HTTP Content-Type.
struct ParseOptions {
  std::string base_url{};
  std::string content_type{};
};

// bytes -> Feed. Errors: kNotAFeed ("feed: not a feed: got an HTML page" / "feed: not a feed: empty
// document"), kParse ("feed: XML error at line 3: ..." when nothing at all can be recovered).
[[nodiscard]] Result<Feed> parse_feed(std::string_view bytes, const ParseOptions& options = {});

}  // namespace longread::feed
