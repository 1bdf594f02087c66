// feedparser conformance: runs the data files of feedparser's tests/ folder (kurtmckee/feedparser) through
// feed::parse_feed and checks the `Expect:` expression of each file.
//
// Only expressions made of `bozo`, `not bozo` and `PATH == literal` joined by `and` are run, and only when
// every PATH maps to something Feed models (see lookup()); other cases are skipped, not failed. Suite rules
// follow upstream: a file under wellformed/ must not be bozo. Files whose path contains "http" are served
// over HTTP upstream: they get the base URL http://127.0.0.1:8097/tests/<path> and the Content-Type of their
// `Header:` lines (default text/xml).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "core/strings.h"
#include "core/url.h"
#include "feed/encoding.h"
#include "feed/feed.h"
#include "feed/text.h"
#include "html_equivalence.h"
#include "modes.h"

namespace longread::conformance {
namespace {
namespace fs = std::filesystem;
using feed::Entry;
using feed::Feed;

// ---- A tiny reader for the Python subset the expectations use --------------------------------------------

struct Token {
  enum Kind { kName, kString, kNumber, kPunct, kEnd } kind = kEnd;
  std::string text;
};

// Decodes a Python string literal body (after the quotes are removed): \n \t \\ \' \" \xXX \uXXXX \UXXXXXXXX.
std::string decode_python_string(std::string_view body, bool raw) {
  std::string out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c != '\\' || raw || i + 1 >= body.size()) {
      out.push_back(c);
      continue;
    }
    const char e = body[++i];
    auto hex = [&](std::size_t n) {
      char32_t v = 0;
      for (std::size_t k = 0; k < n && i + 1 < body.size(); ++k) {
        const char h = body[++i];
        v = v * 16 + static_cast<char32_t>(std::isdigit(static_cast<unsigned char>(h))
                                               ? h - '0'
                                               : (std::tolower(h) - 'a' + 10));
      }
      append_utf8(out, v);
    };
    switch (e) {
      case 'n':
        out.push_back('\n');
        break;
      case 't':
        out.push_back('\t');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case '\\':
        out.push_back('\\');
        break;
      case '\'':
        out.push_back('\'');
        break;
      case '"':
        out.push_back('"');
        break;
      case 'x':
        hex(2);
        break;
      case 'u':
        hex(4);
        break;
      case 'U':
        hex(8);
        break;
      default:
        out.push_back('\\');
        out.push_back(e);
    }
  }
  return out;
}

std::optional<std::vector<Token>> tokenize(std::string_view s) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i;
      continue;
    }
    // String literal with an optional u/b/r prefix.
    std::size_t q = i;
    bool raw = false;
    while (q < s.size() && q < i + 2 && (s[q] == 'u' || s[q] == 'b' || s[q] == 'r' || s[q] == 'U')) {
      raw = raw || s[q] == 'r';
      ++q;
    }
    if (q < s.size() && (s[q] == '\'' || s[q] == '"')) {
      const char quote = s[q];
      std::size_t j = q + 1;
      while (j < s.size() && s[j] != quote) j += (s[j] == '\\') ? 2 : 1;
      if (j >= s.size()) return std::nullopt;
      tokens.push_back({Token::kString, decode_python_string(s.substr(q + 1, j - q - 1), raw)});
      i = j + 1;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      tokens.push_back({Token::kName, std::string(s.substr(i, j - i))});
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '-' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      std::size_t j = i + 1;
      while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == 'L')) ++j;
      std::string number(s.substr(i, j - i));
      std::erase(number, 'L');
      tokens.push_back({Token::kNumber, number});
      i = j;
      continue;
    }
    if (s.substr(i, 2) == "==" || s.substr(i, 2) == "!=") {
      tokens.push_back({Token::kPunct, std::string(s.substr(i, 2))});
      i += 2;
      continue;
    }
    tokens.push_back({Token::kPunct, std::string(1, c)});
    ++i;
  }
  tokens.push_back({Token::kEnd, {}});
  return tokens;
}

using Key = std::variant<std::string, long>;
struct Literal {
  enum Kind { kString, kInt, kTuple } kind = kString;
  std::string text;
  std::vector<long> tuple;
};
struct Clause {
  enum Kind { kBozo, kNotBozo, kEquals } kind = kBozo;
  std::vector<Key> path;
  Literal value;
};

