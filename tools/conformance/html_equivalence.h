// Comparison of two HTML fragments by meaning rather than by bytes, for conformance cases whose expected
// value is another parser's re-serialisation of the same markup (feedparser's sanitizer sorts attributes,
// writes `<br />`, turns `&#146;` into `&#x2019;`, adds end tags and xmlns declarations).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace longread::conformance {

// Parses `got` and `expected` as HTML fragments in a <div> context (WHATWG HTML, "Parsing HTML fragments",
// with gumbo) and compares the two trees: element names and namespaces, attribute sets regardless of order,
// text and comment data after character-reference decoding (adjacent text and CDATA runs joined). On a
// foreign (SVG/MathML) element the namespace-declaring `xmlns` and `xmlns:*` attributes are ignored: an
// HTML parser assigns namespaces itself and leaves those attributes inert (WHATWG HTML, "Parsing main
// inforeign"). Returns nullopt when the trees are equal, else a short description of the first difference.
std::optional<std::string> html_difference(std::string_view got, std::string_view expected);

inline bool same_html(std::string_view a, std::string_view b) {
  return !html_difference(a, b).has_value();
}

}  // namespace longread::conformance
