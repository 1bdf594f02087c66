#include "feed/bookmarks.h"

#include <fmt/format.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <charconv>
#include <memory>
#include <unordered_set>

#include "core/strings.h"
#include "core/url.h"

namespace longread::feed {
namespace {

Error invalid(std::string message) {
  return Error{ErrorKind::kInvalidInput, "bookmarks: " + std::move(message)};
}

std::optional<TimePoint> unix_seconds(std::string_view text) {
  text = trim(text);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value <= 0) return std::nullopt;
  // Some exports write milliseconds.
  if (value > 100'000'000'000) value /= 1000;
  return from_unix(value);
}

// Collects bookmarks, dropping what is not a link we can keep and URLs seen before.
class Collector {
 public:
  explicit Collector(const BookmarkLimits& limits) : limits_(limits) {}

  Result<void> add(std::string_view url, std::string_view title, std::optional<TimePoint> saved_at,
                   bool read) {
    const std::string u = sanitize_utf8(trim(url));
    if (u.size() > limits_.max_url || !is_http_url(u)) {
      ++out_.skipped;
      return {};
    }
    if (!seen_.insert(u).second) return {};
    if (out_.bookmarks.size() == limits_.max_links)
      return std::unexpected(invalid(fmt::format("more than {} links in one file", limits_.max_links)));
    std::string t = truncate_words(collapse_whitespace(sanitize_utf8(title)), limits_.max_title);
    out_.bookmarks.push_back(Bookmark{.url = u, .title = std::move(t), .saved_at = saved_at, .read = read});
    return {};
  }

  BookmarkImport take(std::string format) {
    out_.format = std::move(format);
    return std::move(out_);
  }

 private:
  const BookmarkLimits& limits_;
  std::unordered_set<std::string> seen_;
  BookmarkImport out_;
};

struct DocDeleter {
  void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};

std::string node_text(xmlNode* node) {
  xmlChar* content = xmlNodeGetContent(node);
  std::string out = content != nullptr ? reinterpret_cast<const char*>(content) : "";
  xmlFree(content);
  return out;
}

std::string attribute(xmlNode* node, const char* name) {
  // HTML attribute names are case-insensitive; libxml2's HTML parser gives them in lower case.
  xmlChar* value = xmlGetProp(node, reinterpret_cast<const xmlChar*>(name));
  std::string out = value != nullptr ? reinterpret_cast<const char*>(value) : "";
  xmlFree(value);
  return out;
}

bool is_heading(const xmlChar* name) {
  const std::string n = to_lower_ascii(reinterpret_cast<const char*>(name));
  return n.size() == 2 && n[0] == 'h' && n[1] >= '1' && n[1] <= '6';
}

// Document order, iteratively (a hostile file can nest deeper than a recursion should go). A heading
// whose text is "Read Archive" (Pocket) marks the links after it read, until the next heading.
Result<void> walk_html(xmlNode* root, Collector& collector) {
  bool read = false;
  std::vector<xmlNode*> stack{root};
  while (!stack.empty()) {
    xmlNode* node = stack.back();
    stack.pop_back();
    for (; node != nullptr; node = node->next) {
      if (node->type != XML_ELEMENT_NODE) continue;
      if (is_heading(node->name)) {
        read = to_lower_ascii(collapse_whitespace(node_text(node))) == "read archive";
        continue;
      }
      if (to_lower_ascii(reinterpret_cast<const char*>(node->name)) == "a") {
        std::string added = attribute(node, "time_added");
        if (added.empty()) added = attribute(node, "add_date");
        if (auto ok = collector.add(attribute(node, "href"), node_text(node), unix_seconds(added), read); !ok)
          return ok;
        continue;
      }
      if (node->children != nullptr) {
        if (node->next != nullptr) stack.push_back(node->next);
        stack.push_back(node->children);
        break;
      }
    }
  }
  return {};
}

Result<BookmarkImport> parse_html(std::string_view bytes, const BookmarkLimits& limits) {
  std::unique_ptr<xmlDoc, DocDeleter> doc(
      htmlReadMemory(bytes.data(), static_cast<int>(bytes.size()), nullptr, "UTF-8",
                     HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET));
  if (!doc) return std::unexpected(invalid("not a bookmark file (the HTML could not be read)"));
  Collector collector(limits);
  if (auto ok = walk_html(xmlDocGetRootElement(doc.get()), collector); !ok)
    return std::unexpected(ok.error());
  return collector.take("netscape-html");
}

Result<BookmarkImport> parse_csv_export(std::string_view bytes, const BookmarkLimits& limits) {
  auto rows = parse_csv(bytes);
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::unexpected(invalid("empty file"));
  const auto& header = rows->front();
  auto column = [&](std::initializer_list<std::string_view> names) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < header.size(); ++i) {
      const std::string name = to_lower_ascii(trim(header[i]));
      for (auto n : names)
        if (name == n) return i;
    }
    return std::nullopt;
  };
  const auto url = column({"url"});
  if (!url)
    return std::unexpected(invalid("the CSV has no URL column (expected Pocket's or Instapaper's export)"));
  const auto title = column({"title"});
  const auto time = column({"time_added", "timestamp"});
  const auto status = column({"status"});  // Pocket: unread, archive
  const auto folder = column({"folder"});  // Instapaper: Unread, Archive, or a folder of the reader's
  const bool instapaper = folder.has_value();
  Collector collector(limits);
  for (std::size_t r = 1; r < rows->size(); ++r) {
    const auto& row = (*rows)[r];
    auto field = [&](std::optional<std::size_t> i) -> std::string_view {
      return i && *i < row.size() ? std::string_view(row[*i]) : std::string_view();
    };
    if (row.size() == 1 && trim(row[0]).empty()) continue;  // a blank line
    const bool read =
        to_lower_ascii(trim(field(status))) == "archive" || to_lower_ascii(trim(field(folder))) == "archive";
    if (auto ok = collector.add(field(url), field(title), unix_seconds(field(time)), read); !ok)
      return std::unexpected(ok.error());
  }
  return collector.take(instapaper ? "instapaper-csv" : "pocket-csv");
}

}  // namespace