// expr := clause ('and' clause)* ; clause := ['not'] 'bozo' | path '==' literal. nullopt: outside the subset.
std::optional<std::vector<Clause>> parse_expression(std::string_view text) {
  auto tokens = tokenize(text);
  if (!tokens) return std::nullopt;
  std::size_t i = 0;
  const auto& t = *tokens;
  std::vector<Clause> clauses;
  // The bare `1`: "parses without crashing".
  if (t[0].kind == Token::kNumber && t[0].text == "1" && t[1].kind == Token::kEnd) return clauses;
  while (true) {
    Clause clause;
    if (t[i].kind == Token::kName && t[i].text == "not" && t[i + 1].kind == Token::kName &&
        t[i + 1].text == "bozo") {
      clause.kind = Clause::kNotBozo;
      i += 2;
    } else if (t[i].kind == Token::kName && t[i].text == "bozo" &&
               (t[i + 1].kind == Token::kEnd || t[i + 1].text == "and")) {
      clause.kind = Clause::kBozo;
      i += 1;
    } else if (t[i].kind == Token::kName) {
      clause.kind = Clause::kEquals;
      clause.path.emplace_back(t[i++].text);
      while (true) {
        if (t[i].text == "[" && t[i + 2].text == "]" &&
            (t[i + 1].kind == Token::kString || t[i + 1].kind == Token::kNumber)) {
          if (t[i + 1].kind == Token::kString)
            clause.path.emplace_back(t[i + 1].text);
          else
            clause.path.emplace_back(std::stol(t[i + 1].text));
          i += 3;
        } else if (t[i].text == "." && t[i + 1].kind == Token::kName) {
          clause.path.emplace_back(t[i + 1].text);
          i += 2;
        } else {
          break;
        }
      }
      if (t[i].text != "==") return std::nullopt;
      ++i;
      if (t[i].kind == Token::kString) {
        clause.value = {Literal::kString, t[i].text, {}};
        ++i;
      } else if (t[i].kind == Token::kNumber) {
        clause.value = {Literal::kInt, t[i].text, {}};
        ++i;
      } else if (t[i].text == "(") {
        clause.value.kind = Literal::kTuple;
        ++i;
        while (t[i].kind == Token::kNumber) {
          clause.value.tuple.push_back(std::stol(t[i].text));
          ++i;
          if (t[i].text == ",") ++i;
        }
        if (t[i].text != ")") return std::nullopt;
        ++i;
      } else {
        return std::nullopt;
      }
    } else {
      return std::nullopt;
    }
    clauses.push_back(std::move(clause));
    if (t[i].kind == Token::kEnd) return clauses;
    if (t[i].kind == Token::kName && t[i].text == "and") {
      ++i;
      continue;
    }
    return std::nullopt;
  }
}

// ---- Mapping feedparser's result keys onto Feed ----------------------------------------------------------

// How a value is compared: text fields are plain text in longread (feedparser keeps markup of HTML titles),
// HTML fields as HTML trees (html_equivalence.h), date tuples as time.struct_time, anything else exactly.
// kHtml is for the keys that hold markup on both sides: feedparser's content[i].value and summary (alias
// description), which its reference documents as possibly HTML, "sanitized" and re-serialised, against
// Entry::content and Entry::summary, which hold HTML. Titles and subtitles are plain text in Feed, so they
// are compared as text even where feedparser's title_detail.type says text/html.
enum class Compare { kExact, kText, kHtml, kDate };
struct Looked {
  enum Status { kValue, kNotCovered, kMissing } status = kNotCovered;
  std::string value;
  std::optional<TimePoint> date;
  Compare compare = Compare::kExact;
};

Looked value(std::string v, Compare c = Compare::kExact) {
  return {Looked::kValue, std::move(v), {}, c};
}
Looked date(std::optional<TimePoint> t) {
  return {Looked::kValue, {}, t, Compare::kDate};
}
Looked missing() {
  return {Looked::kMissing, {}, {}, Compare::kExact};
}
Looked not_covered() {
  return {};
}

