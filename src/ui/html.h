// HTML that is escaped by construction. An `Html` value can only come from
//   - a compile-time string literal (`Html::literal("<hr>")`, or the format string of `html(...)`),
//   - escaped text (`text(s)`, `attr(s)`), or a vetted URL (`href(url)`),
//   - other Html values (`html("<a href=\"{}\">{}</a>", href(url), text(title))`, `+=`, `join`).
// There is no constructor from a runtime std::string, so feed data cannot reach a page unescaped unless
// someone edits this file.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace longread::ui {

class Html;
namespace detail {
// Called only by html() below with a format string fmt checked at compile time. Never call it directly.
Html format_checked_html(fmt::string_view format, fmt::format_args args);
}  // namespace detail

// A string literal whose value is known at compile time: the only way to say "this is markup".
struct TrustedLiteral {
  consteval TrustedLiteral(const char* s) : value(s) {}  // NOLINT: implicit on purpose, literals only
  const char* value;
};

// A fragment of safe HTML.
class Html {
 public:
  Html() = default;
  static Html literal(TrustedLiteral markup) { return Html(markup.value); }

  [[nodiscard]] const std::string& str() const& { return markup_; }
  [[nodiscard]] std::string str() && { return std::move(markup_); }
  [[nodiscard]] bool empty() const { return markup_.empty(); }

  Html& operator+=(const Html& other) {
    markup_ += other.markup_;
    return *this;
  }
  friend Html operator+(Html a, const Html& b) { return a += b; }

 private:
  explicit Html(std::string markup) : markup_(std::move(markup)) {}
  std::string markup_;

  // Defined only in html.cpp: the one place that wraps a runtime string, after escaping or checking it.
  friend struct HtmlFactory;
  friend Html detail::format_checked_html(fmt::string_view format, fmt::format_args args);
};

// Text content: escapes & < > " ' (the attribute-safe set, so it is safe in quoted attributes too).
Html text(std::string_view s);
// A quoted attribute value (same escaping as text; a separate name documents intent at the call site).
Html attr(std::string_view s);
Html number(std::int64_t n);
// A URL fit for href/src: an absolute http(s) URL or a site path starting with one "/"; anything else
// (javascript:, data:, "//host", relative junk) is nullopt and the caller must not link it.
std::optional<Html> href(std::string_view url);
// `<a href="url" rel="noopener"...>label</a>` when `url` is http(s), else just the label (not linked).
Html external_link(std::string_view url, const Html& label, const Html& extra_attributes = {});
// Joins fragments with a separator.
Html join(const std::vector<Html>& parts, const Html& separator = {});
// Search snippet: escapes the text, then turns the store's \x01 / \x02 match markers into <mark>/</mark>
// (unbalanced markers are closed or dropped so the markup stays well-formed).
Html marked_snippet(std::string_view snippet);
// Plain text with paragraphs separated by blank lines -> <p> elements, whitespace folded; a paragraph
// of several lines (html_to_text keeps line breaks only inside <pre>) -> <pre>, its lines and
// indentation kept.
Html paragraphs(std::string_view text);

namespace detail {
template <typename>
using AsMarkup = const std::string&;
}  // namespace detail

// The tiny template function: the format string is a compile-time literal (checked by fmt) and every
// argument must already be Html.
template <typename... Args>
requires(std::is_same_v<std::remove_cvref_t<Args>, Html>&&...) Html
    html(fmt::format_string<detail::AsMarkup<Args>...> format, const Args&... args) {
  return detail::format_checked_html(fmt::string_view(format), fmt::make_format_args(args.str()...));
}

}  // namespace longread::ui
