#include "ui/html.h"

#include "core/strings.h"
#include "core/url.h"

namespace longread::ui {

struct HtmlFactory {
  static Html wrap(std::string markup) { return Html(std::move(markup)); }
};

namespace detail {
Html format_checked_html(fmt::string_view format, fmt::format_args args) {
  return Html(fmt::vformat(format, args));
}
}  // namespace detail

namespace {

void append_escaped(std::string& out, std::string_view s) {
  append_html_escaped(out, s);
}

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  append_escaped(out, s);
  return out;
}

}  // namespace

Html text(std::string_view s) {
  return HtmlFactory::wrap(escape(s));
}
Html attr(std::string_view s) {
  return HtmlFactory::wrap(escape(s));
}
Html number(std::int64_t n) {
  return HtmlFactory::wrap(std::to_string(n));
}

std::optional<Html> href(std::string_view url) {
  if (url.size() >= 1 && url[0] == '/' && (url.size() == 1 || url[1] != '/') &&
      url.find('\\') == std::string_view::npos) {
    return HtmlFactory::wrap(escape(url));
  }
  if (is_http_url(url)) return HtmlFactory::wrap(escape(url));
  return std::nullopt;
}

Html external_link(std::string_view url, const Html& label, const Html& extra_attributes) {
  if (!is_http_url(url)) return label;
  return HtmlFactory::wrap("<a href=\"" + escape(url) + "\" rel=\"noopener\"" +
                           (extra_attributes.empty() ? "" : " " + extra_attributes.str()) + ">" +
                           label.str() + "</a>");
}

Html join(const std::vector<Html>& parts, const Html& separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator.str();
    out += parts[i].str();
  }
  return HtmlFactory::wrap(std::move(out));
}

Html marked_snippet(std::string_view snippet) {
  std::string out;
  bool open = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= snippet.size(); ++i) {
    if (i < snippet.size() && snippet[i] != '\x01' && snippet[i] != '\x02') continue;
    append_escaped(out, snippet.substr(start, i - start));
    start = i + 1;
    if (i == snippet.size()) break;
    if (snippet[i] == '\x01' && !open) {
      out += "<mark>";
      open = true;
    } else if (snippet[i] == '\x02' && open) {
      out += "</mark>";
      open = false;
    }
  }
  if (open) out += "</mark>";
  return HtmlFactory::wrap(std::move(out));
}

namespace {
std::string_view trim_newlines(std::string_view s) {
  while (!s.empty() && (s.front() == '\n' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}
}  // namespace

Html paragraphs(std::string_view body) {
  std::string out;
  std::size_t pos = 0;
  while (pos < body.size()) {
    auto end = body.find("\n\n", pos);
    if (end == std::string_view::npos) end = body.size();
    const std::string_view raw = body.substr(pos, end - pos);
    const std::string para = collapse_whitespace(raw);
    // html_to_text folds whitespace inside paragraphs and keeps line breaks only inside <pre>: a
    // paragraph of several lines is code or verse laid out by its author.
    const std::string_view lines = trim_newlines(raw);
    if (!para.empty() && lines.find('\n') != std::string_view::npos) {
      // A long line scrolls inside the block: tabindex lets keyboard users focus it to scroll it
      // (WCAG 2.1.1; axe-core's scrollable-region-focusable).
      out += "<pre tabindex=\"0\">";
      append_escaped(out, lines);
      out += "</pre>\n";
    } else if (!para.empty()) {
      out += "<p>";
      append_escaped(out, para);
      out += "</p>\n";
    }
    pos = end + 2;
  }
  return HtmlFactory::wrap(std::move(out));
}

}  // namespace longread::ui
