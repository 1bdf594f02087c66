// detail::html_to_text_gumbo: html_to_text as a walk over gumbo's HTML5 tree. The reference that the
// libxml2 SAX version (text.cpp) is compared against in tests and in bench/ingest/stage_bench.
#include <string>
#include <vector>

#include "html/dom.h"
#include "html/html.h"
#include "html/text_builder.h"

namespace longread::html {
namespace {

using detail::is_element;
using detail::TextBuilder;

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
  if (detail::is_pre_tag(tag)) {
    out.enter_pre();
  } else if (detail::is_block_tag(tag)) {
    out.paragraph_break();
  }
  return true;
}

void leave(const GumboNode* n, TextBuilder& out) {
  const GumboTag tag = n->v.element.tag;
  if (tag == GUMBO_TAG_TD || tag == GUMBO_TAG_TH) out.space();
  if (detail::is_pre_tag(tag)) {
    out.exit_pre();
  } else if (detail::is_block_tag(tag)) {
    out.paragraph_break();
  }
}

}  // namespace

namespace detail {
std::string html_to_text_gumbo(std::string_view html) {
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
}  // namespace detail

}  // namespace longread::html
