// libxml2 plumbing shared by the XML formats: an owning document handle, a tolerant parse, and helpers to
// read element names, namespaces, attributes, text and inner markup.
#pragma once

#include <libxml/tree.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/error.h"

namespace longread::feed::xml {

// Owning handle of a libxml2 document (every C handle is a move-only RAII type).
struct DocDeleter {
  void operator()(xmlDoc* doc) const noexcept { xmlFreeDoc(doc); }
};
using DocPtr = std::unique_ptr<xmlDoc, DocDeleter>;

// A parsed document; `recovered` is set when the bytes were not well-formed XML.
struct ParsedXml {
  DocPtr doc;
  bool recovered = false;
  std::string error;  // first problem found, "XML error at line 3: ..."
};

// The most bytes a document may grow by through references to the entities its internal DTD subset
// declares (every reference's replacement text, nested entities expanded, less the reference itself).
inline constexpr std::size_t kMaxEntityExpansionBytes = 64 * 1024;

// Parses UTF-8 text: strictly first; when that fails, repairs bare '&' and HTML named entities and
// parses again, finally in libxml2's recover mode. Never loads external entities, a DTD or the network, and
// never substitutes entities (no XML_PARSE_NOENT). Fails with kParse when no root element could be
// recovered, and with kParse "feed: XML error: entity expansion over 64 KiB" when the document's entity
// references would add more than kMaxEntityExpansionBytes (a "billion laughs" or one big entity used many
// times): such a document is refused whole, not expanded in part.
[[nodiscard]] Result<ParsedXml> parse_tolerant(std::string_view utf8);

// The namespaces feeds use, folded over their historical spellings.
enum class Ns {
  kNone,
  kRss10,
  kRss090,
  kAtom10,
  kAtom03,
  kContent,
  kDc,
  kDcTerms,
  kRdf,
  kXhtml,
  kItunes,
  kMedia,
  kSyndication,  // RSS 1.0 Syndication module (sy:updatePeriod, sy:updateFrequency)
  kOther
};
Ns ns_of(const xmlNode* node) noexcept;

inline std::string_view name_of(const xmlNode* node) noexcept {
  return node->name ? std::string_view(reinterpret_cast<const char*>(node->name)) : std::string_view();
}
inline bool is_element(const xmlNode* node) noexcept {
  return node->type == XML_ELEMENT_NODE;
}

// Attribute value by local name (any namespace unless `ns_href` given); empty when absent.
std::string attr(const xmlNode* node, const char* name, const char* ns_href = nullptr);
// xml:base of this element, or empty.
std::string xml_base(const xmlNode* node);
// xml:lang of this element, or empty.
std::string xml_lang(const xmlNode* node);

// Concatenated character data of the element and its descendants (entities decoded).
std::string text(const xmlNode* node);
// The children serialized as markup (for HTML written unescaped inside an element, and Atom xhtml).
std::string inner_xml(const xmlNode* node);
// Markup when the element has element children (unescaped HTML in a description), else its text.
std::string text_or_markup(const xmlNode* node);

}  // namespace longread::feed::xml
