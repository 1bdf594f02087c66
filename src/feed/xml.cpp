#include "feed/xml.h"

#include <fmt/format.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include <climits>
#include <cstring>

#include "core/strings.h"

namespace longread::feed::xml {
namespace {

struct CtxtDeleter {
  void operator()(xmlParserCtxt* ctxt) const noexcept { xmlFreeParserCtxt(ctxt); }
};
using CtxtPtr = std::unique_ptr<xmlParserCtxt, CtxtDeleter>;

struct BufferDeleter {
  void operator()(xmlBuffer* buf) const noexcept { xmlBufferFree(buf); }
};
using BufferPtr = std::unique_ptr<xmlBuffer, BufferDeleter>;

// libxml2 must be initialised once before documents are parsed from several threads.
void init_libxml_once() {
  static const bool initialised = [] {
    xmlInitParser();
    return true;
  }();
  (void)initialised;
}

// External entities and DTDs are never loaded (no XXE), nor anything from the network; CDATA becomes text.
constexpr int kBaseOptions = XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_COMPACT | XML_PARSE_NOERROR |
                             XML_PARSE_NOWARNING | XML_PARSE_IGNORE_ENC | XML_PARSE_BIG_LINES;

struct Attempt {
  DocPtr doc;
  bool well_formed = false;
  std::string error;
};

Attempt parse_once(std::string_view utf8, int options) {
  init_libxml_once();
  Attempt result;
  CtxtPtr ctxt(xmlNewParserCtxt());
  if (!ctxt) {
    result.error = "out of memory";
    return result;
  }
  const int size = utf8.size() > static_cast<std::size_t>(INT_MAX) ? INT_MAX : static_cast<int>(utf8.size());
  result.doc.reset(xmlCtxtReadMemory(ctxt.get(), utf8.data(), size, nullptr, "UTF-8", options));
  // A prefix without a namespace declaration is a namespace error (Namespaces in XML 1.0 section 3), which
  // libxml2 reports apart from well-formedness; a namespace-aware reader treats it as broken too.
  result.well_formed = ctxt->wellFormed != 0 && ctxt->nsWellFormed != 0 && result.doc != nullptr;
  if (!result.well_formed) {
    const xmlError* err = xmlCtxtGetLastError(ctxt.get());
    std::string message = err && err->message ? std::string(trim(err->message)) : "not well-formed";
    result.error = fmt::format("XML error at line {}: {}", err ? err->line : 0, sanitize_utf8(message));
  }
  return result;
}

bool is_name_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_name_char(unsigned char c) {
  return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}
bool is_hex(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Length of a well-formed reference starting at text[i] == '&' ("&amp;", "&#38;", "&#x26;", "&name;"),
// or 0. `name` receives the entity name of a named reference.
std::size_t reference_length(std::string_view text, std::size_t i, std::string_view& name) {
  std::size_t j = i + 1;
  name = {};
  if (j < text.size() && text[j] == '#') {
    ++j;
    const bool hex = j < text.size() && (text[j] == 'x' || text[j] == 'X');
    if (hex) ++j;
    const std::size_t digits_start = j;
    while (j < text.size() && (hex ? is_hex(text[j]) : (text[j] >= '0' && text[j] <= '9'))) ++j;
    if (j == digits_start || j >= text.size() || text[j] != ';') return 0;
    return j + 1 - i;
  }
  if (j >= text.size() || !is_name_start(static_cast<unsigned char>(text[j]))) return 0;
  while (j < text.size() && is_name_char(static_cast<unsigned char>(text[j]))) ++j;
  if (j >= text.size() || text[j] != ';') return 0;
  name = text.substr(i + 1, j - i - 1);
  return j + 1 - i;
}

bool is_xml_predefined(std::string_view name) {
  return name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "apos";
}

// Rewrites what browsers accept but XML does not: a bare '&' becomes "&amp;", an HTML named entity
// (&nbsp; &eacute; ... from HTML 4, via libxml2's table) becomes a character reference. CDATA sections,
// comments, processing instructions and entities declared in an internal DTD subset are left alone.
std::string repair_references(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 32);
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t next = text.find_first_of("&<", i);
    if (next == std::string_view::npos) {
      out.append(text.substr(i));
      break;
    }
    out.append(text.substr(i, next - i));
    i = next;
    if (text[i] == '<') {
      std::string_view close;
      if (text.substr(i, 9) == "<![CDATA[")
        close = "]]>";
      else if (text.substr(i, 4) == "<!--")
        close = "-->";
      else if (text.substr(i, 2) == "<?")
        close = "?>";
      if (close.empty()) {
        out.push_back('<');
        ++i;
        continue;
      }
      const std::size_t end = text.find(close, i);
      const std::size_t stop = end == std::string_view::npos ? text.size() : end + close.size();
      out.append(text.substr(i, stop - i));
      i = stop;
      continue;
    }
    std::string_view name;
    const std::size_t len = reference_length(text, i, name);
    if (len == 0) {
      out.append("&amp;");
      ++i;
      continue;
    }
    if (name.empty() && text[i + 2] == 'X') {  // "&#X41;": XML wants a lower-case x
      out.append("&#x");
      out.append(text.substr(i + 3, len - 3));
    } else if (name.empty() || is_xml_predefined(name) ||
               text.find(fmt::format("<!ENTITY {} ", name)) != std::string_view::npos) {
      out.append(text.substr(i, len));
    } else {
      const std::string key(name);
      const htmlEntityDesc* entity = htmlEntityLookup(reinterpret_cast<const xmlChar*>(key.c_str()));
      if (entity) {
        out.append(fmt::format("&#{};", entity->value));
      } else {
        out.append("&amp;");
        out.append(name);
        out.push_back(';');
      }
    }
    i += len;
  }
  return out;
}

}  // namespace

