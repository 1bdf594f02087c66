#include "feed/detect.h"

#include <fmt/format.h>

#include "core/strings.h"

namespace longread::feed {
namespace {
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Skips whitespace, XML declaration, processing instructions, comments and a DOCTYPE (noting whether it
// declares an HTML document). Returns the offset of the root element's '<', or npos.
std::size_t skip_prolog(std::string_view text, std::size_t i, bool& html_doctype) {
  while (i < text.size()) {
    if (is_space(text[i])) {
      ++i;
      continue;
    }
    if (text[i] != '<') return std::string_view::npos;
    const std::string_view rest = text.substr(i);
    std::size_t end = std::string_view::npos;
    if (rest.starts_with("<?")) {
      end = text.find("?>", i);
      if (end != std::string_view::npos) end += 2;
    } else if (rest.starts_with("<!--")) {
      end = text.find("-->", i);
      if (end != std::string_view::npos) end += 3;
    } else if (starts_with_icase(rest, "<!DOCTYPE")) {
      const std::string_view root = trim(rest.substr(9, 10));
      if (starts_with_icase(root, "html")) html_doctype = true;
      // An internal subset [...] may contain '>' characters.
      const std::size_t bracket = text.find_first_of("[>", i);
      if (bracket != std::string_view::npos && text[bracket] == '[') {
        end = text.find("]", bracket);
        if (end != std::string_view::npos) end = text.find('>', end);
      } else {
        end = bracket;
      }
      if (end != std::string_view::npos) end += 1;
    } else {
      return i;
    }
    if (end == std::string_view::npos) return std::string_view::npos;
    i = end;
  }
  return std::string_view::npos;
}
}  // namespace

Result<Detected> detect_format(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return fail(ErrorKind::kNotAFeed, "feed: not a feed: empty document");
  if (text[first] == '{') return Detected{Format::kJsonFeed, first};
  // Junk before the markup (a PHP warning, a stray byte) is tolerated: start at the first '<'.
  const std::size_t start = text.find('<', first);
  if (start == std::string_view::npos || start - first > 1024)
    return fail(ErrorKind::kNotAFeed, "feed: not a feed: no markup found");
  bool html_doctype = false;
  const std::size_t root = skip_prolog(text, start, html_doctype);
  if (html_doctype) return fail(ErrorKind::kNotAFeed, "feed: not a feed: got an HTML page");
  if (root == std::string_view::npos) return fail(ErrorKind::kNotAFeed, "feed: not a feed: no root element");
  std::size_t end = root + 1;
  while (end < text.size() && !is_space(text[end]) && text[end] != '>' && text[end] != '/') ++end;
  std::string_view name = text.substr(root + 1, end - root - 1);
  if (const auto colon = name.find(':'); colon != std::string_view::npos) name = name.substr(colon + 1);
  if (name == "rss" || name == "channel" || name == "CHANNEL") return Detected{Format::kRss, start};
  if (name == "RDF") return Detected{Format::kRdf, start};
  if (name == "feed") return Detected{Format::kAtom, start};
  if (iequals(name, "html")) return fail(ErrorKind::kNotAFeed, "feed: not a feed: got an HTML page");
  return fail(ErrorKind::kNotAFeed,
              fmt::format("feed: not a feed: unknown root element <{}>", sanitize_utf8(name.substr(0, 64))));
}

}  // namespace longread::feed
