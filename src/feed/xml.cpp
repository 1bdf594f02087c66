#include "feed/xml.h"

#include <fmt/format.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include <libxml/entities.h>

#include <climits>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

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
  bool entity_loop = false;  // libxml2 gave up on the document's entities (a loop or an amplification)
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
    result.entity_loop = err != nullptr && err->code == XML_ERR_ENTITY_LOOP;
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

// The names of the general entities the document declares ("<!ENTITY name ..."), found in one pass: looking
// each reference up in the whole text instead made the repair quadratic (a 2 MB feed of "&x;" took
// minutes).
std::unordered_set<std::string_view> declared_entities(std::string_view text) {
  std::unordered_set<std::string_view> names;
  static constexpr std::string_view kDecl = "<!ENTITY";
  for (auto pos = text.find(kDecl); pos != std::string_view::npos; pos = text.find(kDecl, pos)) {
    pos += kDecl.size();
    while (pos < text.size() &&
           (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
    const std::size_t start = pos;
    while (pos < text.size() && is_name_char(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos > start) names.insert(text.substr(start, pos - start));
  }
  return names;
}

// Rewrites what browsers accept but XML does not: a bare '&' becomes "&amp;", an HTML named entity
// (&nbsp; &eacute; ... from HTML 4, via libxml2's table) becomes a character reference. CDATA sections,
// comments, processing instructions and entities declared in an internal DTD subset are left alone.
std::string repair_references(std::string_view text) {
  const auto declared = declared_entities(text);
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
    } else if (name.empty() || is_xml_predefined(name) || declared.contains(name)) {
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

// How many bytes a document's entity references add when expanded, counted without expanding anything.
// libxml2 keeps a reference to an internal entity as a node (XML_PARSE_NOENT is off) and expands it only
// when the text is read (xmlNodeGetContent), so a 400 KB feed declaring a 100 KB entity and using it
// thousands of times would become gigabytes there. Each entity's size is computed once from its
// replacement text (entities nested in it included, cycles counted as over), then every reference in the
// tree, in element content and in attribute values, adds what it grows by: its entity's size minus the
// reference's own length ("&nbsp;" declared as "&#160;" adds nothing). Counts saturate just past `limit`.
class ExpansionMeter {
 public:
  ExpansionMeter(xmlDoc* doc, std::size_t limit) : doc_(doc), limit_(limit) {}

  // true when the whole document's references add at most `limit` bytes.
  bool within_limit() {
    std::size_t added = 0;
    const xmlNode* node = doc_->children;
    while (node != nullptr && added <= limit_) {
      if (node->type == XML_ENTITY_REF_NODE) {
        add(added, growth(node));
      } else if (node->type == XML_ELEMENT_NODE) {
        for (const xmlAttr* a = node->properties; a != nullptr; a = a->next)
          for (const xmlNode* c = a->children; c != nullptr; c = c->next)
            if (c->type == XML_ENTITY_REF_NODE) add(added, growth(c));
      }
      // Depth first, never into a reference (its children are the entity's) nor into the DTD.
      if (node->children != nullptr && node->type != XML_ENTITY_REF_NODE && node->type != XML_DTD_NODE) {
        node = node->children;
        continue;
      }
      while (node != nullptr && node->next == nullptr) {
        node = node->parent;
        if (node != nullptr && node->type == XML_DOCUMENT_NODE) node = nullptr;
      }
      if (node != nullptr) node = node->next;
    }
    return added <= limit_;
  }

 private:
  void add(std::size_t& total, std::size_t n) const {
    total = n > limit_ || total + n > limit_ ? limit_ + 1 : total + n;
  }

  std::size_t growth(const xmlNode* ref) {
    if (ref->name == nullptr) return 0;
    const xmlEntity* entity = xmlGetDocEntity(doc_, ref->name);
    if (entity == nullptr) return 0;
    const std::size_t own = std::strlen(reinterpret_cast<const char*>(ref->name)) + 2;  // "&name;"
    const std::size_t size = entity_size(entity);
    return size > own ? size - own : 0;
  }

  // The entity's replacement text with every reference in it expanded, in bytes (saturating).
  std::size_t entity_size(const xmlEntity* entity) {
    if (entity->content == nullptr) return 0;  // external: never loaded (XML_PARSE_NONET, no DTD loading)
    if (const auto it = sizes_.find(entity); it != sizes_.end()) return it->second;
    if (!visiting_.insert(entity).second) return limit_ + 1;  // a reference cycle
    const std::string_view text(reinterpret_cast<const char*>(entity->content));
    std::size_t size = 0;
    std::size_t i = 0;
    while (i < text.size() && size <= limit_) {
      const std::size_t amp = text.find('&', i);
      if (amp == std::string_view::npos) {
        add(size, text.size() - i);
        break;
      }
      add(size, amp - i);
      std::string_view name;
      const std::size_t len = reference_length(text, amp, name);
      if (len == 0 || name.empty()) {  // a bare '&' or a character reference: at most its own length
        add(size, len == 0 ? 1 : len);
        i = amp + (len == 0 ? 1 : len);
        continue;
      }
      const std::string key(name);
      const xmlEntity* inner = xmlGetDocEntity(doc_, reinterpret_cast<const xmlChar*>(key.c_str()));
      add(size, inner == nullptr ? len : entity_size(inner));
      i = amp + len;
    }
    visiting_.erase(entity);
    sizes_.emplace(entity, size);
    return size;
  }

  xmlDoc* doc_;
  std::size_t limit_;
  std::unordered_map<const xmlEntity*, std::size_t> sizes_;
  std::unordered_set<const xmlEntity*> visiting_;
};

// Only a document with an internal DTD subset that declares entities can hold such references.
bool entities_within_budget(xmlDoc* doc) {
  if (doc == nullptr || doc->intSubset == nullptr || doc->intSubset->entities == nullptr) return true;
  return ExpansionMeter(doc, kMaxEntityExpansionBytes).within_limit();
}

std::unexpected<Error> entity_budget_error() {
  return fail(ErrorKind::kParse,
              fmt::format("feed: XML error: entity expansion over {} KiB", kMaxEntityExpansionBytes / 1024));
}

}  // namespace

Result<ParsedXml> parse_tolerant(std::string_view utf8) {
  Attempt strict = parse_once(utf8, kBaseOptions);
  if (strict.well_formed) {
    if (!entities_within_budget(strict.doc.get())) return entity_budget_error();
    return ParsedXml{std::move(strict.doc), false, {}};
  }
  // libxml2's own amplification guard stopped the parse: a repaired or recovered copy would hold the
  // same entities, so the document is refused, not read in part.
  if (strict.entity_loop) return entity_budget_error();

  const std::string repaired = repair_references(utf8);
  Attempt second = parse_once(repaired, kBaseOptions);
  if (second.well_formed) {
    if (!entities_within_budget(second.doc.get())) return entity_budget_error();
    return ParsedXml{std::move(second.doc), true, std::move(strict.error)};
  }
  if (second.entity_loop) return entity_budget_error();

  Attempt recovered = parse_once(repaired, kBaseOptions | XML_PARSE_RECOVER);
  if (recovered.entity_loop) return entity_budget_error();
  if (!recovered.doc || xmlDocGetRootElement(recovered.doc.get()) == nullptr)
    return fail(ErrorKind::kParse, "feed: " + strict.error);
  if (!entities_within_budget(recovered.doc.get())) return entity_budget_error();
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
