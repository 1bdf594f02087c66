// Raw structure of RSS 0.9x / 2.0 and RSS 1.0 / 0.90 (RDF) documents, as found, before adaptation to
// Feed. URL-bearing values carry the xml:base in effect where they were found.
#pragma once

#include <libxml/tree.h>

#include <optional>
#include <string>
#include <vector>

namespace longread::feed::rss {

// A URL and the base (feed URL + nested xml:base) it is relative to.
struct Located {
  std::string value;
  std::string base;
};

// <atom:link> inside RSS, or <enclosure url length type>.
struct RawLink {
  Located href;
  std::string rel, type, title, length;
};

struct Item {
  std::string title;  // text or markup as found (RSS titles are often HTML)
  Located link;
  Located guid;
  std::optional<bool> guid_is_permalink;
  std::string rdf_about;
  std::string description;  // HTML
  std::string content_encoded;
  std::string author, dc_creator;
  std::string pub_date, dc_date, updated;  // updated: atom:updated / dcterms:modified
  std::vector<std::string> categories;
  std::vector<RawLink> links;     // <atom:link> and <enclosure>, in document order
  std::size_t link_position = 0;  // how many of `links` came before <link>
};

struct Channel {
  std::string version;  // feedparser's name, see Feed::version
  std::string title, description, language, managing_editor, dc_creator;
  Located link;
  std::string pub_date, last_build_date, dc_date;
  // Polling hints as found: RSS 2.0 <ttl> (minutes) and the Syndication module's sy:updatePeriod /
  // sy:updateFrequency (https://web.resource.org/rss/1.0/modules/syndication/).
  std::string ttl, update_period, update_frequency;
  std::vector<RawLink> atom_links;
  std::vector<Item> items;
};

// Reads an <rss>, <rdf:RDF> or bare <channel> root; `base_url` is the document URL.
Channel read(const xmlNode* root, const std::string& base_url);

}  // namespace longread::feed::rss