// feedparser's legacy aliases (FeedParserDict.keymap).
std::string canonical_key(const std::string& key, bool entry) {
  static const std::map<std::string, std::string> kAliases{{"channel", "feed"},
                                                           {"items", "entries"},
                                                           {"guid", "id"},
                                                           {"date", "updated"},
                                                           {"date_parsed", "updated_parsed"},
                                                           {"url", "href"},
                                                           {"modified", "updated"},
                                                           {"modified_parsed", "updated_parsed"},
                                                           {"issued", "published"},
                                                           {"issued_parsed", "published_parsed"},
                                                           {"tagline", "subtitle"},
                                                           {"tagline_detail", "subtitle_detail"},
                                                           {"copyright", "rights"}};
  if (key == "description") return entry ? "summary" : "subtitle";
  if (key == "description_detail") return entry ? "summary_detail" : "subtitle_detail";
  const auto it = kAliases.find(key);
  return it == kAliases.end() ? key : it->second;
}

const std::string* str_key(const std::vector<Key>& path, std::size_t i) {
  return i < path.size() ? std::get_if<std::string>(&path[i]) : nullptr;
}
const long* int_key(const std::vector<Key>& path, std::size_t i) {
  return i < path.size() ? std::get_if<long>(&path[i]) : nullptr;
}

Looked lookup_link(const std::vector<feed::Link>& links, const std::vector<Key>& path, std::size_t i) {
  const long* n = int_key(path, i);
  const std::string* field = str_key(path, i + 1);
  if (n == nullptr || field == nullptr || path.size() != i + 2) return not_covered();
  if (*n < 0 || static_cast<std::size_t>(*n) >= links.size()) return missing();
  const auto& l = links[static_cast<std::size_t>(*n)];
  const std::string f = canonical_key(*field, true);
  if (f == "href") return value(l.href);
  if (f == "rel") return value(l.rel);
  if (f == "type") return value(l.type);
  if (f == "title") return value(l.title);
  if (f == "length") return value(std::to_string(l.length));
  return not_covered();
}

// feedparser's `author` (reference: entries[i].author, feed.author): "name (email)" when both are known, else
// whichever is (for an RSS string it keeps what was written, which differs only when the address comes
// first). longread keeps the two apart (the site shows the name only).
std::string feedparser_author(const std::string& name, const std::string& email) {
  if (!name.empty() && !email.empty()) return name + " (" + email + ")";
  return !name.empty() ? name : email;
}

// feedparser's `id` (reference: entries[i].id, feed.id): resolved against xml:base and the document URI
// ("Relative link resolution"). longread keeps the id as given, with the base that was in effect.
std::string feedparser_id(const std::string& id, const std::string& base) {
  return base.empty() ? id : feed::resolve_or_keep(base, id);
}

// `author_detail` keys longread models: name and email.
Looked lookup_author(const std::string& name, const std::string& email, const std::vector<Key>& path,
                     std::size_t i) {
  const std::string* key = str_key(path, i);
  const std::string* sub = str_key(path, i + 1);
  if (key == nullptr) return not_covered();
  if (*key == "author" && path.size() == i + 1) return value(feedparser_author(name, email), Compare::kText);
  if (*key != "author_detail" || sub == nullptr || path.size() != i + 2) return not_covered();
  if (*sub == "name") return value(name, Compare::kText);
  if (*sub == "email") return email.empty() ? missing() : value(email);
  return not_covered();
}

