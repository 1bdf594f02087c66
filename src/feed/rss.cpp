#include "feed/rss.h"

#include <cstring>

#include "core/strings.h"
#include "feed/text.h"
#include "feed/xml.h"

namespace longread::feed::rss {
namespace {
using xml::Ns;

constexpr const char* kRdfNs = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";

// The base in effect inside `node`: its xml:base resolved against the parent's (XML Base, nested).
std::string base_of(const xmlNode* node, const std::string& parent_base) {
  const std::string own = xml::xml_base(node);
  return own.empty() ? parent_base : resolve_or_keep(parent_base, own);
}

// RSS 0.9x and 2.0 define no namespace, so a document that declares a default one (`<rss version="2.0"
// xmlns="http://backend.userland.com/rss2">`, or any other URI) still means RSS by its unprefixed elements:
// an unprefixed element in a namespace no module claims is an RSS element, as feedparser reads it. A
// prefixed element of an unknown namespace stays an extension, and known namespaces (Atom, Dublin Core,
// content, ...) keep their meaning.
bool is_rss(const xmlNode* node) {
  const Ns ns = xml::ns_of(node);
  if (ns == Ns::kNone || ns == Ns::kRss10 || ns == Ns::kRss090) return true;
  return ns == Ns::kOther && node->ns->prefix == nullptr;
}

std::string trimmed_text(const xmlNode* node) {
  return std::string(trim(xml::text(node)));
}

RawLink read_atom_link(const xmlNode* node, const std::string& base) {
  return RawLink{{xml::attr(node, "href"), base_of(node, base)},
                 xml::attr(node, "rel"),
                 xml::attr(node, "type"),
                 xml::attr(node, "title"),
                 xml::attr(node, "length")};
}

RawLink read_enclosure(const xmlNode* node, const std::string& base) {
  return RawLink{{xml::attr(node, "url"), base_of(node, base)},
                 "enclosure",
                 xml::attr(node, "type"),
                 {},
                 xml::attr(node, "length")};
}

void set_once(std::string& field, std::string value) {
  if (field.empty()) field = std::move(value);
}

// <itunes:category text="Technology"><itunes:category text="Gadgets"/></itunes:category>
void add_itunes_categories(const xmlNode* node, std::vector<std::string>& out) {
  out.push_back(plain_text(xml::attr(node, "text")));
  for (const xmlNode* c = node->children; c != nullptr; c = c->next)
    if (xml::is_element(c) && xml::name_of(c) == "category") out.push_back(plain_text(xml::attr(c, "text")));
}

Item read_item(const xmlNode* node, const std::string& parent_base) {
  Item item;
  const std::string base = base_of(node, parent_base);
  item.rdf_about = xml::attr(node, "about", kRdfNs);
  std::string itunes_author, itunes_summary, media_title;
  for (const xmlNode* c = node->children; c != nullptr; c = c->next) {
    if (!xml::is_element(c)) continue;
    const std::string_view name = xml::name_of(c);
    const Ns ns = xml::ns_of(c);
    if (is_rss(c)) {
      if (name == "title") {
        set_once(item.title, xml::text_or_markup(c));
      } else if (name == "link") {
        if (item.link.value.empty()) {
          item.link = {trimmed_text(c), base_of(c, base)};
          item.link_position = item.links.size();
        }
      } else if (name == "guid") {
        item.guid = {trimmed_text(c), base_of(c, base)};
        const std::string permalink = xml::attr(c, "isPermaLink");
        if (!permalink.empty()) item.guid_is_permalink = !iequals(trim(permalink), "false");
      } else if (name == "description") {
        set_once(item.description, xml::text_or_markup(c));
      } else if (name == "author") {
        set_once(item.author, plain_text(xml::text(c)));
      } else if (name == "pubDate") {
        set_once(item.pub_date, trimmed_text(c));
      } else if (name == "category") {
        item.categories.push_back(plain_text(xml::text(c)));
      } else if (name == "enclosure") {
        item.links.push_back(read_enclosure(c, base));
      } else if (name == "body" || name == "fullitem") {  // older spellings of the full text
        set_once(item.content_encoded, xml::text_or_markup(c));
      }
    } else if (ns == Ns::kDc) {
      if (name == "creator" || name == "author")
        set_once(item.dc_creator, plain_text(xml::text(c)));
      else if (name == "date")
        set_once(item.dc_date, trimmed_text(c));
      else if (name == "subject")
        item.categories.push_back(plain_text(xml::text(c)));
      else if (name == "title")
        set_once(item.title, xml::text_or_markup(c));
      else if (name == "description")
        set_once(item.description, xml::text_or_markup(c));
    } else if (ns == Ns::kContent) {
      if (name == "encoded") set_once(item.content_encoded, xml::text_or_markup(c));
    } else if (ns == Ns::kXhtml) {
      if (name == "body") set_once(item.content_encoded, xml::inner_xml(c));
    } else if (ns == Ns::kAtom10) {
      if (name == "link")
        item.links.push_back(read_atom_link(c, base));
      else if (name == "updated")
        set_once(item.updated, trimmed_text(c));
    } else if (ns == Ns::kDcTerms) {
      if (name == "modified")
        set_once(item.updated, trimmed_text(c));
      else if (name == "issued" || name == "created")
        set_once(item.dc_date, trimmed_text(c));
    } else if (ns == Ns::kItunes) {
      // Podcast feeds: iTunes elements stand in for missing core ones.
      if (name == "author") {
        set_once(itunes_author, plain_text(xml::text(c)));
      } else if (name == "summary") {
        set_once(itunes_summary, xml::text(c));
      } else if (name == "category") {
        add_itunes_categories(c, item.categories);
      }
    } else if (ns == Ns::kMedia) {
      if (name == "title") {
        set_once(media_title, xml::text(c));
      } else if (name == "category") {
        item.categories.push_back(plain_text(xml::text(c)));
      }
    }
  }
  std::erase_if(item.categories, [](const std::string& s) { return s.empty(); });
  if (item.author.empty() && item.dc_creator.empty()) item.author = std::move(itunes_author);
  if (item.description.empty()) item.description = escape_html(itunes_summary);
  if (item.title.empty()) item.title = escape_html(media_title);
  return item;
}

void read_channel_fields(const xmlNode* node, const std::string& base, Channel& channel) {
  std::string itunes_subtitle, itunes_author;
  for (const xmlNode* c = node->children; c != nullptr; c = c->next) {
    if (!xml::is_element(c)) continue;
    const std::string_view name = xml::name_of(c);
    const Ns ns = xml::ns_of(c);
    if (is_rss(c)) {
      if (name == "item") {
        channel.items.push_back(read_item(c, base));
      } else if (name == "title") {
        set_once(channel.title, xml::text_or_markup(c));
      } else if (name == "link") {
        if (channel.link.value.empty()) channel.link = {trimmed_text(c), base_of(c, base)};
      } else if (name == "description") {
        set_once(channel.description, xml::text_or_markup(c));
      } else if (name == "language") {
        set_once(channel.language, trimmed_text(c));
      } else if (name == "managingEditor" || name == "author") {
        set_once(channel.managing_editor, plain_text(xml::text(c)));
      } else if (name == "pubDate") {
        set_once(channel.pub_date, trimmed_text(c));
      } else if (name == "lastBuildDate") {
        set_once(channel.last_build_date, trimmed_text(c));
      } else if (name == "ttl") {
        set_once(channel.ttl, trimmed_text(c));
      }
    } else if (ns == Ns::kSyndication) {
      if (name == "updatePeriod")
        set_once(channel.update_period, trimmed_text(c));
      else if (name == "updateFrequency")
        set_once(channel.update_frequency, trimmed_text(c));
    } else if (ns == Ns::kDc) {
      if (name == "creator" || name == "author")
        set_once(channel.dc_creator, plain_text(xml::text(c)));
      else if (name == "date")
        set_once(channel.dc_date, trimmed_text(c));
      else if (name == "language")
        set_once(channel.language, trimmed_text(c));
      else if (name == "title")
        set_once(channel.title, xml::text_or_markup(c));
      else if (name == "description")
        set_once(channel.description, xml::text_or_markup(c));
    } else if (ns == Ns::kDcTerms) {
      if (name == "modified") set_once(channel.dc_date, trimmed_text(c));
    } else if (ns == Ns::kAtom10) {
      if (name == "link") channel.atom_links.push_back(read_atom_link(c, base));
    } else if (ns == Ns::kItunes) {
      if (name == "subtitle" || name == "summary")
        set_once(itunes_subtitle, plain_text(xml::text(c)));
      else if (name == "author")
        set_once(itunes_author, plain_text(xml::text(c)));
    }
  }
  if (channel.description.empty()) channel.description = escape_html(itunes_subtitle);
  if (channel.managing_editor.empty()) channel.managing_editor = std::move(itunes_author);
}

std::string rss_version(const xmlNode* root) {
  const std::string version(trim(xml::attr(root, "version")));
  if (version.empty()) return "rss";
  if (version == "0.91") {
    // Netscape's 0.91 declares its DTD; UserLand's does not.
    const xmlDtd* dtd = root->doc ? xmlGetIntSubset(root->doc) : nullptr;
    if (dtd && dtd->ExternalID &&
        std::strstr(reinterpret_cast<const char*>(dtd->ExternalID), "Netscape") != nullptr)
      return "rss091n";
    return "rss091u";
  }
  if (version == "0.92") return "rss092";
  if (version == "0.93") return "rss093";
  if (version == "0.94") return "rss094";
  if (version.starts_with("2")) return "rss20";
  if (version == "0.90") return "rss090";
  return "rss";
}
}  // namespace

// Microsoft's Channel Definition Format (1997): <CHANNEL HREF LASTMOD><TITLE/><ABSTRACT/><ITEM HREF>...
void read_cdf(const xmlNode* node, const std::string& base, Channel& channel, Item* item) {
  for (const xmlNode* c = node->children; c != nullptr; c = c->next) {
    if (!xml::is_element(c)) continue;
    const std::string_view name = xml::name_of(c);
    if (name == "TITLE") {
      set_once(item ? item->title : channel.title, xml::text_or_markup(c));
    } else if (name == "ABSTRACT") {
      set_once(item ? item->description : channel.description, xml::text_or_markup(c));
    } else if (name == "ITEM" && item == nullptr) {
      Item child;
      child.link = {xml::attr(c, "HREF"), base_of(c, base)};
      child.updated = xml::attr(c, "LASTMOD");
      read_cdf(c, base, channel, &child);
      channel.items.push_back(std::move(child));
    }
  }
}

Channel read(const xmlNode* root, const std::string& base_url) {
  Channel channel;
  const std::string base = base_of(root, base_url);
  const std::string_view root_name = xml::name_of(root);
  if (root_name == "RDF") {
    channel.version = "rss10";
    // RSS 0.90 and 1.0 put items beside the channel, not inside it.
    for (const xmlNode* c = root->children; c != nullptr; c = c->next) {
      if (!xml::is_element(c)) continue;
      if (xml::ns_of(c) == Ns::kRss090) channel.version = "rss090";
      const std::string_view name = xml::name_of(c);
      if (name == "channel")
        read_channel_fields(c, base_of(c, base), channel);
      else if (name == "item")
        channel.items.push_back(read_item(c, base));
    }
    return channel;
  }
  if (root_name == "CHANNEL") {
    channel.version = "cdf";
    channel.link = {xml::attr(root, "HREF"), base};
    channel.dc_date = xml::attr(root, "LASTMOD");
    read_cdf(root, base, channel, nullptr);
    return channel;
  }
  if (root_name == "channel") {
    channel.version = "rss";
    read_channel_fields(root, base, channel);
    return channel;
  }
  channel.version = rss_version(root);
  for (const xmlNode* c = root->children; c != nullptr; c = c->next) {
    if (!xml::is_element(c)) continue;
    const std::string_view name = xml::name_of(c);
    if (name == "channel") read_channel_fields(c, base_of(c, base), channel);
    // Some generators close <channel> early; their items still belong to the feed.
    else if (name == "item")
      channel.items.push_back(read_item(c, base));
  }
  return channel;
}

}  // namespace longread::feed::rss
