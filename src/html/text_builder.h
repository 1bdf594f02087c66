// Internal: the paragraph builder shared by both html_to_text walks (libxml2 SAX in text.cpp, gumbo in
// text_gumbo.cpp). Not part of the public API.
#pragma once

#include <string>
#include <string_view>

#include "core/strings.h"

namespace longread::html::detail {

inline bool is_html_space(char c) {
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
  // A point to return to: the footnote check decides only at an element's end whether its text stays.
  struct Mark {
    std::size_t out_size;
    std::string current;
    bool pending_space;
    int pre_depth;
  };
  [[nodiscard]] Mark mark() const { return {out_.size(), current_, pending_space_, pre_depth_}; }
  void restore(Mark m) {
    out_.resize(m.out_size);
    current_ = std::move(m.current);
    pending_space_ = m.pending_space;
    pre_depth_ = m.pre_depth;
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

}  // namespace longread::html::detail