Looked lookup_entry(const Entry& e, const std::vector<Key>& path, std::size_t i) {
  const std::string* first = str_key(path, i);
  if (first == nullptr) return not_covered();
  const std::string key = canonical_key(*first, true);
  const std::string* sub = str_key(path, i + 1);
  const bool leaf = path.size() == i + 1;
  const bool detail_value = path.size() == i + 2 && sub != nullptr && *sub == "value";
  if ((key == "title" && leaf) || (key == "title_detail" && detail_value))
    return value(e.title, Compare::kText);
  if (key == "link" && leaf) return value(e.link);
  if (key == "id" && leaf) return value(feedparser_id(e.id, e.id_base));
  // feedparser's summary falls back to the content when the entry has no summary element: its
  // _end_content saves text or HTML content as `summary` too, unless a summary was already saved.
  if ((key == "summary" && leaf) || (key == "summary_detail" && detail_value))
    return value(!e.summary.empty() ? e.summary : e.content, Compare::kHtml);
  if (key == "content" && path.size() == i + 3 && int_key(path, i + 1) && str_key(path, i + 2) &&
      *str_key(path, i + 2) == "value")
    return *int_key(path, i + 1) == 0 && !e.content.empty() ? value(e.content, Compare::kHtml) : missing();
  if (key == "author" || key == "author_detail") return lookup_author(e.author, e.author_email, path, i);
  if (key == "published" && leaf) return value(e.published_raw);
  if (key == "updated" && leaf) return value(!e.updated_raw.empty() ? e.updated_raw : e.published_raw);
  if (key == "published_parsed" && leaf) return date(e.published);
  if (key == "updated_parsed" && leaf) return date(e.updated ? e.updated : e.published);
  if (key == "links") return lookup_link(e.links, path, i + 1);
  if (key == "enclosures") return lookup_link(e.enclosures, path, i + 1);
  if (key == "category" && leaf)
    return e.categories.empty() ? missing() : value(e.categories.front(), Compare::kText);
  if (key == "tags" && path.size() == i + 3 && int_key(path, i + 1) && str_key(path, i + 2) &&
      *str_key(path, i + 2) == "term") {
    const long n = *int_key(path, i + 1);
    if (n < 0 || static_cast<std::size_t>(n) >= e.categories.size()) return missing();
    return value(e.categories[static_cast<std::size_t>(n)], Compare::kText);
  }
  return not_covered();
}

Looked lookup(const Feed& f, const std::vector<Key>& path) {
  const std::string* root = str_key(path, 0);
  if (root == nullptr) return not_covered();
  const std::string r = canonical_key(*root, false);
  if (r == "version" && path.size() == 1) return value(f.version);
  if (r == "encoding" && path.size() == 1) return value(f.encoding);
  if (r == "entries") {
    const long* n = int_key(path, 1);
    if (n == nullptr) return not_covered();
    if (*n < 0 || static_cast<std::size_t>(*n) >= f.entries.size()) {
      // Decide coverage on the path alone, so that a missing entry fails rather than skips.
      const Entry empty;
      return lookup_entry(empty, path, 2).status == Looked::kNotCovered ? not_covered() : missing();
    }
    return lookup_entry(f.entries[static_cast<std::size_t>(*n)], path, 2);
  }
  if (r != "feed") return not_covered();
  const std::string* first = str_key(path, 1);
  if (first == nullptr) return not_covered();
  const std::string key = canonical_key(*first, false);
  const std::string* sub = str_key(path, 2);
  const bool leaf = path.size() == 2;
  const bool detail_value = path.size() == 3 && sub != nullptr && *sub == "value";
  if ((key == "title" && leaf) || (key == "title_detail" && detail_value))
    return value(f.title, Compare::kText);
  if ((key == "subtitle" && leaf) || (key == "subtitle_detail" && detail_value))
    return value(f.subtitle, Compare::kText);
  if (key == "link" && leaf) return value(f.link);
  if (key == "language" && leaf) return value(f.language);
  if (key == "id" && leaf) return value(feedparser_id(f.id, f.id_base));
  if (key == "author" || key == "author_detail") return lookup_author(f.author, f.author_email, path, 1);
  if (key == "updated_parsed" && leaf) return date(f.updated);
  return not_covered();
}

// time.struct_time of a UTC time point: (year, mon, mday, hour, min, sec, wday Monday=0, yday, isdst=0).
std::vector<long> struct_time(TimePoint t) {
  using namespace std::chrono;
  const auto day_point = floor<days>(t);
  const year_month_day ymd{day_point};
  const hh_mm_ss hms{t - day_point};
  const weekday wd{day_point};
  const auto yday = (day_point - sys_days{ymd.year() / January / 1}).count() + 1;
  return {static_cast<int>(ymd.year()),
          static_cast<long>(static_cast<unsigned>(ymd.month())),
          static_cast<long>(static_cast<unsigned>(ymd.day())),
          hms.hours().count(),
          hms.minutes().count(),
          static_cast<long>(hms.seconds().count()),
          static_cast<long>((wd.c_encoding() + 6) % 7),
          static_cast<long>(yday),
          0};
}

// ---- Running one case ---------------------------------------------------------------------------------

struct Case {
  std::string path;  // relative to the corpus folder
  std::string expression;
  std::string content_type;
  std::string content_location;  // Content-Location header: the document's own URL (RFC 9110 section 8.7)
  std::string content_language;  // Content-Language header (RFC 9110 section 8.5)
  bool http = false;
  bool needs_chardet = false;  // `SkipUnless:` the optional chardet module
};

