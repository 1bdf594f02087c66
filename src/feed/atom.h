// Raw structure of Atom 1.0 (RFC 4287) and Atom 0.3 documents, as found, before adaptation to Feed.
// Each value keeps the xml:base in effect where it was found (RFC 4287 section 2).
#pragma once

#include <libxml/tree.h>

#include <string>
#include <vector>

namespace longread::feed::atom {

// An Atom text construct (RFC 4287 section 3.1): type "text", "html" or "xhtml" (0.3: MIME types and
// mode="escaped"|"xml"|"base64"). `value` is the text for text/html and the inner markup of the div
// for xhtml.
struct Text {
  std::string type;
  std::string value;
  std::string base;
  std::string src;  // atom:content src (out-of-line content)
  bool present = false;
};

struct RawLink {
  std::string href, base, rel, type, title, length;
};

struct Person {
  std::string name, email, uri;
};

struct Entry {
  std::string base;
  std::string id, id_base;  // id_base: the xml:base in effect at the atom:id element
  Text title, summary, content;
  std::vector<RawLink> links;
  std::vector<Person> authors;
  std::string published, updated;  // 0.3: issued / modified (created when neither)
  std::vector<std::string> categories;
};

struct Feed {
  std::string version;  // "atom10", "atom03", or "atom" when neither namespace nor version says
  std::string base, id, id_base, language;
  Text title, subtitle;
  std::vector<RawLink> links;
  std::vector<Person> authors;
  std::string updated;
  std::vector<Entry> entries;
};

// Reads a <feed> root; `base_url` is the document URL.
Feed read(const xmlNode* root, const std::string& base_url);

}  // namespace longread::feed::atom
