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
  // guid / atom:id / JSON Feed id, as given: the article's identity. A relative id is not resolved, because
  // an id must not change when the document is relocated or mirrored (RFC 4287 section 4.2.6) and the URL a
  // feed is fetched from changes with redirects.
  std::string id;
  // The base URI in effect where the id was found (xml:base over the document URL), for a reader that wants
  // the id as a URI reference resolved by XML Base (feedparser's entries[i].id); empty where the format says
  // the id is not a URI (RSS guid isPermaLink="false", rdf:about, JSON Feed).
  std::string id_base;
  std::string title;             // plain text: entities decoded, markup stripped, whitespace folded
  std::string link;              // alternate link, resolved against xml:base / feed URL (may be non-http)
  std::vector<Link> links;       // all links, resolved
  std::vector<Link> enclosures;  // rel=enclosure / <enclosure> / JSON attachments
  std::string author;            // name (dc:creator, author/name, JSON authors[0].name, RSS author)
  std::string author_email;      // the author's e-mail address (atom:email, RSS "jane@x.org (Jane)")
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
  std::string author_email;  // the feed author's e-mail address (atom:email, RSS managingEditor)
  std::string id_base;       // the base URI in effect at the feed's atom:id, see Entry::id_base
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

// What the fetcher knows about the document: its URL (base for relative links), HTTP Content-Type, and
// HTTP Content-Language (RFC 9110 section 8.5), the feed's language when the document declares none.
struct ParseOptions {
  std::string base_url{};
  std::string content_type{};
  std::string content_language{};
};

// bytes -> Feed. Errors: kNotAFeed ("feed: not a feed: got an HTML page" / "feed: not a feed: empty
// document"), kParse ("feed: XML error at line 3: ..." when nothing at all can be recovered).
[[nodiscard]] Result<Feed> parse_feed(std::string_view bytes, const ParseOptions& options = {});

}  // namespace longread::feed
