#include "feed/feed.h"

#include "core/strings.h"
#include "feed/adapter.h"
#include "feed/atom.h"
#include "feed/detect.h"
#include "feed/encoding.h"
#include "feed/json_feed.h"
#include "feed/rss.h"
#include "feed/xml.h"

namespace longread::feed {
namespace {

void make_valid(std::string& s) {
  if (!is_valid_utf8(s)) s = sanitize_utf8(s);
  demoronize(s);
}

// Every string handed out is valid UTF-8, whatever the document held.
void make_valid(Feed& feed) {
  for (auto* s : {&feed.title, &feed.link, &feed.subtitle, &feed.author, &feed.language, &feed.id})
    make_valid(*s);
  for (auto& e : feed.entries) {
    for (auto* s :
         {&e.id, &e.title, &e.link, &e.author, &e.published_raw, &e.updated_raw, &e.summary, &e.content})
      make_valid(*s);
    for (auto& c : e.categories) make_valid(c);
    for (auto* links : {&e.links, &e.enclosures})
      for (auto& l : *links)
        for (auto* s : {&l.href, &l.rel, &l.type, &l.title}) make_valid(*s);
  }
}

void add_bozo(Feed& feed, const std::string& message) {
  if (!feed.bozo) feed.bozo_message = message;
  feed.bozo = true;
}

}  // namespace

Result<Feed> parse_feed(std::string_view bytes, const ParseOptions& options) {
  const DecodedText decoded = decode_to_utf8(bytes, options.content_type);
  const std::string_view text = decoded.text();
  auto detected = detect_format(text);
  if (!detected) return std::unexpected(std::move(detected.error()));
  const std::string_view document = text.substr(detected->start);

  Feed feed;
  if (detected->format == Format::kJsonFeed) {
    auto doc = json_feed::read(document);
    if (!doc) return std::unexpected(std::move(doc.error()));
    if (doc->rss_in_json) {
      rss::Channel& channel = *doc->rss_in_json;
      for (auto& item : channel.items) item.link.base = item.guid.base = options.base_url;
      channel.link.base = options.base_url;
      feed = adapt_rss(channel);
    } else {
      feed = adapt_json_feed(*doc, options.base_url);
    }
    if (doc->truncated) add_bozo(feed, doc->error);
  } else {
    auto parsed = xml::parse_tolerant(document);
    if (!parsed) return std::unexpected(std::move(parsed.error()));
    const xmlNode* root = xmlDocGetRootElement(parsed->doc.get());
    const std::string_view root_name = xml::name_of(root);
    if (iequals(root_name, "html")) return fail(ErrorKind::kNotAFeed, "feed: not a feed: got an HTML page");
    if (detected->format == Format::kAtom)
      feed = adapt_atom(atom::read(root, options.base_url));
    else
      feed = adapt_rss(rss::read(root, options.base_url));
    if (parsed->recovered) add_bozo(feed, parsed->error);
  }
  if (decoded.repaired) add_bozo(feed, decoded.message);
  if (detected->start > 0 && trim(text.substr(0, detected->start)).size() > 0)
    add_bozo(feed, "junk before the document's first element");
  feed.encoding = decoded.encoding;
  make_valid(feed);
  return feed;
}

}  // namespace longread::feed
