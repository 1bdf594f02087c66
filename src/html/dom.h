// Internal: an owned gumbo parse tree and small helpers over gumbo nodes shared by text.cpp and
// extract.cpp. Not part of the public API.
#pragma once

#include <gumbo.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace longread::html::detail {

// Bump allocator for one gumbo parse: gumbo makes one malloc per node, attribute, vector and string
// buffer, and freeing the tree walks it again; with an arena both become a few block allocations and one
// release. Freed pieces are not reused (gumbo's vectors grow by doubling, so at most about twice the
// live size is held), and everything goes when the arena does.
class Arena {
 public:
  void* allocate(std::size_t size);

 private:
  static constexpr std::size_t kBlockBytes = 64 * 1024;
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
  std::byte* next_ = nullptr;
  std::size_t left_ = 0;
};

// A parsed HTML document. Move-only owner of the GumboOutput and the arena its nodes live in.
// The input is capped at kMaxInputBytes and its nesting flattened to kMaxNestingDepth before gumbo sees
// it.
class Document {
 public:
  explicit Document(std::string_view html);
  ~Document();
  Document(Document&& other) noexcept;
  Document& operator=(Document&& other) noexcept;
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  [[nodiscard]] GumboNode* root() const noexcept { return output_ ? output_->root : nullptr; }
  // True when the input was cut at kMaxInputBytes.
  [[nodiscard]] bool truncated() const noexcept { return truncated_; }

 private:
  std::string buffer_;             // gumbo's nodes point into the parsed bytes, so they live here
  std::unique_ptr<Arena> arena_;   // every allocation of the parse (stable address: gumbo's userdata)
  GumboOutput* output_ = nullptr;  // in arena_
  bool truncated_ = false;
};

// Returns a copy of `html` whose element nesting never exceeds max_depth (start tags past the limit
// and their end tags removed), or nullopt when the input is already within the limit. A linear scan
// that skips comments and raw-text elements (script, style, textarea, title); it is an estimate of
// the tree depth, erring on the deep side, which only ever drops tags, never text.
std::optional<std::string> limit_nesting(std::string_view html, int max_depth);

// Lower-case tag name, including unknown/custom elements ("my-widget").
std::string tag_name(const GumboNode* node);
inline bool is_element(const GumboNode* n) {
  return n->type == GUMBO_NODE_ELEMENT || n->type == GUMBO_NODE_TEMPLATE;
}
inline bool is_tag(const GumboNode* n, GumboTag tag) {
  return is_element(n) && n->v.element.tag == tag;
}
// Attribute value or "" when absent.
std::string_view attr(const GumboNode* n, const char* name);
bool has_attr(const GumboNode* n, const char* name);
// "class id" lower-cased, for the readability hints.
std::string class_and_id(const GumboNode* n);

// True for elements whose content is page chrome, never article text (script, style, nav, form...).
bool is_chrome_tag(GumboTag tag);
// True for elements hidden from readers (hidden attribute, aria-hidden, display:none).
bool is_hidden(const GumboNode* n);
// Footnote reference markers (<sup><a href="#fn1">1</a></sup>, "[1]") and back-links ("↩").
bool is_footnote_marker(const GumboNode* n);
// Block-level elements: they begin a new paragraph.
bool is_block_tag(GumboTag tag);
// Elements whose whitespace is kept (pre, listing, xmp, plaintext).
bool is_pre_tag(GumboTag tag);

// The rules above on plain attribute values, shared by the gumbo walk and the SAX walk (text.cpp), which
// has no tree. is_hidden: `has_hidden` is the presence of the hidden attribute.
bool is_hidden(bool has_hidden, std::string_view aria_hidden, std::string_view style);
// is_footnote_marker in two halves: what an <a> or <sup> start tag decides from its attributes (kMaybe:
// it depends on the element's text and links), and the decision on its trimmed text. A <sup> is a marker
// when that text is at most kMaxMarkerTextBytes and the element holds a link to "#...".
enum class FootnoteMarker { kNo, kYes, kMaybe };
FootnoteMarker footnote_marker_by_attributes(GumboTag tag, std::string_view classes, std::string_view role,
                                             std::string_view href);
inline constexpr std::size_t kMaxMarkerTextBytes = 8;
// Link text of a back-link or permalink: "↩" (with or without a variation selector), "↑", "^", "¶", "#", "§".
bool is_backlink_text(std::string_view trimmed_text);

// html_to_text as a walk over gumbo's HTML5 tree: the reference the libxml2 version is measured
// against (tests, bench/ingest/stage_bench).
std::string html_to_text_gumbo(std::string_view html);

// Concatenated text content of a subtree (no chrome filtering), whitespace not folded.
std::string inner_text(const GumboNode* n);

}  // namespace longread::html::detail
