// HTML -> readable text, feed boilerplate removal, excerpts, and readability-style main-content
// extraction. Pure functions on strings (no I/O); parsing is done by gumbo, an HTML5 parser
// (WHATWG HTML "parsing HTML documents"), never by hand.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

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

// A blog's template: the paragraphs and lines (numbers and addresses normalised, see template_key) that
// recur across most of its recent entries, whatever they say: "Thank you for reading via RSS ...",
// "submitted by /u/x [link] [comments]", an affiliate disclosure. Learned from the blog's entries by
// learn_feed_template, removed from one entry's text by strip_feed_template.
struct FeedTemplate {
  std::unordered_set<std::string> keys;  // template_key of each recurring paragraph or line
  std::size_t sample = 0;                // distinct texts it was learned from
  [[nodiscard]] bool empty() const { return keys.empty(); }
};

// Fewer distinct texts than this teach nothing: with 2 entries, "most" would be everything they share.
inline constexpr std::size_t kTemplateMinSample = 5;
// Paragraphs longer than this are never template (a footer is short; it also bounds the work).
inline constexpr std::size_t kTemplateMaxParagraphBytes = 4000;

// The comparison form of a paragraph or line: white space folded, ASCII lowercased, every run of digits
// "#", every token that is an address "<url>" (a scheme "x://", "www.", "mailto:", an e-mail address, a
// path "/u/name", or a host with a path "ko-fi.com/name"). "" when nothing but numbers, addresses and
// punctuation is left: such a line ("https://example.org/1", "2024") is never template by itself.
std::string template_key(std::string_view paragraph);
namespace detail {
// template_key, with plain words (ASCII letters, brackets, quotes, sentence punctuation) taken by a shortcut
// or, when `plain_words` is false, through the whole of the rules like any other token: the same key either
// way, which a test checks on random tokens.
std::string template_key(std::string_view paragraph, bool plain_words);
}  // namespace detail

// The paragraphs (texts as html_to_text makes them, apart at "\n\n") and the lines of multi-line
// paragraphs that occur in more than half of the distinct `texts`, each counted once per text. Empty
// when there are fewer than kTemplateMinSample distinct texts.
FeedTemplate learn_feed_template(const std::vector<std::string>& texts);

// `text` without the template's paragraphs and lines at its start and end: from the end (and then from
// the start), a whole paragraph whose key is template goes, else its last (first) line when that is, until
// one that is not. Template text between two paragraphs of the entry's own stays (a code line that recurs
// across a blog's posts, a "Conclusion" heading). When nothing with a word in it would remain, the text is
// returned unchanged: an entry that is only template is judged on all of it.
std::string strip_feed_template(std::string_view text, const FeedTemplate& feed_template);

// About max_chars code points of text, cut at a word boundary and ending in "…" when cut (the
// ellipsis counts towards max_chars). Paragraphs are joined with " ", or kept apart with "\n\n" when
// keep_paragraphs. Empty text gives "".
std::string make_excerpt(std::string_view text, std::size_t max_chars = 2000, bool keep_paragraphs = false);

// Is this feed entry only a summary of a longer post? True when the text is short (under 150
// words), ends in a truncation marker ("…", "...", "[…]", "Read more", "Continue reading"), has a
// WordPress more-link, or is a single paragraph of under 300 words.
bool looks_like_summary(std::string_view entry_html, std::string_view text);
// The same, for a caller that already knows whether html_to_text(entry_html) ends in a truncation marker
// (the crawler does: it made that text to build the article), which spares a second parse of the entry.
bool looks_like_summary(std::string_view entry_html, std::string_view text, bool html_text_ends_with_marker);

// Whether a text ends in a truncation marker: "…", "...", "[…]", "(more…)", or a more-link such as
// "Read more »" or "Continue reading →" in its last 200 bytes.
bool ends_with_truncation_marker(std::string_view text);

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
