#include "feed/feed.h"

#include <fmt/format.h>

#include <cctype>

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
  for (auto* s : {&feed.title, &feed.link, &feed.subtitle, &feed.author, &feed.author_email, &feed.language,
                  &feed.id, &feed.id_base})
    make_valid(*s);
  for (auto& e : feed.entries) {
    for (auto* s : {&e.id, &e.id_base, &e.title, &e.link, &e.author, &e.author_email, &e.published_raw,
                    &e.updated_raw, &e.summary, &e.content})
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

// <item> (RSS, RDF, CDF's ITEM) and <entry> (Atom) elements anywhere in the document, in any namespace:
// what a reader that ignores structure and namespaces takes for entries. Iterative, so that a deep document
// cannot overflow the stack.
struct EntryElements {
  std::size_t items = 0, entries = 0;
};
EntryElements count_entry_elements(const xmlNode* root) {
  EntryElements n;
  const xmlNode* node = root;
  while (node != nullptr) {
    if (xml::is_element(node)) {
      const std::string_view name = xml::name_of(node);
      if (name == "item" || name == "ITEM")
        ++n.items;
      else if (name == "entry")
        ++n.entries;
      if (node->children != nullptr) {
        node = node->children;
        continue;
      }
    }
    while (node != root && node->next == nullptr) node = node->parent;
    if (node == root) break;
    node = node->next;
  }
  return n;
}

std::string plural(std::size_t n, std::string_view one) {
  return fmt::format("{} {}{}", n, one, n == 1 ? "" : "s");
}

// A document that holds entries none of which could be read is a failed read the operator must see, not a
// feed that has nothing new: "feed: 12 <item> elements but none could be read". `damage` is what went wrong
// in the document, if anything ("XML error at line 3: ...").
std::string none_read(std::string_view found, std::string_view damage) {
  if (damage.empty()) return fmt::format("feed: {} but none could be read", found);
  return fmt::format("feed: {} but none could be read ({})", found, damage);
}

Result<void> check_entries_read(const Feed& feed, const xmlNode* root, std::string_view damage) {
  if (!feed.entries.empty()) return {};
  const EntryElements found = count_entry_elements(root);
  if (found.items == 0 && found.entries == 0) return {};
  const bool items = found.items >= found.entries;
  return fail(ErrorKind::kParse, none_read(plural(items ? found.items : found.entries,
                                                  items ? "<item> element" : "<entry> element"),
                                           damage));
}

// The XML media types (RFC 7303 sections 9.1-9.4, and any `+xml` suffix, RFC 6839 section 4.1). A document
// served as anything else (text/plain, text/html, application/octet-stream) is still read, but its server did
// not say it is XML: flagged as feedparser does (NonXMLContentType). No Content-Type is no claim either way.
std::string media_type_of(std::string_view content_type) {
  return sanitize_utf8(to_lower_ascii(trim(content_type.substr(0, content_type.find(';')))));
}

bool is_xml_media_type(const std::string& type) {
  return type.empty() || type == "application/xml" || type == "text/xml" ||
         type == "application/xml-external-parsed-entity" || type == "text/xml-external-parsed-entity" ||
         type == "application/xml-dtd" || type.ends_with("+xml");
}

// The language an HTTP Content-Language header gives (RFC 9110 section 8.5), when it names exactly one: a
// list ("en, fr") says the document is for several audiences, which one feed language cannot say. Only the
// characters of a BCP 47 tag are taken (RFC 5646 section 2.1; '_' as written by some servers becomes '-').
std::string single_language(std::string_view header) {
  const std::string_view tag = trim(header);
  if (tag.empty() || tag.size() > 35 || tag.find(',') != std::string_view::npos) return {};
  std::string out;
  for (const char c : tag) {
    if (c == '_') {
      out.push_back('-');
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '-') {
      out.push_back(c);
    } else {
      return {};
    }
  }
  return out;
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
    if (feed.entries.empty() && doc->items_found > 0)
      return fail(ErrorKind::kParse, none_read(plural(doc->items_found, "JSON item"), doc->error));
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
    if (auto read = check_entries_read(feed, root, parsed->error); !read)
      return std::unexpected(std::move(read.error()));
    if (parsed->recovered) add_bozo(feed, parsed->error);
    if (const std::string type = media_type_of(options.content_type); !is_xml_media_type(type))
      add_bozo(feed, fmt::format("served as {}, not an XML media type", type.substr(0, 100)));
  }
  if (decoded.repaired) add_bozo(feed, decoded.message);
  if (detected->start > 0 && trim(text.substr(0, detected->start)).size() > 0)
    add_bozo(feed, "junk before the document's first element");
  feed.encoding = decoded.encoding;
  // The document's own declaration (<language>, xml:lang, JSON Feed `language`) wins over the header.
  if (trim(feed.language).empty()) feed.language = single_language(options.content_language);
  make_valid(feed);
  return feed;
}

}  // namespace longread::feed