enum class Outcome { kPass, kFail, kSkip };

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::optional<Case> read_case(const fs::path& file, const fs::path& root, const std::string& bytes) {
  // UTF-16/32 files are decoded before the comment is searched for, as upstream does.
  const auto decoded = feed::decode_to_utf8(bytes, {});
  const std::string text(decoded.text());
  // Upstream's regex `Description:\s*(.*?)\s*Expect:\s*(.*)\s*-->`: the expression is the rest of the line.
  const auto description = text.find("Description:");
  const auto expect = text.find("Expect:", description == std::string::npos ? 0 : description);
  if (description == std::string::npos || expect == std::string::npos) return std::nullopt;
  std::string_view expression = std::string_view(text).substr(expect + 7);
  expression = expression.substr(0, expression.find('\n'));
  expression = expression.substr(0, expression.find("-->"));
  Case c;
  c.path = fs::relative(file, root).generic_string();
  c.expression = std::string(trim(expression));
  c.http = c.path.find("http") != std::string::npos;
  // `Header: Name: value` lines.
  for (auto pos = text.find("Header:"); pos != std::string::npos; pos = text.find("Header:", pos + 7)) {
    std::string_view line = std::string_view(text).substr(pos + 7);
    line = line.substr(0, line.find('\n'));
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const auto name = trim(line.substr(0, colon));
    const auto value = std::string(trim(line.substr(colon + 1)));
    if (iequals(name, "Content-type"))
      c.content_type = value;
    else if (iequals(name, "Content-Location"))
      c.content_location = value;
    else if (iequals(name, "Content-Language"))
      c.content_language = value;
  }
  c.needs_chardet = text.find("SkipUnless") != std::string::npos && text.find("chardet") != std::string::npos;
  if (c.http && c.content_type.empty()) c.content_type = "text/xml";
  return c;
}

bool text_matches(const std::string& ours, const std::string& expected) {
  // longread's titles are plain text; feedparser's are text or (sanitized) HTML.
  return ours == expected || ours == collapse_whitespace(expected) || ours == feed::html_to_text(expected);
}

Outcome run_case(const Case& c, const std::string& bytes, std::string& why) {
  if (c.needs_chardet) {
    why = "needs feedparser's optional chardet module";
    return Outcome::kSkip;
  }
  auto clauses = parse_expression(c.expression);
  if (!clauses) {
    why = "expression outside the supported subset";
    return Outcome::kSkip;
  }
  feed::ParseOptions options;
  if (c.http) {
    options.base_url = "http://127.0.0.1:8097/tests/" + c.path;
    // What a fetcher passes as the feed URL: Content-Location, resolved against the request URL.
    if (!c.content_location.empty()) {
      const std::string location = feed::resolve_or_keep(options.base_url, c.content_location);
      if (is_http_url(location)) options.base_url = location;
    }
    options.content_type = c.content_type;
    options.content_language = c.content_language;
  }
  auto parsed = feed::parse_feed(bytes, options);
  Feed f;
  if (parsed)
    f = std::move(*parsed);
  else
    f.bozo = true;  // feedparser reports an unparseable document as a bozo result

  // Decide coverage first: a case with any path Feed does not model is skipped as a whole.
  const bool sanitize_or_base =
      c.path.starts_with("wellformed/sanitize/") || c.path.starts_with("wellformed/base/");
  for (const auto& clause : *clauses) {
    if (clause.kind != Clause::kEquals) continue;
    const Looked looked = lookup(f, clause.path);
    if (looked.status == Looked::kNotCovered) {
      why = "path not modelled";
      return Outcome::kSkip;
    }
    // feedparser sanitizes HTML and resolves relative URIs inside it; longread leaves that to html/.
    if (looked.compare == Compare::kHtml && sanitize_or_base) {
      why = "HTML rewritten by feedparser's sanitizer / URI resolver";
      return Outcome::kSkip;
    }
    if (looked.compare == Compare::kDate && clause.value.kind != Literal::kTuple) {
      why = "date compared to a non-tuple";
      return Outcome::kSkip;
    }
  }
  if (c.path.starts_with("wellformed/") && f.bozo) {
    why = fmt::format("bozo on a wellformed case: {}", parsed ? f.bozo_message : parsed.error().message);
    return Outcome::kFail;
  }
  for (const auto& clause : *clauses) {
    if (clause.kind == Clause::kBozo && !f.bozo) {
      why = "expected bozo";
      return Outcome::kFail;
    }
    if (clause.kind == Clause::kNotBozo && f.bozo) {
      why = "unexpected bozo: " + (parsed ? f.bozo_message : parsed.error().message);
      return Outcome::kFail;
    }
    if (clause.kind != Clause::kEquals) continue;
    const Looked looked = lookup(f, clause.path);
    if (looked.status == Looked::kMissing) {
      why = "value missing";
      return Outcome::kFail;
    }
    bool ok = false;
    std::string got = looked.value;
    std::string detail;
    if (looked.compare == Compare::kDate) {
      if (looked.date) {
        const auto tuple = struct_time(*looked.date);
        ok = tuple == clause.value.tuple;
        got = fmt::format("({})", fmt::join(tuple, ", "));
      } else {
        got = "None";
      }
    } else if (looked.compare == Compare::kText) {
      ok = text_matches(looked.value, clause.value.text);
    } else if (looked.compare == Compare::kHtml) {
      // Two serialisations of one tree are the same HTML: feedparser's expected values are its sanitizer's
      // re-serialisation (sorted attributes, `<br />`, `&#x2019;` for `&#146;`, explicit end tags, xmlns).
      const auto difference = html_difference(looked.value, clause.value.text);
      ok = !difference.has_value();
      if (difference) detail = "; as HTML, " + *difference;
    } else {
      ok = looked.value == clause.value.text;
    }
    if (!ok) {
      why = fmt::format("got '{}'{}", got.substr(0, 200), detail);
      return Outcome::kFail;
    }
  }
  return Outcome::kPass;
}

}  // namespace

