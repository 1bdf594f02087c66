#include "feed/adapter.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>

#include "core/strings.h"
#include "core/url.h"
#include "feed/text.h"

namespace longread::feed {
namespace {

std::int64_t to_int(std::string_view s) {
  s = trim(s);
  std::int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() && value > 0 ? value : 0;
}

void set_date(std::string_view raw, std::optional<TimePoint>& parsed, std::string& raw_out) {
  raw_out = sanitize_utf8(trim(raw));
  parsed = raw_out.empty() ? std::nullopt : parse_feed_date(raw_out);
}

struct Author {
  std::string name, email;
};

bool is_local_part_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '+';
}
bool is_domain_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.';
}

// The first e-mail address written in `text` ("jane@example.com", with a dotted domain), or an empty view.
std::string_view find_email(std::string_view text) {
  for (auto at = text.find('@'); at != std::string_view::npos; at = text.find('@', at + 1)) {
    std::size_t begin = at;
    while (begin > 0 && is_local_part_char(text[begin - 1])) --begin;
    std::size_t end = at + 1;
    while (end < text.size() && is_domain_char(text[end])) ++end;
    while (end > at + 1 && (text[end - 1] == '.' || text[end - 1] == '-')) --end;  // "(jane@example.com.)"
    const std::string_view domain = text.substr(at + 1, end - at - 1);
    const auto dot = domain.find('.');
    if (begin < at && dot != std::string_view::npos && dot > 0 && domain.find("..") == std::string_view::npos)
      return text.substr(begin, end - begin);
  }
  return {};
}

// A person written as one string: RSS 2.0's <author> is "the email address of the author" and feeds write
// it "jane@example.com (Jane Doe)", "Jane Doe (jane@example.com)", "Jane Doe <jane@example.com>" or just a
// name or an address; dc:creator and managingEditor the same. The address is taken out, what is left (less
// the brackets around the address) is the name, as feedparser reads it.
Author split_author(std::string_view author) {
  const std::string_view email = find_email(author);
  if (email.empty()) return {plain_text(author), {}};
  const auto at = static_cast<std::size_t>(email.data() - author.data());
  std::string rest = std::string(author.substr(0, at)) + std::string(author.substr(at + email.size()));
  // One pass per bracket pair, so that a hostile author of a million "()" costs linear time.
  for (const std::string_view empty_brackets : {"()", "<>", "[]"}) {
    std::string kept;
    kept.reserve(rest.size());
    for (std::size_t i = 0; i < rest.size();) {
      if (std::string_view(rest).substr(i, 2) == empty_brackets) {
        i += 2;
      } else {
        kept.push_back(rest[i++]);
      }
    }
    rest = std::move(kept);
  }
  std::string_view name = trim(rest);
  if (name.starts_with('(')) name.remove_prefix(1);
  if (name.ends_with(')')) name.remove_suffix(1);
  return {plain_text(trim(name)), std::string(email)};
}

// The base an entry's relative links are resolved against. A document read from a file (file://) or given
// no URL has no web address for "/posts/1" to be relative to (RFC 3986 section 5.1.4: the application's
// default base); the feed's own site link (RSS <channel><link>, Atom <link rel="alternate">, JSON Feed
// home_page_url) is the site those paths belong to, so it stands in, and an xml:base that is itself
// relative is taken relative to it. With an http(s) base, or no http(s) site link, the base stays.
std::string entry_base(const std::string& base, const std::string& site) {
  if (is_http_url(base) || !is_http_url(site)) return base;
  if (base.empty() || !url_scheme(base).empty()) return site;
  return resolve_or_keep(site, base);
}

std::string resolve_entry_url(const std::string& base, std::string_view ref, const std::string& site) {
  return resolve_or_keep(entry_base(base, site), ref);
}

Link to_link(const rss::RawLink& raw, const std::string& site = {}) {
  return Link{resolve_entry_url(raw.href.base, raw.href.value, site), raw.rel.empty() ? "alternate" : raw.rel,
              raw.type, plain_text(raw.title), to_int(raw.length)};
}

Link to_link(const atom::RawLink& raw, const std::string& site = {}) {
  return Link{resolve_entry_url(raw.base, raw.href, site), raw.rel, raw.type, plain_text(raw.title),
              to_int(raw.length)};
}

// An alternate link: HTML type preferred (RFC 4287 section 4.2.7.2: rel absent means alternate).
std::string alternate_of(const std::vector<Link>& links) {
  const Link* fallback = nullptr;
  for (const auto& l : links) {
    if (l.rel != "alternate" || l.href.empty()) continue;
    if (l.type.empty() || l.type == "text/html" || l.type == "application/xhtml+xml") return l.href;
    if (fallback == nullptr) fallback = &l;
  }
  return fallback ? fallback->href : std::string();
}

std::string text_of(const atom::Text& t) {
  if (t.type == "text") return plain_text(t.value);
  return html_to_text(t.value);
}

