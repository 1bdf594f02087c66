// Text helpers for the adapters: HTML -> plain text for titles, escaping of plain text into HTML.
#pragma once

#include <string>
#include <string_view>

namespace longread::feed {

// Plain text of an HTML fragment: markup stripped, entities decoded (libxml2's HTML parser), whitespace
// folded. Text without '<' or '&' is only folded.
std::string html_to_text(std::string_view html);
// Plain text with whitespace folded, made valid UTF-8.
std::string plain_text(std::string_view text);
// Plain text whose character references (&amp;, &#8217;, &hellip;) are decoded by libxml2's HTML
// parser, for fields that are plain text by their spec but often written HTML-escaped (JSON Feed
// titles from WordPress): "Tom &amp; Jerry" -> "Tom & Jerry". Tags stay text: "<b>" is kept as "<b>".
std::string unescape_plain_text(std::string_view text);
// Escapes &, <, >, " so that plain text can be embedded in HTML.
std::string escape_html(std::string_view text);
// Resolves `ref` against `base` (core/url.h); keeps `ref` unchanged when it cannot be resolved.
std::string resolve_or_keep(std::string_view base, std::string_view ref);

}  // namespace longread::feed
