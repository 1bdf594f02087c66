// Atom 1.0 (RFC 4287) documents for the site's own feeds ("/feed.atom", a feed per category), written
// with libxml2's xmlTextWriter so that every value is escaped by the library. Knows nothing of the store.
#pragma once

#include <string>
#include <vector>

#include "core/time.h"

namespace longread::ui {

// An entry's category beyond its site category: term, scheme and label (RFC 4287 4.2.2), e.g. the
// Google Reader API's read state.
struct AtomCategory {
  std::string term{};
  std::string scheme{};
  std::string label{};
};

struct AtomEntry {
  std::string id{};  // a permanent IRI: the article's page on the site
  std::string title{};
  std::string link{};      // rel="alternate": the original article (http/https), else the site's page
  std::string related{};   // rel="related": the article's page on the site (empty: none)
  std::string author{};    // the blog's name
  std::string category{};  // the category slug (empty: none)
  std::string summary{};   // plain text
  TimePoint published{};   // the article's date (or when first seen, when undated)
  std::vector<AtomCategory> categories{};
};

struct AtomFeed {
  std::string id{};  // the site URL of what the feed follows
  std::string title{};
  std::string subtitle{};
  std::string author{};     // the feed's author (RFC 4287 4.1.1: required unless every entry has one)
  std::string self{};       // this feed's URL
  std::string alternate{};  // the HTML page the feed follows
  // RFC 5005 section 3 (paged feeds): each document holds a bounded page of entries, newest first;
  // "first" is the feed's first page and "next" the page of older entries (empty: none).
  std::string first{};
  std::string next{};
  TimePoint updated{};  // the newest entry's date; `now` for an empty feed
  std::vector<AtomEntry> entries{};
};

// The document, UTF-8. Characters XML 1.0 does not allow (C0 controls but tab and line ends, U+FFFE,
// U+FFFF) are dropped from every value, so the document is well-formed whatever a feed carried.
std::string atom_document(const AtomFeed& feed);

}  // namespace longread::ui
