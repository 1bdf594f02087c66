// Harness: the entry-HTML path of html.h (html_to_text, strip_boilerplate, make_excerpt,
// looks_like_summary) and the junk rules that read the same entry (curate::judge: link counting, link lists,
// product listings, phrase rules) on hostile markup. Input: a selector byte (excerpt length and paragraph
// mode) then the entry HTML. Checks html.h's promises: text is always valid UTF-8, an excerpt is at most
// max_chars code points and ends in "…" exactly when it was cut; a junk verdict always has a reason.
#include <string>

#include "core/strings.h"
#include "curate/curate.h"
#include "fuzz/fuzz_support.h"
#include "html/html.h"

namespace longread::fuzz {
namespace {

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

}  // namespace

int html_text_harness(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const unsigned char sel = in.selector();
  const std::string_view entry_html = in.rest();

  const std::string text = html::html_to_text(entry_html);
  require(is_valid_utf8(text));
  const std::string stripped = html::strip_boilerplate(text);
  require(is_valid_utf8(stripped));
  require(stripped.size() <= text.size() + 3);  // only removes, or turns a trailing "[...]" into "…"

  const std::size_t max_chars = sel & 0x7F;
  const bool keep_paragraphs = (sel & 0x80) != 0;
  const std::string excerpt = html::make_excerpt(stripped, max_chars, keep_paragraphs);
  require(is_valid_utf8(excerpt));
  require(code_points(excerpt) <= std::max<std::size_t>(max_chars, 1));
  if (stripped.empty()) require(excerpt.empty());

  (void)html::looks_like_summary(entry_html, stripped);
  require(html::reading_minutes(count_words(stripped)) >= 1);

  model::Article article;
  article.title = html::make_excerpt(stripped, 80);
  article.text = stripped;
  article.content_html = std::string(entry_html);
  article.word_count = static_cast<int>(count_words(stripped));
  article.undated = (sel & 1) != 0;
  model::Blog blog;
  blog.short_form = (sel & 2) != 0;
  const curate::Verdict verdict = curate::judge(article, blog);
  require(verdict.junk == !verdict.reason.empty());
  require(is_valid_utf8(verdict.reason));
  return 0;
}

}  // namespace longread::fuzz

LONGREAD_FUZZ_ENTRY(longread::fuzz::html_text_harness)