std::string html_of(const atom::Text& t) {
  if (t.type == "text") return escape_html(t.value);
  return t.value;
}

// A whole number from 1 to 999,999,999 as feeds write it (" 180 "), else nullopt: a sign, a fraction, a unit
// or an overlong run of digits is garbage, not a hint.
std::optional<std::int64_t> positive_count(std::string_view s) {
  s = trim(s);
  if (s.empty() || s.size() > 9) return std::nullopt;
  std::int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size() || value <= 0) return std::nullopt;
  return value;
}

// Longer than this is not a polling hint but a broken generator.
constexpr std::chrono::minutes kMaxUpdateInterval = std::chrono::days{365};

std::optional<std::chrono::minutes> plausible(std::chrono::minutes interval) {
  if (interval < std::chrono::minutes{1} || interval > kMaxUpdateInterval) return std::nullopt;
  return interval;
}

// RSS 2.0 <ttl>: "number of minutes that indicates how long a channel can be cached before refreshing from
// the source" (https://www.rssboard.org/rss-specification#ltttlgtSubelementOfLtchannelgt).
std::optional<std::chrono::minutes> ttl_interval(std::string_view ttl) {
  const auto n = positive_count(ttl);
  if (!n) return std::nullopt;
  return plausible(std::chrono::minutes{*n});
}

// Syndication module (https://web.resource.org/rss/1.0/modules/syndication/): updatePeriod is hourly, daily,
// weekly, monthly or yearly ("if omitted, daily is assumed"), updated updateFrequency times per period ("if
// omitted a value of one (1) is assumed"). A month is 30 days, a year 365.
std::optional<std::chrono::minutes> syndication_interval(std::string_view period,
                                                         std::string_view frequency) {
  using namespace std::chrono;
  if (trim(period).empty() && trim(frequency).empty()) return std::nullopt;
  const std::string name = to_lower_ascii(trim(period));
  minutes length{0};
  if (name.empty() || name == "daily")
    length = days{1};
  else if (name == "hourly")
    length = hours{1};
  else if (name == "weekly")
    length = weeks{1};
  else if (name == "monthly")
    length = days{30};
  else if (name == "yearly")
    length = days{365};
  else
    return std::nullopt;
  std::int64_t times = 1;
  if (!trim(frequency).empty()) {
    const auto n = positive_count(frequency);
    if (!n) return std::nullopt;
    times = *n;
  }
  return plausible(length / times);
}

}  // namespace

Feed adapt_rss(const rss::Channel& channel) {
  Feed feed;
  feed.version = channel.version;
  feed.title = html_to_text(channel.title);
  feed.subtitle = html_to_text(channel.description);
  feed.language = plain_text(channel.language);
  Author feed_author =
      split_author(!channel.dc_creator.empty() ? channel.dc_creator : channel.managing_editor);
  feed.author = std::move(feed_author.name);
  feed.author_email = std::move(feed_author.email);
  feed.link = resolve_or_keep(channel.link.base, channel.link.value);
  if (feed.link.empty()) {
    std::vector<Link> links;
    for (const auto& l : channel.atom_links) links.push_back(to_link(l));
    feed.link = alternate_of(links);
  }
  std::string raw_date;
  const std::string& updated = !channel.last_build_date.empty() ? channel.last_build_date
                               : !channel.dc_date.empty()       ? channel.dc_date
                                                                : channel.pub_date;
  set_date(updated, feed.updated, raw_date);
  // Both are minimums a publisher asks for; when a feed gives both, the longer one is what it asks.
  const auto ttl = ttl_interval(channel.ttl);
  const auto syndication = syndication_interval(channel.update_period, channel.update_frequency);
  if (ttl && syndication)
    feed.update_interval = std::max(*ttl, *syndication);
  else
    feed.update_interval = ttl ? ttl : syndication;

  feed.entries.reserve(channel.items.size());
  for (const auto& item : channel.items) {
    Entry e;
    e.id = !item.guid.value.empty() ? item.guid.value : item.rdf_about;
    // A guid is a URL unless isPermaLink="false" says it is not (RSS 2.0); rdf:about is an identifier.
    if (!item.guid.value.empty() && item.guid_is_permalink.value_or(true)) e.id_base = item.guid.base;
    e.title = html_to_text(item.title);
    for (std::size_t i = 0; i <= item.links.size(); ++i) {
      if (i == item.link_position && !item.link.value.empty()) {
        e.link = resolve_entry_url(item.link.base, item.link.value, feed.link);
        e.links.push_back(Link{e.link, "alternate", "text/html", {}, 0});
      }
      if (i == item.links.size()) break;
      Link link = to_link(item.links[i], feed.link);
      if (link.rel == "enclosure") e.enclosures.push_back(link);
      e.links.push_back(std::move(link));
    }
    if (e.link.empty()) e.link = alternate_of(e.links);
    // RSS 2.0: a guid is a permalink unless isPermaLink="false"; readers use it when <link> is missing.
    if (e.link.empty() && !item.guid.value.empty() && item.guid_is_permalink.value_or(true))
      e.link = resolve_entry_url(item.guid.base, item.guid.value, feed.link);
    Author author = split_author(!item.dc_creator.empty() ? item.dc_creator : item.author);
    e.author = std::move(author.name);
    e.author_email = std::move(author.email);
    set_date(!item.pub_date.empty() ? item.pub_date : item.dc_date, e.published, e.published_raw);
    set_date(item.updated, e.updated, e.updated_raw);
    e.summary = trim(item.description);
    e.content = trim(item.content_encoded);
    for (const auto& c : item.categories) e.categories.push_back(c);
    feed.entries.push_back(std::move(e));
  }
  return feed;
}