Result<ParsedXml> parse_tolerant(std::string_view utf8) {
  Attempt strict = parse_once(utf8, kBaseOptions);
  if (strict.well_formed) return ParsedXml{std::move(strict.doc), false, {}};

  const std::string repaired = repair_references(utf8);
  Attempt second = parse_once(repaired, kBaseOptions);
  if (second.well_formed) return ParsedXml{std::move(second.doc), true, std::move(strict.error)};

  Attempt recovered = parse_once(repaired, kBaseOptions | XML_PARSE_RECOVER);
  if (!recovered.doc || xmlDocGetRootElement(recovered.doc.get()) == nullptr)
    return fail(ErrorKind::kParse, "feed: " + strict.error);
  return ParsedXml{std::move(recovered.doc), true, std::move(strict.error)};
}

Ns ns_of(const xmlNode* node) noexcept {
  if (node->ns == nullptr || node->ns->href == nullptr) return Ns::kNone;
  const std::string_view href(reinterpret_cast<const char*>(node->ns->href));
  if (href == "http://www.w3.org/2005/Atom") return Ns::kAtom10;
  if (href == "http://purl.org/rss/1.0/") return Ns::kRss10;
  if (href == "http://purl.org/dc/elements/1.1/") return Ns::kDc;
  if (href == "http://purl.org/rss/1.0/modules/content/") return Ns::kContent;
  if (href == "http://www.w3.org/1999/02/22-rdf-syntax-ns#") return Ns::kRdf;
  if (href == "http://purl.org/dc/terms/") return Ns::kDcTerms;
  if (href == "http://www.w3.org/1999/xhtml") return Ns::kXhtml;
  if (href == "http://purl.org/atom/ns#") return Ns::kAtom03;
  if (href == "http://www.itunes.com/dtds/podcast-1.0.dtd" ||
      href == "http://www.itunes.com/DTDs/Podcast-1.0.dtd")
    return Ns::kItunes;
  if (href == "http://search.yahoo.com/mrss/" || href == "http://search.yahoo.com/mrss") return Ns::kMedia;
  if (href == "http://search.yahoo.com/mrss/" || href == "http://search.yahoo.com/mrss") return Ns::kMedia;
  if (href == "http://my.netscape.com/rdf/simple/0.9/") return Ns::kRss090;
  if (href == "http://purl.org/rss/1.0/modules/syndication/" ||
      href == "http://purl.org/rss/1.0/modules/syndication")
    return Ns::kSyndication;
  // Historical and mistyped spellings that readers accept (feedparser's namespace table).
  if (href.starts_with("http://backend.userland.com/rss") || href == "http://blogs.law.harvard.edu/tech/rss")
    return Ns::kNone;
  if (href == "http://purl.org/rss/1.0" || href == "http://purl.org/rss/1.0/modules/rss091#")
    return Ns::kRss10;
  if (href == "http://purl.org/dc/elements/1.0/" || href == "http://purl.org/dc/elements/1.1") return Ns::kDc;
  if (href == "http://www.w3.org/2005/Atom/" || href == "http://www.w3.org/2005/atom") return Ns::kAtom10;
  return Ns::kOther;
}

