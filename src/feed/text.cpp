#include "feed/text.h"

#include <libxml/HTMLparser.h>

#include <climits>
#include <memory>

#include "core/strings.h"
#include "core/url.h"

namespace longread::feed {
namespace {
struct HtmlDocDeleter {
  void operator()(xmlDoc* doc) const noexcept { xmlFreeDoc(doc); }
};

void append_text(const xmlNode* node, std::string& out) {
  for (const xmlNode* c = node; c != nullptr; c = c->next) {
    if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
      if (c->content) out += reinterpret_cast<const char*>(c->content);
    } else if (c->type == XML_ELEMENT_NODE) {
      const std::string_view name(reinterpret_cast<const char*>(c->name));
      if (name == "script" || name == "style") continue;
      if (name == "br" || name == "p" || name == "div") out.push_back(' ');
      // libxml2's HTML parser caps nesting depth, so this recursion is bounded.
      append_text(c->children, out);
    }
  }
}
}  // namespace

std::string plain_text(std::string_view text) {
  return collapse_whitespace(sanitize_utf8(text));
}

std::string unescape_plain_text(std::string_view text) {
  if (text.find('&') == std::string_view::npos) return plain_text(text);
  std::string escaped;
  escaped.reserve(text.size() + 16);
  for (const char c : text) {
    if (c == '<')
      escaped += "&lt;";
    else if (c == '>')
      escaped += "&gt;";
    else
      escaped.push_back(c);
  }
  return html_to_text(escaped);
}

std::string html_to_text(std::string_view html) {
  if (html.find_first_of("<&") == std::string_view::npos) return plain_text(html);
  const std::string copy(html);
  const int size = copy.size() > static_cast<std::size_t>(INT_MAX) ? INT_MAX : static_cast<int>(copy.size());
  std::unique_ptr<xmlDoc, HtmlDocDeleter> doc(
      htmlReadMemory(copy.data(), size, nullptr, "UTF-8",
                     HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET));
  if (!doc) return plain_text(html);
  std::string out;
  append_text(doc->children, out);
  return plain_text(out);
}

std::string escape_html(std::string_view text) {
  return html_escape(text);
}

std::string resolve_or_keep(std::string_view base, std::string_view ref) {
  const auto trimmed = trim(ref);
  if (trimmed.empty()) return {};
  if (base.empty()) return std::string(trimmed);
  auto resolved = resolve_url(base, trimmed);
  return resolved ? std::move(*resolved) : std::string(trimmed);
}

}  // namespace longread::feed
