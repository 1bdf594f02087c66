// Harness: html::extract_main_content on a hostile full page (the page of a summary-only entry, fetched from
// a site we do not control). Input: a selector byte (the page URL) then the page. Checks html.h's promises:
// errors are kTooLarge/kNotFound beginning with "html: ", title, content and text are valid UTF-8, the text
// is what html_to_text makes of the content, and no kept href/src is a javascript: URL.
#include <string>

#include "core/strings.h"
#include "fuzz/fuzz_support.h"
#include "html/html.h"

namespace longread::fuzz {
namespace {

constexpr std::string_view kPageUrls[] = {"https://example.com/2024/05/post.html", "", "not a url",
                                          "http://example.org/a/b/?q=1#frag"};

}  // namespace

int extract_harness(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const std::string_view page_url = kPageUrls[in.selector() % std::size(kPageUrls)];
  const std::string_view page = in.rest();

  auto extracted = html::extract_main_content(page, page_url);
  if (!extracted) {
    require(extracted.error().kind == ErrorKind::kNotFound || extracted.error().kind == ErrorKind::kTooLarge);
    require(extracted.error().message.starts_with("html: "));
    return 0;
  }
  require(is_valid_utf8(extracted->title));
  require(is_valid_utf8(extracted->content_html));
  require(is_valid_utf8(extracted->text));
  require(extracted->text == html::html_to_text(extracted->content_html));
  const std::string lower = to_lower_ascii(extracted->content_html);
  require(lower.find("href=\"javascript:") == std::string::npos);
  require(lower.find("src=\"javascript:") == std::string::npos);
  return 0;
}

}  // namespace longread::fuzz

LONGREAD_FUZZ_ENTRY(longread::fuzz::extract_harness)
