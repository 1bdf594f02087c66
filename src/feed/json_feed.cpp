#include "feed/json_feed.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/strings.h"

namespace longread::feed::json_feed {
namespace {
using nlohmann::json;

constexpr std::size_t kMaxDepth = 512;

// Builds a DOM from nlohmann's SAX events without throwing, so that a document that breaks off (a
// truncated download) still yields everything completed before the break. Iterative: deep nesting
// cannot overflow the stack.
class PartialDomBuilder {
 public:
  json root;
  std::string error;

  bool null() { return add(json(nullptr)); }
  bool boolean(bool v) { return add(json(v)); }
  bool number_integer(json::number_integer_t v) { return add(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return add(json(v)); }
  bool number_float(json::number_float_t v, const std::string&) { return add(json(v)); }
  bool string(json::string_t& v) { return add(json(std::move(v))); }
  bool binary(json::binary_t&) { return add(json(nullptr)); }
  bool start_object(std::size_t) { return open(json::object()); }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    key_ = std::move(k);
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) {
    // nlohmann quotes the bytes it last read, which may end inside a UTF-8 sequence: every string a Feed
    // hands out is valid UTF-8, this message included.
    error = fmt::format("JSON error at byte {}: {}", position, sanitize_utf8(ex.what()));
    incomplete_ = stack_;
    return false;
  }
  // True for a container the document broke off inside (an item cut in the middle).
  [[nodiscard]] bool is_incomplete(const json* value) const {
    return std::find(incomplete_.begin(), incomplete_.end(), value) != incomplete_.end();
  }

 private:
  std::vector<json*> stack_;
  std::vector<json*> incomplete_;
  std::string key_;

  json* insert(json&& value) {
    if (stack_.empty()) {
      root = std::move(value);
      return &root;
    }
    json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(value));
      return &top.back();
    }
    json& slot = top[key_];
    slot = std::move(value);
    return &slot;
  }
  bool add(json&& value) {
    insert(std::move(value));
    return true;
  }
  bool open(json&& container) {
    if (stack_.size() >= kMaxDepth) {
      error = fmt::format("JSON error: nesting deeper than {}", kMaxDepth);
      incomplete_ = stack_;
      return false;
    }
    stack_.push_back(insert(std::move(container)));
    return true;
  }
  bool close() {
    if (!stack_.empty()) stack_.pop_back();
    return true;
  }
};

std::string str(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number_integer()) return std::to_string(it->get<std::int64_t>());
  if (it->is_number_unsigned()) return std::to_string(it->get<std::uint64_t>());
  if (it->is_number_float()) return fmt::format("{}", it->get<double>());
  return {};
}

std::vector<Author> authors_of(const json& object) {
  std::vector<Author> authors;
  auto add = [&](const json& a) {
    if (a.is_object())
      authors.push_back(Author{str(a, "name"), str(a, "url")});
    else if (a.is_string())
      authors.push_back(Author{a.get<std::string>(), {}});
  };
  if (const auto it = object.find("authors"); it != object.end() && it->is_array())
    for (const auto& a : *it) add(a);
  if (const auto it = object.find("author"); authors.empty() && it != object.end()) add(*it);
  return authors;
}

Item read_item(const json& j) {
  Item item;
  item.id = str(j, "id");
  item.url = str(j, "url");
  item.external_url = str(j, "external_url");
  item.title = str(j, "title");
  item.content_html = str(j, "content_html");
  item.content_text = str(j, "content_text");
  item.summary = str(j, "summary");
  item.date_published = str(j, "date_published");
  item.date_modified = str(j, "date_modified");
  item.authors = authors_of(j);
  if (const auto it = j.find("tags"); it != j.end() && it->is_array())
    for (const auto& t : *it)
      if (t.is_string()) item.tags.push_back(t.get<std::string>());
  if (const auto it = j.find("attachments"); it != j.end() && it->is_array()) {
    for (const auto& a : *it) {
      if (!a.is_object()) continue;
      Attachment att{str(a, "url"), str(a, "mime_type"), str(a, "title"), 0};
      if (const auto size = a.find("size_in_bytes"); size != a.end() && size->is_number_integer())
        att.size_in_bytes = size->get<std::int64_t>();
      item.attachments.push_back(std::move(att));
    }
  }
  return item;
}
std::string text_of(const json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_object()) return str(j, "value");  // {"isPermaLink": "false", "value": "..."}
  return {};
}