int run_feedparser(std::span<const std::string_view> args) {
  if (args.empty()) {
    fmt::print(stderr, "usage: longread-conformance feedparser DIR [--known-failures FILE] [--verbose]\n");
    return 2;
  }
  const fs::path root(args[0]);
  fs::path known_file = fs::path(LONGREAD_CONFORMANCE_DIR) / "feedparser_known_failures.txt";
  bool verbose = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--known-failures" && i + 1 < args.size())
      known_file = fs::path(args[++i]);
    else if (args[i] == "--verbose")
      verbose = true;
  }
  if (!fs::is_directory(root)) {
    fmt::print("skipped: {} not present\n", root.string());
    return kExitSkipped;
  }
  const auto known = read_known_failures(known_file);

  std::vector<fs::path> files;
  for (const auto& item : fs::recursive_directory_iterator(root)) {
    const auto ext = item.path().extension();
    if (item.is_regular_file() && (ext == ".xml" || ext == ".json")) files.push_back(item.path());
  }
  std::sort(files.begin(), files.end());

  int passed = 0, failed = 0, skipped = 0, unexpected = 0;
  std::vector<std::string> now_passing;
  for (const auto& file : files) {
    const std::string bytes = read_bytes(file);
    auto c = read_case(file, root, bytes);
    if (!c) {
      ++skipped;
      continue;
    }
    std::string why;
    const Outcome outcome = run_case(*c, bytes, why);
    const bool is_known = known.contains(c->path);
    if (outcome == Outcome::kPass) {
      ++passed;
      if (is_known) now_passing.push_back(c->path);
    } else if (outcome == Outcome::kFail) {
      ++failed;
      if (!is_known) ++unexpected;
      fmt::print("{} {}: {} | expect: {}\n", is_known ? "KNOWN" : "FAIL", c->path, why, c->expression);
    } else {
      ++skipped;
      if (verbose) fmt::print("SKIP {}: {}\n", c->path, why);
    }
  }
  for (const auto& p : now_passing) fmt::print("NOW PASSING (remove from the known-failures list): {}\n", p);
  const int runnable = passed + failed;
  fmt::print("{:.1f}% of runnable cases pass; {} unexpected failures\n",
             runnable ? 100.0 * passed / runnable : 0.0, unexpected);
  fmt::print("{} passed, {} failed, {} skipped\n", passed, failed, skipped);
  return unexpected == 0 ? 0 : 1;
}

}  // namespace longread::conformance
