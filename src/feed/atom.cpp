#include "feed/atom.h"

#include <sodium.h>

#include "core/strings.h"
#include "feed/text.h"
#include "feed/xml.h"

namespace longread::feed::atom {
namespace {
using xml::Ns;

std::string base_of(const xmlNode* node, const std::string& parent_base) {
  const std::string own = xml::xml_base(node);
  return own.empty() ? parent_base : resolve_or_keep(parent_base, own);
}

// Atom elements: either Atom namespace, none, or whatever namespace the root uses (Atom 0.3's pre-release
// "echo" namespaces).
bool is_atom(const xmlNode* node, const xmlNs* root_ns) {
  const Ns ns = xml::ns_of(node);
  if (ns == Ns::kAtom10 || ns == Ns::kAtom03 || ns == Ns::kNone) return true;
  return root_ns != nullptr && node->ns != nullptr && xmlStrEqual(node->ns->href, root_ns->href);
}

std::string trimmed_text(const xmlNode* node) {
  return std::string(trim(xml::text(node)));
}

// Folds Atom 1.0 types, Atom 0.3 MIME types and 0.3's `mode` into "text", "html" or "xhtml".
std::string text_type(const xmlNode* node) {
  const std::string type = to_lower_ascii(trim(xml::attr(node, "type")));
  const std::string mode = to_lower_ascii(trim(xml::attr(node, "mode")));
  if (type.empty() || type == "text" || type == "text/plain") return mode == "escaped" ? "text" : "text";
  if (type == "html" || type == "text/html") return "html";
  if (type == "xhtml" || type == "application/xhtml+xml") return mode == "escaped" ? "html" : "xhtml";
  if (type.starts_with("text/")) return "text";
  if (type.ends_with("+xml") || type.ends_with("/xml")) return mode == "escaped" ? "text" : "xhtml";
  return "text";
}

// Atom 0.3 mode="base64", and Atom 1.0 content of a non-text, non-XML MIME type (RFC 4287 section 4.1.3.3),
// is base64; decoded with libsodium.
bool is_base64(const xmlNode* node) {
  const std::string type = to_lower_ascii(trim(xml::attr(node, "type")));
  const std::string mode = to_lower_ascii(trim(xml::attr(node, "mode")));
  if (mode == "base64") return true;
  if (type.find('/') == std::string::npos || type.starts_with("text/")) return false;
  return !(type.ends_with("+xml") || type.ends_with("/xml"));
}

std::string decode_base64(std::string_view encoded) {
  std::string out(encoded.size() / 4 * 3 + 3, '\0');
  std::size_t length = 0;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), encoded.data(),
                        encoded.size(), " \t\r\n", &length, nullptr, sodium_base64_VARIANT_ORIGINAL) != 0)
    return std::string(encoded);
  out.resize(length);
  return out;
}

bool has_element_child(const xmlNode* node) {
  for (const xmlNode* c = node->children; c != nullptr; c = c->next)
    if (xml::is_element(c)) return true;
  return false;
}

Text read_text(const xmlNode* node, const std::string& parent_base, bool atom10) {
  Text t;
  t.present = true;
  t.base = base_of(node, parent_base);
  t.type = text_type(node);
  t.src = xml::attr(node, "src");
  if (is_base64(node)) {
    t.value = decode_base64(trim(xml::text(node)));
    t.type = to_lower_ascii(trim(xml::attr(node, "type"))) == "text/plain" ? "text" : "html";
    return t;
  }
  // Markup written inline in a "text" construct (Atom 0.3's default mode is xml) is read as markup.
  if (t.type == "text" && has_element_child(node)) t.type = "xhtml";
  if (t.type == "xhtml") {
    // RFC 4287 section 3.1.1.3: Atom 1.0 xhtml content is a single xhtml:div whose children are the value;
    // Atom 0.3 has no wrapper, so a div there is part of the content.
    const xmlNode* div = nullptr;
    for (const xmlNode* c = atom10 ? node->children : nullptr; c != nullptr; c = c->next) {
      if (!xml::is_element(c)) continue;
      if (xml::name_of(c) == "div" && div == nullptr) {
        div = c;
      } else {
        div = nullptr;
        break;
      }
    }
    if (div != nullptr) {
      t.base = base_of(div, t.base);
      t.value = xml::inner_xml(div);
    } else {
      t.value = xml::inner_xml(node);
    }
  } else {
    t.value = xml::text_or_markup(node);
  }
  return t;
}

RawLink read_link(const xmlNode* node, const std::string& base) {
  RawLink link{xml::attr(node, "href"), base_of(node, base),      xml::attr(node, "rel"),
               xml::attr(node, "type"), xml::attr(node, "title"), xml::attr(node, "length")};
  if (link.rel.empty()) link.rel = "alternate";  // RFC 4287 section 4.2.7.2
  // atom:link is empty with an href (RFC 4287 section 4.2.7); a link written RSS-style, the URL as its
  // content and no href, still names that URL (feedparser reads it so too).
  if (link.href.empty()) link.href = trimmed_text(node);
  return link;
}

