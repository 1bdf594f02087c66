#include "feed/opml.h"

#include <libxml/tree.h>

#include <algorithm>
#include <memory>

#include "core/strings.h"
#include "feed/encoding.h"
#include "feed/text.h"
#include "feed/xml.h"

namespace longread::feed {
namespace {

constexpr const char* kLongreadNs = "https://longread.invalid/ns/opml";

// Attribute by local name, ignoring ASCII case ("xmlUrl", "xmlurl", "XMLURL" all occur) and namespace.
std::string attr_icase(const xmlNode* node, std::string_view name) {
  for (const xmlAttr* a = node->properties; a != nullptr; a = a->next) {
    if (a->name == nullptr || !iequals(reinterpret_cast<const char*>(a->name), name)) continue;
    std::string value;
    for (const xmlNode* c = a->children; c != nullptr; c = c->next)
      if (c->content) value += reinterpret_cast<const char*>(c->content);
    return std::string(trim(value));
  }
  return {};
}

bool has_attr_icase(const xmlNode* node, std::string_view name) {
  for (const xmlAttr* a = node->properties; a != nullptr; a = a->next) {
    if (a->name != nullptr && iequals(reinterpret_cast<const char*>(a->name), name)) return true;
  }
  return false;
}

std::string outline_title(const xmlNode* node) {
  std::string title = attr_icase(node, "title");
  if (title.empty()) title = attr_icase(node, "text");
  return plain_text(title);
}

// OPML 2.0 `category`: comma-separated slash-delimited paths; the first component of the first path.
std::string category_attribute(const xmlNode* node) {
  const std::string value = attr_icase(node, "category");
  if (value.empty()) return {};
  std::string_view first = trim(split(value, ',').front());
  while (first.starts_with('/')) first.remove_prefix(1);
  return plain_text(split(first, '/').front());
}

void collect(const xmlNode* parent, const std::string& category, int depth, std::vector<OpmlBlog>& out) {
  if (depth > 64) return;  // libxml2 already caps nesting; this keeps the recursion obviously bounded
  for (const xmlNode* c = parent->children; c != nullptr; c = c->next) {
    if (!xml::is_element(c) || xml::name_of(c) != "outline") continue;
    const std::string feed_url = attr_icase(c, "xmlUrl");
    if (!feed_url.empty()) {
      OpmlBlog blog;
      blog.feed_url = sanitize_utf8(feed_url);
      blog.site_url = sanitize_utf8(attr_icase(c, "htmlUrl"));
      blog.title = outline_title(c);
      blog.category = !category.empty() ? category : category_attribute(c);
      blog.short_form = iequals(attr_icase(c, "shortForm"), "true");
      if (const std::string paused = attr_icase(c, "paused"); iequals(paused, "true"))
        blog.paused = true;
      else if (iequals(paused, "false"))
        blog.paused = false;
      if (std::string reason = sanitize_utf8(attr_icase(c, "retired")); !reason.empty())
        blog.retired = std::move(reason);
      if (has_attr_icase(c, "allowHosts")) {
        blog.allowed_hosts.emplace();
        const std::string hosts = sanitize_utf8(attr_icase(c, "allowHosts"));
        for (auto word : split(hosts, ' ')) {
          if (!word.empty()) blog.allowed_hosts->emplace_back(word);
        }
      }
      out.push_back(std::move(blog));
    }
    // A folder outline (no xmlUrl) names the category of everything inside it; the top-level one wins.
    collect(c, category.empty() && feed_url.empty() ? outline_title(c) : category, depth + 1, out);
  }
}

struct DocDeleter {
  void operator()(xmlDoc* doc) const noexcept { xmlFreeDoc(doc); }
};

const xmlChar* x(const char* s) {
  return reinterpret_cast<const xmlChar*>(s);
}

}  // namespace

Result<std::vector<OpmlBlog>> parse_opml(std::string_view bytes) {
  const DecodedText decoded = decode_to_utf8(bytes, {});
  const std::string_view text = trim(decoded.text());
  if (text.empty()) return fail(ErrorKind::kInvalidInput, "opml: empty document");
  auto parsed = xml::parse_tolerant(text);
  if (!parsed) return fail(ErrorKind::kInvalidInput, "opml: " + parsed.error().message.substr(6));
  const xmlNode* root = xmlDocGetRootElement(parsed->doc.get());
  if (root == nullptr || xml::name_of(root) != "opml")
    return fail(ErrorKind::kInvalidInput, "opml: not an OPML document");
  std::vector<OpmlBlog> blogs;
  for (const xmlNode* c = root->children; c != nullptr; c = c->next)
    if (xml::is_element(c) && xml::name_of(c) == "body") collect(c, {}, 0, blogs);
  return blogs;
}

std::string write_opml(const std::vector<OpmlBlog>& blogs, std::string_view title) {
  std::unique_ptr<xmlDoc, DocDeleter> doc(xmlNewDoc(x("1.0")));
  xmlNode* root = xmlNewDocNode(doc.get(), nullptr, x("opml"), nullptr);
  xmlDocSetRootElement(doc.get(), root);
  xmlSetProp(root, x("version"), x("2.0"));
  xmlNs* ns = xmlNewNs(root, x(kLongreadNs), x("longread"));
  xmlNode* head = xmlNewChild(root, nullptr, x("head"), nullptr);
  const std::string title_text = sanitize_utf8(title);
  xmlNewTextChild(head, nullptr, x("title"), x(title_text.c_str()));
  xmlNode* body = xmlNewChild(root, nullptr, x("body"), nullptr);

  // Categories in order of first appearance, uncategorised blogs first at the top level.
  std::vector<std::string> categories;
  for (const auto& b : blogs)
    if (std::find(categories.begin(), categories.end(), b.category) == categories.end())
      categories.push_back(b.category);
  std::stable_partition(categories.begin(), categories.end(), [](const std::string& c) { return c.empty(); });
  for (const auto& category : categories) {
    xmlNode* parent = body;
    if (!category.empty()) {
      const std::string name = sanitize_utf8(category);
      parent = xmlNewChild(body, nullptr, x("outline"), nullptr);
      xmlSetProp(parent, x("text"), x(name.c_str()));
      xmlSetProp(parent, x("title"), x(name.c_str()));
    }
    for (const auto& b : blogs) {
      if (b.category != category) continue;
      const std::string blog_title = sanitize_utf8(b.title), feed_url = sanitize_utf8(b.feed_url),
                        site_url = sanitize_utf8(b.site_url);
      xmlNode* outline = xmlNewChild(parent, nullptr, x("outline"), nullptr);
      xmlSetProp(outline, x("type"), x("rss"));
      xmlSetProp(outline, x("text"), x(blog_title.c_str()));
      xmlSetProp(outline, x("title"), x(blog_title.c_str()));
      xmlSetProp(outline, x("xmlUrl"), x(feed_url.c_str()));
      if (!site_url.empty()) xmlSetProp(outline, x("htmlUrl"), x(site_url.c_str()));
      if (b.short_form) xmlSetNsProp(outline, ns, x("shortForm"), x("true"));
      if (b.paused.value_or(false)) xmlSetNsProp(outline, ns, x("paused"), x("true"));
      if (b.retired && !b.retired->empty()) {
        const std::string reason = sanitize_utf8(*b.retired);
        xmlSetNsProp(outline, ns, x("retired"), x(reason.c_str()));
      }
      if (b.allowed_hosts && !b.allowed_hosts->empty()) {
        std::string hosts;
        for (const auto& host : *b.allowed_hosts) hosts += (hosts.empty() ? "" : " ") + sanitize_utf8(host);
        xmlSetNsProp(outline, ns, x("allowHosts"), x(hosts.c_str()));
      }
    }
  }
  xmlChar* out = nullptr;
  int size = 0;
  xmlDocDumpFormatMemoryEnc(doc.get(), &out, &size, "UTF-8", 1);
  std::string result(reinterpret_cast<const char*>(out), static_cast<std::size_t>(size));
  xmlFree(out);
  return result;
}

}  // namespace longread::feed
