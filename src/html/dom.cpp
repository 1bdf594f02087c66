#include "html/dom.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "core/strings.h"
#include "html/html.h"

namespace longread::html::detail {
namespace {

bool is_ascii_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_name_char(char c) {
  return is_ascii_alpha(c) || (c >= '0' && c <= '9') || c == '-' || c == ':' || c == '_';
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

bool in_list(std::string_view name, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// WHATWG HTML "void elements": never have an end tag, never nest.
bool is_void(std::string_view name) {
  return in_list(name, {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                        "source", "track", "wbr", "keygen", "frame", "basefont", "bgsound", "image"});
}
// Elements whose end tag is implied by a sibling start tag: a run of them does not deepen the tree.
bool is_self_limiting(std::string_view name) {
  return in_list(name, {"p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "tbody", "thead",
                        "tfoot", "colgroup", "rb", "rt", "rp", "html", "head", "body"});
}
// Elements whose content the tokenizer reads as raw text up to the matching end tag.
bool is_raw_text(std::string_view name) {
  return in_list(
      name, {"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"});
}

// Position of the case-insensitive "</name" at or after `from`, or npos.
std::size_t find_end_tag(std::string_view s, std::string_view name, std::size_t from) {
  while (true) {
    const auto lt = s.find("</", from);
    if (lt == std::string_view::npos) return lt;
    if (starts_with_icase(s.substr(lt + 2), name)) return lt;
    from = lt + 2;
  }
}

// Index just past the '>' closing a tag whose name ends at `p`; quoted attribute values may hold '>'.
std::size_t tag_end(std::string_view s, std::size_t p) {
  bool after_equals = false;
  while (p < s.size()) {
    const char c = s[p];
    if (c == '>') return p + 1;
    if (after_equals && (c == '"' || c == '\'')) {
      const auto close = s.find(c, p + 1);
      if (close == std::string_view::npos) return s.size();
      p = close + 1;
      after_equals = false;
      continue;
    }
    if (c == '=') {
      after_equals = true;
    } else if (!is_space(c)) {
      after_equals = false;
    }
    ++p;
  }
  return s.size();
}

// One pass of the nesting limiter; writes the rewritten document to `out` when given. Returns
// whether any tag had to be dropped.
bool limit_nesting_pass(std::string_view s, int max_depth, std::string* out) {
  int depth = 0;
  std::size_t dropped = 0;
  bool any = false;
  std::size_t copied = 0;
  auto drop = [&](std::size_t begin, std::size_t end) {
    if (out) out->append(s.substr(copied, begin - copied));
    copied = end;
    any = true;
  };
  std::size_t i = 0;
  while (true) {
    const auto lt = s.find('<', i);
    if (lt == std::string_view::npos || lt + 1 >= s.size()) break;
    i = lt + 1;
    if (s.substr(lt, 4) == "<!--") {
      const auto end = s.find("-->", lt + 4);
      i = end == std::string_view::npos ? s.size() : end + 3;
      continue;
    }
    if (s[lt + 1] == '!' || s[lt + 1] == '?') {
      const auto end = s.find('>', lt + 1);
      i = end == std::string_view::npos ? s.size() : end + 1;
      continue;
    }
    const bool closing = s[lt + 1] == '/';
    std::size_t p = lt + 1 + (closing ? 1 : 0);
    if (p >= s.size() || !is_ascii_alpha(s[p])) continue;
    const std::size_t name_begin = p;
    while (p < s.size() && is_name_char(s[p])) ++p;
    // Lower-cased into a local buffer: this scan runs over every entry, and a string per tag showed up
    // in profiles.
    std::array<char, 32> name_buffer{};
    const std::size_t name_length = std::min<std::size_t>(p - name_begin, name_buffer.size());
    for (std::size_t k = 0; k < name_length; ++k) {
      const char c = s[name_begin + k];
      name_buffer[k] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    const std::string_view name(name_buffer.data(), name_length);
    const std::size_t end = tag_end(s, p);
    i = end;
    if (is_void(name) || is_self_limiting(name)) continue;
    if (closing) {
      if (dropped > 0) {
        --dropped;
        drop(lt, end);
      } else if (depth > 0) {
        --depth;
      }
      continue;
    }
    if (end >= 2 && s[end - 1] == '>' && s[end - 2] == '/') continue;  // self-closing (foreign content)
    if (is_raw_text(name)) {
      const auto close = find_end_tag(s, name, end);
      i = close == std::string_view::npos ? s.size() : close;
      continue;
    }
    if (depth >= max_depth) {
      ++dropped;
      drop(lt, end);
    } else {
      ++depth;
    }
  }
  if (out) out->append(s.substr(copied));
  return any;
}

}  // namespace

std::optional<std::string> limit_nesting(std::string_view html, int max_depth) {
  if (!limit_nesting_pass(html, max_depth, nullptr)) return std::nullopt;
  std::string out;
  out.reserve(html.size());
  limit_nesting_pass(html, max_depth, &out);
  return out;
}

void* Arena::allocate(std::size_t size) {
  constexpr std::size_t kAlign = alignof(std::max_align_t);
  size = (size + kAlign - 1) & ~(kAlign - 1);
  if (size == 0) size = kAlign;
  if (size > left_) {
    if (size > kBlockBytes / 4) {
      // Large pieces (big text nodes, long vectors) get a block of their own; the current block stays.
      blocks_.push_back(std::make_unique_for_overwrite<std::byte[]>(size));
      return blocks_.back().get();
    }
    blocks_.push_back(std::make_unique_for_overwrite<std::byte[]>(kBlockBytes));
    next_ = blocks_.back().get();
    left_ = kBlockBytes;
  }
  void* out = next_;
  next_ += size;
  left_ -= size;
  return out;
}

namespace {
void* arena_allocate(void* arena, std::size_t size) {
  return static_cast<Arena*>(arena)->allocate(size);
}
void arena_deallocate(void* /*arena*/, void* /*ptr*/) {}  // released with the whole arena
}  // namespace

Document::Document(std::string_view html) : arena_(std::make_unique<Arena>()) {
  if (html.size() > kMaxInputBytes) {
    html = html.substr(0, kMaxInputBytes);
    truncated_ = true;
  }
  if (auto flat = limit_nesting(html, kMaxNestingDepth)) {
    buffer_ = std::move(*flat);
  } else {
    buffer_.assign(html);
  }
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;  // parse errors are not needed; recording them costs memory on hostile input
  options.allocator = arena_allocate;
  options.deallocator = arena_deallocate;
  options.userdata = arena_.get();
  output_ = gumbo_parse_with_options(&options, buffer_.data(), buffer_.size());
}

// The tree is in arena_: no gumbo_destroy_output walk is needed.
Document::~Document() = default;

Document::Document(Document&& other) noexcept
    : buffer_(std::move(other.buffer_)),
      arena_(std::move(other.arena_)),
      output_(std::exchange(other.output_, nullptr)),
      truncated_(other.truncated_) {}

Document& Document::operator=(Document&& other) noexcept {
  if (this != &other) {
    buffer_ = std::move(other.buffer_);
    arena_ = std::move(other.arena_);
    output_ = std::exchange(other.output_, nullptr);
    truncated_ = other.truncated_;
  }
  return *this;
}

std::string tag_name(const GumboNode* node) {
  if (!is_element(node)) return {};
  const GumboElement& el = node->v.element;
  if (el.tag != GUMBO_TAG_UNKNOWN) return gumbo_normalized_tagname(el.tag);
  GumboStringPiece piece = el.original_tag;
  if (piece.data == nullptr || piece.length == 0) return {};
  gumbo_tag_from_original_text(&piece);
  std::string_view raw(piece.data, piece.length);
  std::size_t n = 0;
  while (n < raw.size() && is_name_char(raw[n])) ++n;
  return to_lower_ascii(raw.substr(0, n));
}

std::string_view attr(const GumboNode* n, const char* name) {
  if (!is_element(n)) return {};
  const GumboAttribute* a = gumbo_get_attribute(&n->v.element.attributes, name);
  return a ? std::string_view(a->value) : std::string_view{};
}

bool has_attr(const GumboNode* n, const char* name) {
  return is_element(n) && gumbo_get_attribute(&n->v.element.attributes, name) != nullptr;
}

std::string class_and_id(const GumboNode* n) {
  std::string s(attr(n, "class"));
  const auto id = attr(n, "id");
  if (!id.empty()) {
    s += ' ';
    s += id;
  }
  return to_lower_ascii(s);
}

bool is_chrome_tag(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_HEAD:
    case GUMBO_TAG_TITLE:
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_NOSCRIPT:
    case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_FORM:
    case GUMBO_TAG_NAV:
    case GUMBO_TAG_HEADER:
    case GUMBO_TAG_FOOTER:
    case GUMBO_TAG_ASIDE:
    case GUMBO_TAG_BUTTON:
    case GUMBO_TAG_IFRAME:
    case GUMBO_TAG_SVG:
    case GUMBO_TAG_SELECT:
    case GUMBO_TAG_TEXTAREA:
    case GUMBO_TAG_INPUT:
    case GUMBO_TAG_OBJECT:
    case GUMBO_TAG_EMBED:
    case GUMBO_TAG_CANVAS:
    case GUMBO_TAG_VIDEO:
    case GUMBO_TAG_AUDIO:
    case GUMBO_TAG_MAP:
    case GUMBO_TAG_LINK:
    case GUMBO_TAG_META:
      return true;
    default:
      return false;
  }
}

bool is_hidden(bool has_hidden, std::string_view aria_hidden, std::string_view style) {
  if (has_hidden) return true;
  if (iequals(aria_hidden, "true")) return true;
  if (style.empty()) return false;
  std::string compact;
  for (const char c : style)
    if (!is_space(c)) compact += c;
  compact = to_lower_ascii(compact);
  return compact.find("display:none") != std::string::npos ||
         compact.find("visibility:hidden") != std::string::npos;
}

bool is_hidden(const GumboNode* n) {
  if (!is_element(n)) return false;
  return is_hidden(has_attr(n, "hidden"), attr(n, "aria-hidden"), attr(n, "style"));
}

bool is_block_tag(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_ADDRESS:
    case GUMBO_TAG_ARTICLE:
    case GUMBO_TAG_ASIDE:
    case GUMBO_TAG_BLOCKQUOTE:
    case GUMBO_TAG_BODY:
    case GUMBO_TAG_CAPTION:
    case GUMBO_TAG_CENTER:
    case GUMBO_TAG_DD:
    case GUMBO_TAG_DETAILS:
    case GUMBO_TAG_DIR:
    case GUMBO_TAG_DIV:
    case GUMBO_TAG_DL:
    case GUMBO_TAG_DT:
    case GUMBO_TAG_FIELDSET:
    case GUMBO_TAG_FIGCAPTION:
    case GUMBO_TAG_FIGURE:
    case GUMBO_TAG_FOOTER:
    case GUMBO_TAG_FORM:
    case GUMBO_TAG_H1:
    case GUMBO_TAG_H2:
    case GUMBO_TAG_H3:
    case GUMBO_TAG_H4:
    case GUMBO_TAG_H5:
    case GUMBO_TAG_H6:
    case GUMBO_TAG_HEADER:
    case GUMBO_TAG_HGROUP:
    case GUMBO_TAG_HR:
    case GUMBO_TAG_HTML:
    case GUMBO_TAG_LEGEND:
    case GUMBO_TAG_LI:
    case GUMBO_TAG_LISTING:
    case GUMBO_TAG_MAIN:
    case GUMBO_TAG_MENU:
    case GUMBO_TAG_NAV:
    case GUMBO_TAG_OL:
    case GUMBO_TAG_OPTION:
    case GUMBO_TAG_P:
    case GUMBO_TAG_PLAINTEXT:
    case GUMBO_TAG_PRE:
    case GUMBO_TAG_SECTION:
    case GUMBO_TAG_SUMMARY:
    case GUMBO_TAG_TABLE:
    case GUMBO_TAG_TBODY:
    case GUMBO_TAG_TFOOT:
    case GUMBO_TAG_THEAD:
    case GUMBO_TAG_TR:
    case GUMBO_TAG_UL:
    case GUMBO_TAG_XMP:
      return true;
    default:
      return false;
  }
}

std::string inner_text(const GumboNode* n) {
  std::string out;
  std::vector<const GumboNode*> stack{n};
  while (!stack.empty()) {
    const GumboNode* cur = stack.back();
    stack.pop_back();
    if (cur->type == GUMBO_NODE_TEXT || cur->type == GUMBO_NODE_WHITESPACE || cur->type == GUMBO_NODE_CDATA) {
      out += cur->v.text.text;
    } else if (is_element(cur) || cur->type == GUMBO_NODE_DOCUMENT) {
      const GumboVector& kids =
          cur->type == GUMBO_NODE_DOCUMENT ? cur->v.document.children : cur->v.element.children;
      for (unsigned i = kids.length; i > 0; --i)
        stack.push_back(static_cast<const GumboNode*>(kids.data[i - 1]));
    }
  }
  return out;
}

bool is_pre_tag(GumboTag tag) {
  return tag == GUMBO_TAG_PRE || tag == GUMBO_TAG_LISTING || tag == GUMBO_TAG_XMP ||
         tag == GUMBO_TAG_PLAINTEXT;
}

FootnoteMarker footnote_marker_by_attributes(GumboTag tag, std::string_view classes_raw,
                                             std::string_view role_raw, std::string_view href) {
  if (tag != GUMBO_TAG_A && tag != GUMBO_TAG_SUP) return FootnoteMarker::kNo;
  const std::string classes = to_lower_ascii(classes_raw);
  const std::string role = to_lower_ascii(role_raw);
  if (tag == GUMBO_TAG_A) {
    if (role == "doc-backlink" || role == "doc-noteref") return FootnoteMarker::kYes;
    if (classes.find("footnote-backref") != std::string::npos ||
        classes.find("reversefootnote") != std::string::npos ||
        classes.find("footnote-ref") != std::string::npos)
      return FootnoteMarker::kYes;
    if (starts_with_icase(href, "#fnref")) return FootnoteMarker::kYes;
    return href.starts_with("#") ? FootnoteMarker::kMaybe : FootnoteMarker::kNo;
  }
  // <sup>: a footnote or citation reference ("1", "[1]") that links within the page.
  if (role == "doc-noteref" || classes.find("footnote") != std::string::npos ||
      classes.find("reference") != std::string::npos)
    return FootnoteMarker::kYes;
  return FootnoteMarker::kMaybe;
}

bool is_backlink_text(std::string_view text) {
  // Back-link arrows ("↩", "↩︎" with a variation selector, "↑") and heading permalinks ("¶", "#",
  // "§").
  return text.starts_with("\xE2\x86\xA9") || text == "\xE2\x86\x91" || text == "^" || text == "\xC2\xB6" ||
         text == "#" || text == "\xC2\xA7";
}

bool is_footnote_marker(const GumboNode* n) {
  if (!is_element(n)) return false;
  const GumboTag tag = n->v.element.tag;
  const auto decided = footnote_marker_by_attributes(tag, attr(n, "class"), attr(n, "role"), attr(n, "href"));
  if (decided != FootnoteMarker::kMaybe) return decided == FootnoteMarker::kYes;
  const std::string text(trim(inner_text(n)));
  if (tag == GUMBO_TAG_A) return is_backlink_text(text);
  if (text.size() > kMaxMarkerTextBytes) return false;
  std::vector<const GumboNode*> stack{n};
  while (!stack.empty()) {
    const GumboNode* cur = stack.back();
    stack.pop_back();
    if (!is_element(cur)) continue;
    if (cur->v.element.tag == GUMBO_TAG_A && attr(cur, "href").starts_with("#")) return true;
    const GumboVector& kids = cur->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i) stack.push_back(static_cast<const GumboNode*>(kids.data[i]));
  }
  return false;
}

}  // namespace longread::html::detail
