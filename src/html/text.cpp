// html_to_text: libxml2's HTML parser in SAX mode, writing paragraphs as the start and end tags stream by.
//
// Why not gumbo here: html_to_text runs on every feed entry of every crawl, and gumbo (HTML5's tree
// builder, one code point at a time) plus the walk over its tree cost about 140 us per entry on the
// real-feeds corpus, against about 35 us for libxml2's SAX parser, which builds no tree at all
// (bench/ingest/stage_bench prints both). The two parsers differ only on broken markup (libxml2 follows
// HTML 4's content model and auto-closing rules, gumbo the HTML5 tree-construction algorithm); their
// texts agree on nearly every corpus entry (text_test.cpp measures it). Full pages, where the tree is
// needed, are still parsed by gumbo (extract.cpp).
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <string>
#include <vector>

#include "core/strings.h"
#include "html/dom.h"
#include "html/html.h"
#include "html/text_builder.h"

namespace longread::html {
namespace {

using detail::TextBuilder;

// What an element does to the text: dom.cpp's tag sets, looked up through gumbo's tag table by name.
enum Kind : unsigned char {
  kInline = 0,
  kBlock = 1,   // begins and ends a paragraph
  kPre = 2,     // keeps whitespace (pre, listing, xmp, plaintext)
  kCell = 4,    // td, th: a word separator
  kChrome = 8,  // never article text: skipped with its subtree
  kBreak = 16,  // br
};

unsigned char kind_of(GumboTag tag) {
  if (detail::is_chrome_tag(tag)) return kChrome;
  if (tag == GUMBO_TAG_BR) return kBreak;
  if (tag == GUMBO_TAG_TD || tag == GUMBO_TAG_TH) return kCell;
  if (detail::is_pre_tag(tag)) return kPre;
  if (detail::is_block_tag(tag)) return kBlock;
  return kInline;
}

std::string_view as_view(const xmlChar* s) {
  return s == nullptr ? std::string_view{} : std::string_view(reinterpret_cast<const char*>(s));
}

// Attribute value ("" when absent or valueless) and presence, from SAX1's name/value array.
struct Attributes {
  const xmlChar** list;
  [[nodiscard]] const xmlChar* const* find(std::string_view name) const {
    if (list == nullptr) return nullptr;
    for (const xmlChar** a = list; a[0] != nullptr; a += 2)
      if (iequals(as_view(a[0]), name)) return a;
    return nullptr;
  }
  [[nodiscard]] bool has(std::string_view name) const { return find(name) != nullptr; }
  [[nodiscard]] std::string_view get(std::string_view name) const {
    const auto* a = find(name);
    return a == nullptr ? std::string_view{} : as_view(a[1]);
  }
};

constexpr std::size_t kMaxCaptures = 4;

struct Capture {
  std::size_t frame;  // index of the element in the open-element stack
  bool is_link;       // <a href="#..."> (else <sup>)
  TextBuilder::Mark mark;
  std::string text;  // raw text content, not folded
  bool has_fragment_link = false;
};

bool capture_is_marker(const Capture& c) {
  const std::string_view text = trim(c.text);
  if (c.is_link) return detail::is_backlink_text(text);
  return text.size() <= detail::kMaxMarkerTextBytes && c.has_fragment_link;
}

struct Frame {
  const xmlChar* name;  // libxml2's dictionary string: stable for the whole parse
  unsigned char kind;
  bool skipped;   // the element (and so its subtree) is not text
  bool captured;  // a Capture was opened for it
};

class SaxWalk {
 public:
  static void on_start(void* self, const xmlChar* name, const xmlChar** attrs) {
    static_cast<SaxWalk*>(self)->start(name, Attributes{attrs});
  }
  static void on_end(void* self, const xmlChar* name) { static_cast<SaxWalk*>(self)->end(name); }
  static void on_text(void* self, const xmlChar* text, int len) {
    static_cast<SaxWalk*>(self)->text(
        std::string_view(reinterpret_cast<const char*>(text), static_cast<std::size_t>(len)));
  }

  std::string finish() {
    while (!stack_.empty()) pop();
    return out_.finish();
  }

 private:
  void start(const xmlChar* raw_name, const Attributes& attrs) {
    const GumboTag tag = gumbo_tag_enum(reinterpret_cast<const char*>(raw_name));
    Frame frame{raw_name, kind_of(tag), false, false};
    if (skip_depth_ > 0) {
      frame.skipped = true;
      ++skip_depth_;
      stack_.push_back(frame);
      return;
    }
    const auto href = attrs.get("href");
    auto marker = detail::FootnoteMarker::kNo;
    if ((frame.kind & kChrome) != 0 ||
        detail::is_hidden(attrs.has("hidden"), attrs.get("aria-hidden"), attrs.get("style")) ||
        (marker = detail::footnote_marker_by_attributes(tag, attrs.get("class"), attrs.get("role"), href)) ==
            detail::FootnoteMarker::kYes) {
      frame.skipped = true;
      skip_depth_ = 1;
      stack_.push_back(frame);
      return;
    }
    if (tag == GUMBO_TAG_A && href.starts_with("#")) {
      for (auto& c : captures_) c.has_fragment_link = true;
    }
    // A footnote marker is a <sup> and/or an <a>: two levels. Deeper nests of them are kept as text
    // rather than captured, since each capture copies the paragraph so far (hostile input could nest
    // hundreds after a megabyte of text).
    if (marker == detail::FootnoteMarker::kMaybe && captures_.size() < kMaxCaptures) {
      captures_.push_back(Capture{stack_.size(), tag == GUMBO_TAG_A, out_.mark(), {}});
      frame.captured = true;
    }
    if ((frame.kind & kBreak) != 0) {
      out_.line_break();
    } else if ((frame.kind & kCell) != 0) {
      out_.space();
    } else if ((frame.kind & kPre) != 0) {
      out_.enter_pre();
    } else if ((frame.kind & kBlock) != 0) {
      out_.paragraph_break();
    }
    stack_.push_back(frame);
  }

