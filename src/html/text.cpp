// html_to_text: a walk over gumbo's tree that writes paragraphs.
#include <string>
#include <vector>

#include "core/strings.h"
#include "html/dom.h"
#include "html/html.h"

namespace longread::html {
namespace {

using detail::is_element;

bool is_html_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

// Collects paragraphs: folds whitespace (HTML's ASCII whitespace and U+00A0) outside <pre>.
class TextBuilder {
 public:
  void text(std::string_view s) {
    if (pre_depth_ > 0) {
      current_ += s;
      return;
    }
    for (std::size_t i = 0; i < s.size(); ++i) {
      const char c = s[i];
      if (is_html_space(c)) {
        pending_space_ = true;
        continue;
      }
      if (c == '\xC2' && i + 1 < s.size() && s[i + 1] == '\xA0') {  // no-break space
        pending_space_ = true;
        ++i;
        continue;
      }
      if (pending_space_ && !current_.empty()) current_ += ' ';
      pending_space_ = false;
      current_ += c;
    }
  }
  // Between table cells: a word separator, not a paragraph.
  void space() { pending_space_ = true; }
  void line_break() {
    if (pre_depth_ > 0) {
      current_ += '\n';
    } else {
      paragraph_break();
    }
  }
  void paragraph_break() {
    if (pre_depth_ > 0) {
      if (!current_.empty() && current_.back() != '\n') current_ += '\n';
      return;
    }
    flush();
  }
  void enter_pre() {
    if (pre_depth_++ == 0) flush();
  }
  void exit_pre() {
    if (--pre_depth_ == 0) flush();
  }
  std::string finish() {
    flush();
    return sanitize_utf8(out_);
  }

 private:
  void flush() {
    std::string_view p = current_;
    // Keep a <pre> block's indentation, drop only its surrounding blank lines.
    while (!p.empty() && (p.back() == '\n' || p.back() == ' ' || p.back() == '\t' || p.back() == '\r'))
      p.remove_suffix(1);
    while (!p.empty() && (p.front() == '\n' || p.front() == '\r')) p.remove_prefix(1);
    if (!trim(p).empty()) {
      if (!out_.empty()) out_ += "\n\n";
      out_ += p;
    }
    current_.clear();
    pending_space_ = false;
  }

  std::string out_;
  std::string current_;
  bool pending_space_ = false;
  int pre_depth_ = 0;
};

bool is_pre(GumboTag tag) {
  return tag == GUMBO_TAG_PRE || tag == GUMBO_TAG_LISTING || tag == GUMBO_TAG_XMP ||
         tag == GUMBO_TAG_PLAINTEXT;
}

const GumboVector* children_of(const GumboNode* n) {
  if (n->type == GUMBO_NODE_DOCUMENT) return &n->v.document.children;
  if (is_element(n)) return &n->v.element.children;
  return nullptr;
}

// Called on entering an element; false means skip its subtree.
bool enter(const GumboNode* n, TextBuilder& out) {
  const GumboTag tag = n->v.element.tag;
  if (detail::is_chrome_tag(tag) || n->type == GUMBO_NODE_TEMPLATE || detail::is_hidden(n) ||
      detail::is_footnote_marker(n))
    return false;
  if (tag == GUMBO_TAG_BR) {
    out.line_break();
    return false;
  }
  if (tag == GUMBO_TAG_TD || tag == GUMBO_TAG_TH) out.space();
  if (is_pre(tag)) {
    out.enter_pre();
  } else if (detail::is_block_tag(tag)) {
    out.paragraph_break();
  }
  return true;
}

void leave(const GumboNode* n, TextBuilder& out) {
  const GumboTag tag = n->v.element.tag;
  if (tag == GUMBO_TAG_TD || tag == GUMBO_TAG_TH) out.space();
  if (is_pre(tag)) {
    out.exit_pre();
  } else if (detail::is_block_tag(tag)) {
    out.paragraph_break();
  }
}

}  // namespace

std::string html_to_text(std::string_view html) {
  const detail::Document doc(html);
  const GumboNode* root = doc.root();
  if (root == nullptr) return {};
  TextBuilder out;
  struct Frame {
    const GumboNode* node;
    unsigned next;
  };
  std::vector<Frame> stack;
  stack.push_back({root, 0});
  // Iterative depth-first walk: no recursion, whatever the tree's depth.
  while (!stack.empty()) {
    Frame& top = stack.back();
    const GumboVector* kids = children_of(top.node);
    if (kids == nullptr || top.next >= kids->length) {
      if (is_element(top.node)) leave(top.node, out);
      stack.pop_back();
      continue;
    }
    const auto* child = static_cast<const GumboNode*>(kids->data[top.next++]);
    switch (child->type) {
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_WHITESPACE:
      case GUMBO_NODE_CDATA:
        out.text(child->v.text.text);
        break;
      case GUMBO_NODE_ELEMENT:
        if (enter(child, out)) stack.push_back({child, 0});
        break;
      default:  // comments, templates
        break;
    }
  }
  return out.finish();
}

int reading_minutes(std::size_t words) {
  const std::size_t minutes = (words + 115) / 230;
  return minutes < 1 ? 1 : static_cast<int>(minutes);
}

}  // namespace longread::html