Feed adapt_atom(const atom::Feed& raw) {
  Feed feed;
  feed.version = raw.version;
  feed.title = text_of(raw.title);
  feed.subtitle = text_of(raw.subtitle);
  feed.id = plain_text(raw.id);
  feed.id_base = raw.id_base;
  feed.language = plain_text(raw.language);
  if (!raw.authors.empty()) {
    feed.author = raw.authors.front().name;
    feed.author_email = raw.authors.front().email;
  }
  std::vector<Link> feed_links;
  for (const auto& l : raw.links) feed_links.push_back(to_link(l));
  feed.link = alternate_of(feed_links);
  std::string raw_date;
  set_date(raw.updated, feed.updated, raw_date);

  feed.entries.reserve(raw.entries.size());
  for (const auto& entry : raw.entries) {
    Entry e;
    e.id = plain_text(entry.id);
    e.id_base = entry.id_base;
    e.title = text_of(entry.title);
    for (const auto& l : entry.links) {
      Link link = to_link(l, feed.link);
      if (link.rel == "enclosure") e.enclosures.push_back(link);
      e.links.push_back(std::move(link));
    }
    e.link = alternate_of(e.links);
    // RFC 4287 section 4.2.1: an entry without an author inherits the feed's.
    if (!entry.authors.empty()) {
      e.author = entry.authors.front().name;
      e.author_email = entry.authors.front().email;
    } else {
      e.author = feed.author;
      e.author_email = feed.author_email;
    }
    set_date(entry.published, e.published, e.published_raw);
    set_date(entry.updated, e.updated, e.updated_raw);
    if (entry.summary.present) e.summary = trim(html_of(entry.summary));
    if (entry.content.present && entry.content.src.empty()) e.content = trim(html_of(entry.content));
    e.categories = entry.categories;
    feed.entries.push_back(std::move(e));
  }
  return feed;
}

Feed adapt_json_feed(const json_feed::Document& doc, const std::string& base_url) {
  Feed feed;
  if (doc.version.find("jsonfeed.org/version/1.1") != std::string::npos)
    feed.version = "json11";
  else if (doc.version.find("jsonfeed.org/version/1") != std::string::npos)
    feed.version = "json1";
  // JSON Feed says titles are plain text, but many producers write them HTML-escaped ("&#8217;").
  feed.title = unescape_plain_text(doc.title);
  feed.subtitle = plain_text(doc.description);
  feed.language = plain_text(doc.language);
  if (!doc.authors.empty()) feed.author = plain_text(doc.authors.front().name);
  // JSON Feed has no base of its own: relative URLs are relative to the feed's URL.
  const std::string base = !doc.feed_url.empty() ? resolve_or_keep(base_url, doc.feed_url) : base_url;
  feed.link = resolve_or_keep(base, doc.home_page_url);
  const std::string item_base = entry_base(base, feed.link);

  feed.entries.reserve(doc.items.size());
  for (const auto& item : doc.items) {
    Entry e;
    e.id = item.id;
    e.title = unescape_plain_text(item.title);
    if (!item.url.empty()) {
      e.link = resolve_or_keep(item_base, item.url);
      e.links.push_back(Link{e.link, "alternate", "text/html", {}, 0});
    }
    if (!item.external_url.empty()) {
      const std::string external = resolve_or_keep(item_base, item.external_url);
      e.links.push_back(Link{external, "related", {}, {}, 0});
      if (e.link.empty()) e.link = external;
    }
    for (const auto& a : item.attachments) {
      Link link{resolve_or_keep(item_base, a.url), "enclosure", a.mime_type, plain_text(a.title),
                a.size_in_bytes};
      e.links.push_back(link);
      e.enclosures.push_back(std::move(link));
    }
    e.author = !item.authors.empty() ? plain_text(item.authors.front().name) : feed.author;
    set_date(item.date_published, e.published, e.published_raw);
    set_date(item.date_modified, e.updated, e.updated_raw);
    e.summary = !item.summary.empty() ? escape_html(item.summary) : escape_html(item.content_text);
    e.content = !item.content_html.empty() ? item.content_html : escape_html(item.content_text);
    e.categories = item.tags;
    feed.entries.push_back(std::move(e));
  }
  return feed;
}

}  // namespace longread::feed