Result<std::vector<std::vector<std::string>>> parse_csv(std::string_view bytes) {
  if (bytes.starts_with("\xEF\xBB\xBF")) bytes.remove_prefix(3);  // a UTF-8 byte order mark
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  bool any = false;  // the current row has content (a field or a separator)
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const char c = bytes[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < bytes.size() && bytes[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        field += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n') ++i;
      if (any || !field.empty()) {
        row.push_back(std::move(field));
        rows.push_back(std::move(row));
      }
      field.clear();
      row.clear();
      any = false;
    } else {
      field += c;
      any = true;
    }
  }
  if (quoted) return std::unexpected(invalid("a quoted CSV field is never closed"));
  if (any || !field.empty()) {
    row.push_back(std::move(field));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string csv_field(std::string_view value) {
  std::string v(value);
  if (!v.empty() && (v[0] == '=' || v[0] == '+' || v[0] == '-' || v[0] == '@')) v.insert(v.begin(), '\'');
  if (v.find_first_of(",\"\r\n") == std::string::npos) return v;
  std::string out = "\"";
  for (char c : v) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

Result<BookmarkImport> parse_bookmarks(std::string_view bytes, const BookmarkLimits& limits) {
  std::string_view start = bytes;
  if (start.starts_with("\xEF\xBB\xBF")) start.remove_prefix(3);
  start = trim(start);
  if (start.empty()) return std::unexpected(invalid("empty file"));
  if (start.front() == '<') return parse_html(bytes, limits);
  return parse_csv_export(bytes, limits);
}

std::string write_netscape_bookmarks(const std::vector<Bookmark>& bookmarks, std::string_view title) {
  std::string out =
      "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n"
      "<!-- This is an automatically generated file. It will be read and overwritten. -->\n"
      "<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=UTF-8\">\n";
  out += fmt::format("<TITLE>{0}</TITLE>\n<H1>{0}</H1>\n<DL><p>\n", html_escape(title));
  for (const bool read : {false, true}) {
    out += fmt::format("    <DT><H3>{}</H3>\n    <DL><p>\n", read ? "Read Archive" : "Unread");
    for (const auto& b : bookmarks) {
      if (b.read != read) continue;
      out += fmt::format("        <DT><A HREF=\"{}\"", html_escape(b.url));
      if (b.saved_at) out += fmt::format(" ADD_DATE=\"{}\"", to_unix(*b.saved_at));
      out += fmt::format(">{}</A>\n", html_escape(b.title.empty() ? b.url : b.title));
    }
    out += "    </DL><p>\n";
  }
  out += "</DL><p>\n";
  return out;
}

}  // namespace longread::feed