// rss.js mirrors RSS 2.0 element for element; attributes become object members.
rss::Channel read_rss_in_json(const json& rss_object, const std::string& version, std::size_t& items_found) {
  rss::Channel channel;
  channel.version = version.starts_with("2") ? "rss20" : "rss";
  const auto c = rss_object.find("channel");
  if (c == rss_object.end() || !c->is_object()) return channel;
  channel.title = str(*c, "title");
  channel.link.value = str(*c, "link");
  channel.description = str(*c, "description");
  channel.language = str(*c, "language");
  channel.pub_date = str(*c, "pubDate");
  channel.last_build_date = str(*c, "lastBuildDate");
  const auto items = c->find("item");
  if (items == c->end()) return channel;
  auto add_item = [&](const json& j) {
    if (!j.is_object()) return;
    rss::Item item;
    item.title = str(j, "title");
    item.link.value = str(j, "link");
    item.description = str(j, "description");
    item.pub_date = str(j, "pubDate");
    item.author = str(j, "author");
    if (const auto g = j.find("guid"); g != j.end()) {
      item.guid.value = text_of(*g);
      if (g->is_object()) item.guid_is_permalink = str(*g, "isPermaLink") != "false";
    }
    if (const auto e = j.find("enclosure"); e != j.end() && e->is_object())
      item.links.push_back(
          rss::RawLink{{str(*e, "url"), {}}, "enclosure", str(*e, "type"), {}, str(*e, "length")});
    if (const auto cat = j.find("category"); cat != j.end()) {
      if (cat->is_array()) {
        for (const auto& x : *cat)
          if (auto t = text_of(x); !t.empty()) item.categories.push_back(std::move(t));
      } else if (auto t = text_of(*cat); !t.empty()) {
        item.categories.push_back(std::move(t));
      }
    }
    channel.items.push_back(std::move(item));
  };
  if (items->is_array()) {
    items_found = items->size();
    for (const auto& j : *items) add_item(j);
  } else {
    items_found = 1;
    add_item(*items);
  }
  return channel;
}
}  // namespace

Result<Document> read(std::string_view text) {
  PartialDomBuilder builder;
  const bool complete = json::sax_parse(text, &builder, json::input_format_t::json, true);
  const json& root = builder.root;
  if (!root.is_object()) {
    if (!complete && !builder.error.empty()) return fail(ErrorKind::kParse, "feed: " + builder.error);
    return fail(ErrorKind::kNotAFeed, "feed: not a feed: JSON document is not a JSON Feed object");
  }
  Document doc;
  doc.truncated = !complete;
  doc.error = builder.error;
  if (const auto rss = root.find("rss"); rss != root.end() && rss->is_object()) {
    doc.rss_in_json = read_rss_in_json(*rss, str(*rss, "version"), doc.items_found);
    return doc;
  }
  doc.version = str(root, "version");
  const auto items = root.find("items");
  if (doc.version.find("jsonfeed.org") == std::string::npos && (items == root.end() || !items->is_array()))
    return fail(ErrorKind::kNotAFeed,
                "feed: not a feed: JSON document has neither a JSON Feed version nor items");
  doc.truncated = !complete;
  doc.error = builder.error;
  doc.title = str(root, "title");
  doc.home_page_url = str(root, "home_page_url");
  doc.feed_url = str(root, "feed_url");
  doc.description = str(root, "description");
  doc.language = str(root, "language");
  doc.authors = authors_of(root);
  if (items != root.end() && items->is_array()) {
    doc.items_found = items->size();
    for (const auto& j : *items) {
      // An item the document broke off inside is dropped: its fields cannot be trusted.
      if (!j.is_object() || builder.is_incomplete(&j)) continue;
      doc.items.push_back(read_item(j));
    }
  }
  return doc;
}

}  // namespace longread::feed::json_feed