  // libxml2 reports an end for every element it closes, implied or not; a stray end tag with no open
  // element of that name is ignored, as the HTML parser itself does.
  void end(const xmlChar* raw_name) {
    const std::string_view name = as_view(raw_name);
    auto it = std::find_if(stack_.rbegin(), stack_.rend(),
                           [&](const Frame& f) { return f.name == raw_name || as_view(f.name) == name; });
    if (it == stack_.rend()) return;
    const std::size_t depth = static_cast<std::size_t>(stack_.rend() - it) - 1;
    while (stack_.size() > depth) pop();
  }

  void pop() {
    const Frame frame = stack_.back();
    stack_.pop_back();
    if (frame.skipped) {
      --skip_depth_;
      return;
    }
    if ((frame.kind & kCell) != 0) {
      out_.space();
    } else if ((frame.kind & kPre) != 0) {
      out_.exit_pre();
    } else if ((frame.kind & (kBlock | kBreak)) == kBlock) {
      out_.paragraph_break();
    }
    if (frame.captured) {
      Capture c = std::move(captures_.back());
      captures_.pop_back();
      if (capture_is_marker(c)) out_.restore(std::move(c.mark));
    }
  }

  void text(std::string_view s) {
    if (skip_depth_ > 0) return;
    for (auto& c : captures_) c.text += s;
    out_.text(s);
  }

  TextBuilder out_;
  std::vector<Frame> stack_;
  std::vector<Capture> captures_;
  int skip_depth_ = 0;
};

struct ParserDeleter {
  void operator()(htmlParserCtxt* ctxt) const noexcept { htmlFreeParserCtxt(ctxt); }
};

}  // namespace

std::string html_to_text(std::string_view html) {
  if (html.size() > kMaxInputBytes) html = html.substr(0, kMaxInputBytes);
  // libxml2 switches to Latin-1 for the rest of a document at its first invalid UTF-8 byte, and reports
  // NUL and other C0 controls as errors: hand it clean UTF-8.
  // NUL and the other C0 controls are dropped, as HTML5's tree builder does with NUL.
  const bool clean = is_valid_utf8(html) && std::none_of(html.begin(), html.end(), [](char c) {
                       return static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r';
                     });
  std::string input = clean ? std::string(html) : sanitize_utf8(html);
  // Hostile nesting would make libxml2's auto-close checks (linear in the depth) quadratic.
  if (auto flat = detail::limit_nesting(input, kMaxNestingDepth)) input = std::move(*flat);
  static_assert(kMaxInputBytes < static_cast<std::size_t>(INT_MAX));  // libxml2 takes an int size
  if (input.find_first_of("<&") == std::string::npos) {
    TextBuilder plain;
    plain.text(input);
    return plain.finish();
  }

  // The pull parser, not the push one: libxml2 2.9's push parser drops a whole document that begins
  // with a stray end tag ("</p>text").
  std::unique_ptr<htmlParserCtxt, ParserDeleter> ctxt(
      htmlCreateMemoryParserCtxt(input.data(), static_cast<int>(input.size())));
  if (!ctxt) return {};
  SaxWalk walk;
  xmlSAXHandler& sax = *ctxt->sax;  // owned by the context; replaces the tree-building default
  sax = xmlSAXHandler{};
  sax.startElement = &SaxWalk::on_start;
  sax.endElement = &SaxWalk::on_end;
  sax.characters = &SaxWalk::on_text;
  sax.ignorableWhitespace = &SaxWalk::on_text;  // libxml2 calls whitespace between blocks "ignorable"
  ctxt->userData = &walk;
  // HTML_PARSE_IGNORE_ENC: a <meta charset> inside an entry must not re-decode text already held as UTF-8.
  htmlCtxtUseOptions(ctxt.get(), HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                     HTML_PARSE_NONET | HTML_PARSE_IGNORE_ENC);
  xmlSwitchEncoding(ctxt.get(), XML_CHAR_ENCODING_UTF8);
  htmlParseDocument(ctxt.get());
  return walk.finish();
}

int reading_minutes(std::size_t words) {
  const std::size_t minutes = (words + 115) / 230;
  return minutes < 1 ? 1 : static_cast<int>(minutes);
}

}  // namespace longread::html