Person read_person(const xmlNode* node) {
  Person p;
  for (const xmlNode* c = node->children; c != nullptr; c = c->next) {
    if (!xml::is_element(c)) continue;
    const std::string_view name = xml::name_of(c);
    if (name == "name")
      p.name = plain_text(xml::text(c));
    else if (name == "email")
      p.email = trimmed_text(c);
    else if (name == "uri" || name == "url")
      p.uri = trimmed_text(c);
  }
  if (p.name.empty() && node->children != nullptr && node->children->next == nullptr)
    p.name = plain_text(xml::text(node));  // <author>Name</author>, seen in the wild
  return p;
}

void set_once(std::string& field, std::string value) {
  if (field.empty()) field = std::move(value);
}

Entry read_entry(const xmlNode* node, const std::string& parent_base, bool atom10, const xmlNs* root_ns) {
  Entry e;
  e.base = base_of(node, parent_base);
  std::string issued, modified, created;
  for (const xmlNode* c = node->children; c != nullptr; c = c->next) {
    if (!xml::is_element(c)) continue;
    const Ns ns = xml::ns_of(c);
    const std::string_view name = xml::name_of(c);
    if (is_atom(c, root_ns)) {
      if (name == "id") {
        if (e.id.empty()) e.id_base = base_of(c, e.base);
        set_once(e.id, trimmed_text(c));
      } else if (name == "title" && !e.title.present)
        e.title = read_text(c, e.base, atom10);
      else if (name == "summary" && !e.summary.present)
        e.summary = read_text(c, e.base, atom10);
      else if (name == "content" && !e.content.present)
        e.content = read_text(c, e.base, atom10);
      else if (name == "link")
        e.links.push_back(read_link(c, e.base));
      else if (name == "author")
        e.authors.push_back(read_person(c));
      else if (name == "published")
        set_once(e.published, trimmed_text(c));
      else if (name == "updated")
        set_once(e.updated, trimmed_text(c));
      else if (name == "issued")
        set_once(issued, trimmed_text(c));
      else if (name == "modified")
        set_once(modified, trimmed_text(c));
      else if (name == "created")
        set_once(created, trimmed_text(c));
      else if (name == "category") {
        std::string term = xml::attr(c, "term");
        if (term.empty()) term = plain_text(xml::text(c));
        if (!term.empty()) e.categories.push_back(std::move(term));
      }
    } else if (ns == Ns::kDc) {
      if (name == "creator" && e.authors.empty())
        e.authors.push_back(Person{plain_text(xml::text(c)), {}, {}});
      else if (name == "subject")
        e.categories.push_back(plain_text(xml::text(c)));
    }
  }
  // Atom 0.3: issued is the publication date, modified the update; created stands in for both.
  if (e.published.empty()) e.published = !issued.empty() ? issued : created;
  if (e.updated.empty()) e.updated = modified;
  return e;
}
}  // namespace

Feed read(const xmlNode* root, const std::string& base_url) {
  Feed feed;
  const Ns root_ns = xml::ns_of(root);
  if (root_ns == Ns::kAtom10)
    feed.version = "atom10";
  else if (root_ns == Ns::kAtom03 || trim(xml::attr(root, "version")) == "0.3")
    feed.version = "atom03";
  else if (trim(xml::attr(root, "version")) == "1.0")
    feed.version = "atom10";
  else
    feed.version = "atom";
  const bool atom10 = feed.version != "atom03";
  feed.base = base_of(root, base_url);
  feed.language = xml::xml_lang(root);
  for (const xmlNode* c = root->children; c != nullptr; c = c->next) {
    if (!xml::is_element(c) || !is_atom(c, root->ns)) continue;
    const std::string_view name = xml::name_of(c);
    if (name == "entry")
      feed.entries.push_back(read_entry(c, feed.base, atom10, root->ns));
    else if (name == "id") {
      if (feed.id.empty()) feed.id_base = base_of(c, feed.base);
      set_once(feed.id, trimmed_text(c));
    } else if (name == "title" && !feed.title.present)
      feed.title = read_text(c, feed.base, atom10);
    else if ((name == "subtitle" || name == "tagline") && !feed.subtitle.present)
      feed.subtitle = read_text(c, feed.base, atom10);
    else if (name == "link")
      feed.links.push_back(read_link(c, feed.base));
    else if (name == "author")
      feed.authors.push_back(read_person(c));
    else if (name == "updated" || name == "modified")
      set_once(feed.updated, trimmed_text(c));
  }
  return feed;
}

}  // namespace longread::feed::atom
