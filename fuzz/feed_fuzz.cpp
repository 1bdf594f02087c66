// Harness: feed::parse_feed on hostile bytes. Input: a selector byte (which Content-Type and base URL the
// fetcher reports) then the document. Checks feed.h's promises: every string handed out is valid UTF-8,
// failures are named errors beginning with "feed: ", and resolved links stay URLs (no control characters).
#include <string>

#include "core/strings.h"
#include "feed/feed.h"
#include "fuzz/fuzz_support.h"

namespace longread::fuzz {
namespace {

constexpr std::string_view kContentTypes[] = {"",
                                              "application/rss+xml",
                                              "text/xml; charset=iso-8859-1",
                                              "application/feed+json",
                                              "text/html; charset=windows-1252",
                                              "application/atom+xml; charset=utf-16",
                                              "text/plain; charset=koi8-r",
                                              "application/xml; charset=\"shift_jis\""};
constexpr std::string_view kBaseUrls[] = {"https://example.com/blog/feed.xml", "",
                                          "http://xn--r8jz45g.jp/a/b?c#d", "not a url"};

void check_text(std::string_view s) {
  require(is_valid_utf8(s));
}

void check_link(const feed::Link& link) {
  for (const auto* s : {&link.href, &link.rel, &link.type, &link.title}) check_text(*s);
  require(link.length >= 0);
}

}  // namespace

int feed_harness(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const unsigned char sel = in.selector();
  feed::ParseOptions options;
  options.content_type = std::string(kContentTypes[sel % std::size(kContentTypes)]);
  options.base_url = std::string(kBaseUrls[(sel / 8) % std::size(kBaseUrls)]);
  const std::string_view bytes = in.rest();

  auto parsed = feed::parse_feed(bytes, options);
  if (!parsed) {
    require(parsed.error().message.starts_with("feed: "));
    check_text(parsed.error().message);
    return 0;
  }
  const feed::Feed& f = *parsed;
  for (const auto* s : {&f.version, &f.title, &f.link, &f.subtitle, &f.author, &f.language, &f.id,
                        &f.bozo_message, &f.encoding})
    check_text(*s);
  require(f.bozo || f.bozo_message.empty());
  for (const auto& e : f.entries) {
    for (const auto* s :
         {&e.id, &e.title, &e.link, &e.author, &e.published_raw, &e.updated_raw, &e.summary, &e.content})
      check_text(*s);
    // Titles are plain text with whitespace folded (feed.h): no line breaks, no surrounding spaces.
    require(e.title.find('\n') == std::string::npos);
    require(trim(e.title).size() == e.title.size());
    for (const auto& c : e.categories) check_text(c);
    for (const auto& l : e.links) check_link(l);
    for (const auto& l : e.enclosures) check_link(l);
  }
  return 0;
}

}  // namespace longread::fuzz

LONGREAD_FUZZ_ENTRY(longread::fuzz::feed_harness)
