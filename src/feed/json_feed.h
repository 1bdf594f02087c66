// Raw structure of JSON Feed 1.0 / 1.1 documents (https://www.jsonfeed.org/version/1.1/), as found,
// before adaptation to Feed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "feed/rss.h"

namespace longread::feed::json_feed {

struct Author {
  std::string name, url;
};

struct Attachment {
  std::string url, mime_type, title;
  std::int64_t size_in_bytes = 0;
};

struct Item {
  std::string id;  // numbers are given as their decimal text
  std::string url, external_url, title, content_html, content_text, summary;
  std::string date_published, date_modified;
  std::vector<Author> authors;  // 1.1 `authors`, or 1.0 `author`
  std::vector<std::string> tags;
  std::vector<Attachment> attachments;
};

struct Document {
  std::string version;  // the `version` URL
  std::string title, home_page_url, feed_url, description, language;
  std::vector<Author> authors;
  std::vector<Item> items;
  // Dave Winer's "RSS in JSON" (rss.js: {"rss": {"channel": {... "item": [...]}}}), read into the RSS raw
  // structure instead of the fields above.
  std::optional<rss::Channel> rss_in_json;
  // How many items the document holds, readable or not (JSON Feed `items` members, RSS-in-JSON `item`s).
  std::size_t items_found = 0;
  bool truncated = false;  // the JSON ended early or was malformed; what came before is kept
  std::string error;
};

// Reads a JSON Feed (or RSS in JSON). A document that breaks off keeps the items completed before the break.
// Fails with kNotAFeed when the JSON is not an object that looks like a JSON Feed.
[[nodiscard]] Result<Document> read(std::string_view text);

}  // namespace longread::feed::json_feed
