// Harness: the UI's escaping of feed-supplied strings (ui/html.h, ui/atom.h): titles, URLs, search snippets
// and summaries come from blogs we do not control. Input: fields separated by '\x1e' (URL, label, snippet,
// text, then the Atom values). Checks: href() links only site paths and http(s) URLs; an external link is
// made only for http(s); marked snippets and paragraphs carry no markup but their own balanced tags; and the
// site's Atom feed is well-formed XML (libxml2 parses it without recovery) whatever the strings held.
#include <libxml/parser.h>

#include <memory>
#include <string>

#include "core/strings.h"
#include "core/url.h"
#include "fuzz/fuzz_support.h"
#include "ui/atom.h"
#include "ui/html.h"

namespace longread::fuzz {
namespace {

constexpr char kSep = '\x1e';

std::size_t count(std::string_view s, std::string_view what) {
  std::size_t n = 0;
  for (auto pos = s.find(what); pos != std::string_view::npos; pos = s.find(what, pos + what.size())) ++n;
  return n;
}

// Removes every occurrence of `tag`; what is left must hold no markup at all.
std::string without(std::string s, std::string_view tag) {
  for (auto pos = s.find(tag); pos != std::string::npos; pos = s.find(tag, pos)) s.erase(pos, tag.size());
  return s;
}

void require_no_markup(std::string_view s) {
  require(s.find_first_of("<>\"") == std::string_view::npos);
}

struct DocDeleter {
  void operator()(xmlDoc* doc) const noexcept { xmlFreeDoc(doc); }
};

void check_atom(FuzzInput& in) {
  // Upstream (feed/, html/) hands the UI valid UTF-8 only; the Atom writer promises well-formed XML for any
  // such value, control characters included.
  auto next = [&] { return sanitize_utf8(in.field(kSep)); };
  ui::AtomFeed feed;
  feed.id = next();
  feed.title = next();
  feed.subtitle = next();
  feed.author = next();
  feed.self = next();
  feed.alternate = next();
  feed.updated = from_unix(1'700'000'000);
  for (int i = 0; i < 2; ++i) {
    ui::AtomEntry e;
    e.id = next();
    e.title = next();
    e.link = next();
    e.related = next();
    e.author = next();
    e.category = next();
    e.summary = next();
    e.published = from_unix(1'600'000'000 + i);
    feed.entries.push_back(std::move(e));
  }
  const std::string doc = ui::atom_document(feed);
  std::unique_ptr<xmlDoc, DocDeleter> parsed(
      xmlReadMemory(doc.data(), static_cast<int>(doc.size()), nullptr, "UTF-8",
                    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING));
  require(parsed != nullptr);
}

}  // namespace

int ui_markup_harness(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const std::string_view url = in.field(kSep);
  const std::string_view label = in.field(kSep);
  const std::string_view snippet = in.field(kSep);
  const std::string_view body = in.field(kSep);

  if (const auto link = ui::href(url)) {
    require((url.starts_with('/') && !url.starts_with("//")) || is_http_url(url));
    require_no_markup(link->str());
  }
  const ui::Html anchor = ui::external_link(url, ui::text(label));
  if (anchor.str().starts_with("<a ")) require(is_http_url(url));
  require_no_markup(ui::text(label).str());

  const std::string marked = ui::marked_snippet(snippet).str();
  require(count(marked, "<mark>") == count(marked, "</mark>"));
  require_no_markup(without(without(marked, "<mark>"), "</mark>"));

  const std::string paras = ui::paragraphs(body).str();
  require(count(paras, "<p>") == count(paras, "</p>"));
  // A code block is focusable so that keyboards can scroll it (paragraphs() in ui/html.cpp).
  constexpr std::string_view kPre = "<pre tabindex=\"0\">";
  require(count(paras, kPre) == count(paras, "</pre>"));
  require_no_markup(without(without(without(without(paras, kPre), "</pre>"), "<p>"), "</p>"));

  check_atom(in);
  return 0;
}

}  // namespace longread::fuzz

LONGREAD_FUZZ_ENTRY(longread::fuzz::ui_markup_harness)
