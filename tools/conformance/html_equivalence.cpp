#include "html_equivalence.h"

#include <fmt/format.h>
#include <gumbo.h>

#include <map>
#include <memory>
#include <vector>

namespace longread::conformance {
namespace {

// The parts of a parsed node that carry meaning; everything a serialiser may choose freely (attribute
// order, quoting, reference spelling, optional end tags, `/>`) is gone by the time gumbo has built it.
struct Node {
  enum Kind { kElement, kText, kComment } kind = kElement;
  std::string name;  // element: lower-case local name; text and comment: the data
  // An element's namespace, kept apart from its name: an HTML element may be named "svg:svg" (a prefixed
  // tag means nothing to an HTML parser) and must not equal the SVG element "svg".
  std::string_view space;
  std::map<std::string, std::string> attributes;
  std::vector<Node> children;
};

// Deeper trees are not expected in conformance values; past this the comparison stops with a difference
// instead of recursing without bound.
constexpr int kMaxDepth = 256;

struct OutputDeleter {
  void operator()(GumboOutput* output) const { gumbo_destroy_output(&kGumboDefaultOptions, output); }
};

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::string element_name(const GumboElement& element) {
  if (element.tag != GUMBO_TAG_UNKNOWN) return gumbo_normalized_tagname(element.tag);
  // An unknown tag keeps its name only in the source text: "<svg:svg ...>" gives "svg:svg".
  GumboStringPiece piece = element.original_tag;
  gumbo_tag_from_original_text(&piece);
  return lower(piece.data != nullptr ? std::string(piece.data, piece.length) : std::string("?"));
}

std::string_view element_namespace(const GumboElement& element) {
  switch (element.tag_namespace) {
    case GUMBO_NAMESPACE_SVG:
      return "SVG";
    case GUMBO_NAMESPACE_MATHML:
      return "MathML";
    case GUMBO_NAMESPACE_HTML:
      break;
  }
  return {};
}

std::string attribute_name(const GumboAttribute& attribute) {
  switch (attribute.attr_namespace) {
    case GUMBO_ATTR_NAMESPACE_XLINK:
      return std::string("xlink:") + attribute.name;
    case GUMBO_ATTR_NAMESPACE_XML:
      return std::string("xml:") + attribute.name;
    case GUMBO_ATTR_NAMESPACE_XMLNS:
      return std::string("xmlns:") + attribute.name;
    case GUMBO_ATTR_NAMESPACE_NONE:
      break;
  }
  return attribute.name;
}

// On SVG and MathML elements `xmlns` and `xmlns:*` declare nothing to an HTML parser, which puts those
// elements in their namespaces by name (WHATWG HTML, "insert a foreign element"); gumbo files the two
// it knows (xmlns, xmlns:xlink) under the XMLNS attribute namespace and leaves others as plain names.
bool is_namespace_declaration(const GumboElement& element, const GumboAttribute& attribute) {
  if (element.tag_namespace == GUMBO_NAMESPACE_HTML) return false;
  const std::string_view name = attribute.name;
  return attribute.attr_namespace == GUMBO_ATTR_NAMESPACE_XMLNS || name == "xmlns" ||
         name.starts_with("xmlns:");
}

void append_children(const GumboVector& gumbo_children, std::vector<Node>& out, int depth);

Node convert_element(const GumboElement& element, int depth) {
  Node node;
  node.name = element_name(element);
  node.space = element_namespace(element);
  for (unsigned i = 0; i < element.attributes.length; ++i) {
    const auto* attribute = static_cast<const GumboAttribute*>(element.attributes.data[i]);
    if (is_namespace_declaration(element, *attribute)) continue;
    node.attributes.emplace(attribute_name(*attribute), attribute->value);
  }
  if (depth < kMaxDepth) {
    append_children(element.children, node.children, depth + 1);
  } else {
    node.children.push_back({Node::kComment, "(nested too deeply to compare)", {}, {}, {}});
  }
  return node;
}

void append_children(const GumboVector& gumbo_children, std::vector<Node>& out, int depth) {
  for (unsigned i = 0; i < gumbo_children.length; ++i) {
    const auto* child = static_cast<const GumboNode*>(gumbo_children.data[i]);
    switch (child->type) {
      case GUMBO_NODE_ELEMENT:
      case GUMBO_NODE_TEMPLATE:
        out.push_back(convert_element(child->v.element, depth));
        break;
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_WHITESPACE:
      case GUMBO_NODE_CDATA:
        // Text is text however it was split or written (a CDATA section in SVG is character data).
        if (!out.empty() && out.back().kind == Node::kText)
          out.back().name += child->v.text.text;
        else
          out.push_back({Node::kText, child->v.text.text, {}, {}, {}});
        break;
      case GUMBO_NODE_COMMENT:
        out.push_back({Node::kComment, child->v.text.text, {}, {}, {}});
        break;
      case GUMBO_NODE_DOCUMENT:
        break;
    }
  }
}

// The nodes of `html` parsed as the contents of a <div> (WHATWG HTML, "Parsing HTML fragments").
std::vector<Node> parse_fragment(std::string_view html) {
  GumboOptions options = kGumboDefaultOptions;
  options.fragment_context = GUMBO_TAG_DIV;
  options.fragment_namespace = GUMBO_NAMESPACE_HTML;
  options.max_errors = 0;  // parse errors are not compared
  const std::unique_ptr<GumboOutput, OutputDeleter> output(
      gumbo_parse_with_options(&options, html.data(), html.size()));
  std::vector<Node> nodes;
  // In fragment mode the parsed nodes are the children of the root <html> element.
  if (output && output->root && output->root->type == GUMBO_NODE_ELEMENT)
    append_children(output->root->v.element.children, nodes, 0);
  return nodes;
}

std::string shorten(std::string_view s) {
  constexpr std::size_t kMax = 60;
  return s.size() <= kMax ? std::string(s) : std::string(s.substr(0, kMax)) + "...";
}

std::string describe(const Node& node) {
  switch (node.kind) {
    case Node::kElement:
      return node.space.empty() ? "<" + node.name + ">" : fmt::format("<{}> ({})", node.name, node.space);
    case Node::kText:
      return fmt::format("text '{}'", shorten(node.name));
    case Node::kComment:
      return fmt::format("comment '{}'", shorten(node.name));
  }
  return {};
}

// Where a node sits, as the chain of its ancestors: "<div><p>", or "top level".
std::string where(const std::string& path) {
  return path.empty() ? "top level" : path;
}

std::optional<std::string> compare_children(const std::vector<Node>& got, const std::vector<Node>& expected,
                                            const std::string& path);

std::optional<std::string> compare_nodes(const Node& got, const Node& expected, const std::string& path) {
  if (got.kind != expected.kind || got.name != expected.name || got.space != expected.space)
    return fmt::format("at {}: {} where {} was expected", where(path), describe(got), describe(expected));
  if (got.kind != Node::kElement) return std::nullopt;
  for (const auto& [name, value] : expected.attributes) {
    const auto it = got.attributes.find(name);
    if (it == got.attributes.end())
      return fmt::format("at {}<{}>: attribute {} missing", path, got.name, name);
    if (it->second != value)
      return fmt::format("at {}<{}>: attribute {}='{}' where '{}' was expected", path, got.name, name,
                         shorten(it->second), shorten(value));
  }
  for (const auto& [name, value] : got.attributes)
    if (!expected.attributes.contains(name))
      return fmt::format("at {}<{}>: attribute {} not expected", path, got.name, name);
  return compare_children(got.children, expected.children, path + "<" + got.name + ">");
}

std::optional<std::string> compare_children(const std::vector<Node>& got, const std::vector<Node>& expected,
                                            const std::string& path) {
  for (std::size_t i = 0; i < got.size() && i < expected.size(); ++i)
    if (auto difference = compare_nodes(got[i], expected[i], path)) return difference;
  if (got.size() < expected.size())
    return fmt::format("at {}: {} missing", where(path), describe(expected[got.size()]));
  if (got.size() > expected.size())
    return fmt::format("at {}: {} not expected", where(path), describe(got[expected.size()]));
  return std::nullopt;
}

}  // namespace

std::optional<std::string> html_difference(std::string_view got, std::string_view expected) {
  return compare_children(parse_fragment(got), parse_fragment(expected), "");
}

}  // namespace longread::conformance