std::string attr(const xmlNode* node, const char* name, const char* ns_href) {
  for (const xmlAttr* a = node->properties; a != nullptr; a = a->next) {
    if (a->name == nullptr || std::strcmp(reinterpret_cast<const char*>(a->name), name) != 0) continue;
    if (ns_href != nullptr &&
        (a->ns == nullptr || std::strcmp(reinterpret_cast<const char*>(a->ns->href), ns_href) != 0))
      continue;
    std::string value;
    for (const xmlNode* c = a->children; c != nullptr; c = c->next)
      if (c->content) value += reinterpret_cast<const char*>(c->content);
    return value;
  }
  return {};
}

std::string xml_base(const xmlNode* node) {
  return attr(node, "base", reinterpret_cast<const char*>(XML_XML_NAMESPACE));
}
std::string xml_lang(const xmlNode* node) {
  return attr(node, "lang", reinterpret_cast<const char*>(XML_XML_NAMESPACE));
}

std::string text(const xmlNode* node) {
  std::string out;
  // Fast path: the usual element holds one text node.
  for (const xmlNode* c = node->children; c != nullptr; c = c->next) {
    if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
      if (c->content) out += reinterpret_cast<const char*>(c->content);
    } else if (c->type == XML_ELEMENT_NODE || c->type == XML_ENTITY_REF_NODE) {
      xmlChar* content = xmlNodeGetContent(c);
      if (content) {
        out += reinterpret_cast<const char*>(content);
        xmlFree(content);
      }
    }
  }
  return out;
}

std::string inner_xml(const xmlNode* node) {
  BufferPtr buffer(xmlBufferCreate());
  if (!buffer) return {};
  for (xmlNode* c = node->children; c != nullptr; c = c->next) xmlNodeDump(buffer.get(), node->doc, c, 0, 0);
  const xmlChar* content = xmlBufferContent(buffer.get());
  if (content == nullptr) return {};
  std::string out(reinterpret_cast<const char*>(content),
                  static_cast<std::size_t>(xmlBufferLength(buffer.get())));
  // The XHTML namespace declaration means nothing once the markup is HTML again.
  static constexpr std::string_view kXhtmlNs = " xmlns=\"http://www.w3.org/1999/xhtml\"";
  for (auto pos = out.find(kXhtmlNs); pos != std::string::npos; pos = out.find(kXhtmlNs, pos))
    out.erase(pos, kXhtmlNs.size());
  return out;
}

std::string text_or_markup(const xmlNode* node) {
  for (const xmlNode* c = node->children; c != nullptr; c = c->next)
    if (c->type == XML_ELEMENT_NODE) return inner_xml(node);
  return text(node);
}

}  // namespace longread::feed::xml
