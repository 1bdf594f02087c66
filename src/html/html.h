// HTML -> readable text, feed boilerplate removal, excerpts, and readability-style main-content
// extraction. Pure functions on strings (no I/O); parsing is done by gumbo, an HTML5 parser
// (WHATWG HTML "parsing HTML documents"), never by hand.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/error.h"

namespace longread::html {

// Inputs larger than this are truncated (html_to_text, looks_like_summary) or refused with kTooLarge
// (extract_main_content): gumbo needs roughly 10-20x the input in memory.
inline constexpr std::size_t kMaxInputBytes = 10 * 1024 * 1024;
// Element nesting deeper than this is flattened before parsing (the tags past the limit are dropped,
// their text kept): the HTML5 tree builder's scope checks are linear in the depth, so hostile
// nesting would otherwise cost quadratic time, and gumbo frees its tree recursively.
inline constexpr int kMaxNestingDepth = 512;

// HTML -> plain text. Block elements become paragraphs separated by "\n\n" (list items and headings
// each their own paragraph; <br> also breaks), whitespace is folded within paragraphs except in
// <pre>, entities are decoded, <figure> is kept (Jekyll wraps code blocks in it; a figcaption is its
// own paragraph), page chrome (script, style, noscript, form, nav, header, footer,
// aside, button, iframe, svg, video, hidden elements) is dropped, footnote
// reference markers and "↩" back-links are removed, images produce no text. Always valid UTF-8.
std::string html_to_text(std::string_view html);

// Removes feed boilerplate at the end of a text produced by html_to_text: "The post X appeared first
// on Y.", "Continue reading …", "Read more", "Read the rest of this entry", "(more…)", share and
// like widgets, "This entry was posted in …", "Subscribe …", comment footers ("3 comments", "Leave a
// comment"). A trailing "[…]" / "[...]" becomes "…". Only trailing paragraphs (and the tail of the
// last one) are touched, so prose that mentions "read more books" is kept.
std::string strip_boilerplate(std::string_view text);

// About max_chars code points of text, cut at a word boundary and ending in "…" when cut (the
// ellipsis counts towards max_chars). Paragraphs are joined with " ", or kept apart with "\n\n" when
// keep_paragraphs. Empty text gives "".
std::string make_excerpt(std::string_view text, std::size_t max_chars = 2000, bool keep_paragraphs = false);

// Is this feed entry only a summary of a longer post? True when the text is short (under 150
// words), ends in a truncation marker ("…", "...", "[…]", "Read more", "Continue reading"), has a
// WordPress more-link, or is a single paragraph of under 300 words.
bool looks_like_summary(std::string_view entry_html, std::string_view text);

// Reading time shown to readers: words / 230 rounded to nearest, at least 1 minute.
int reading_minutes(std::size_t words);

// The main content of a full page.
struct Extracted {
  std::string title;           // <title> (site suffix kept) or the first <h1>
  std::string content_html;    // serialized content subtree, relative href/src resolved against page_url
  std::string text;            // html_to_text(content_html)
  std::size_t candidates = 0;  // how many blocks were scored
};

// Readability-style main-content extraction (after Mozilla Readability's algorithm): unlikely
// blocks removed, paragraphs scored by length, commas, and class/id hints, scores propagated to
// parent and grandparent, the best candidate kept with its related siblings, then cleaned.
// Errors: kTooLarge over kMaxInputBytes; kNotFound "html: no main content found".
[[nodiscard]] Result<Extracted> extract_main_content(std::string_view page_html, std::string_view page_url);

}  // namespace longread::html
