// The Google Reader API, the subset FreshRSS and Miniflux serve, so that feed apps (newsboat, NetNewsWire,
// Reeder, FeedMe) read longread with a reader's app password:
//   POST /accounts/ClientLogin              Email + Passwd (an app password) → "Auth=<token>"
//   GET  /reader/api/0/token                the edit token ("T") every change carries
//   GET  /reader/api/0/user-info, tag/list, subscription/list (the blogs, categories as labels)
//   GET  /reader/api/0/stream/contents[/<stream>], stream/items/ids, POST stream/items/contents
//   POST /reader/api/0/edit-tag             read/unread (kept-unread), starred (= the reading list)
//   POST /reader/api/0/mark-all-as-read     a stream, optionally only what is older than ts
//   GET  /reader/atom/<stream>              a stream as Atom with Google Reader's state categories, which
//                                           is how newsboat's "feedhq" source reads it
// Streams: "feed/<blog id>", "user/-/label/<category name>", "user/-/state/com.google/reading-list"
// (everything), ".../starred", ".../read". Items: "tag:google.com,2005:reader/item/<16 hex digits>" or
// the article id in decimal. Requests carry "Authorization: GoogleLogin auth=<token>"; they are never
// cached and never need the site's cookies. docs/reader-api.md has the details.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <charconv>
#include <variant>

#include "core/strings.h"
#include "core/url.h"
#include "pages/filters.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "ui/atom.h"
#include "web/client_address.h"

namespace longread::ui::pages {
namespace {

using nlohmann::json;

constexpr std::string_view kItemPrefix = "tag:google.com,2005:reader/item/";
constexpr std::string_view kStatePrefix = "user/-/state/com.google/";
constexpr std::string_view kLabelPrefix = "user/-/label/";
constexpr int kDefaultCount = 20;
constexpr int kMaxCount = 1000;                    // items per stream/contents page
constexpr int kMaxIds = 10000;                     // ids per stream/items/ids page
constexpr std::size_t kMaxItemsPerRequest = 1000;  // i= values in one edit-tag or items/contents

web::Response plain(int status, std::string body) {
  web::Response res = web::Response::text(status, std::move(body));
  res.set_header("Cache-Control", "private, no-store");
  return res;
}

web::Response json_answer(const json& doc) {
  web::Response res;
  res.status = 200;
  res.content_type = "application/json; charset=utf-8";
  res.body = doc.dump(-1, ' ', false, json::error_handler_t::replace);
  res.set_header("Cache-Control", "private, no-store");
  return res;
}

web::Response unauthorized() {
  web::Response res = plain(401, "Unauthorized\n");
  res.set_header("WWW-Authenticate", "GoogleLogin realm=\"longread\"");
  return res;
}

// The ClientLogin token of "Authorization: GoogleLogin auth=<token>" (nullopt: none given).
std::optional<std::string_view> auth_token(const web::Request& request) {
  const auto header = request.header("Authorization");
  if (!header) return std::nullopt;
  const std::string_view value = trim(*header);
  const std::size_t at = value.find("auth=");
  if (!starts_with_icase(value, "GoogleLogin") || at == std::string_view::npos) return std::nullopt;
  return trim(value.substr(at + 5));
}

struct ApiCaller {
  std::int64_t reader_id = 0;
  std::string token;
};

// The reader a request comes from, or the 401 to answer.
Result<std::optional<ApiCaller>> caller(View& view, const web::Request& request) {
  const auto token = auth_token(request);
  if (!token) return std::optional<ApiCaller>{};
  auto reader = view.accounts().api_reader(*token, view.now());
  if (!reader) return std::unexpected(reader.error());
  if (!*reader) return std::optional<ApiCaller>{};
  return std::optional<ApiCaller>{ApiCaller{.reader_id = **reader, .token = std::string(*token)}};
}

std::string item_id(std::int64_t article_id) {
  return fmt::format("{}{:016x}", kItemPrefix, static_cast<std::uint64_t>(article_id));
}

// An item id in any of its forms, else nullopt.
std::optional<std::int64_t> parse_item_id(std::string_view text) {
  text = trim(text);
  std::uint64_t value = 0;
  int base = 10;
  if (text.starts_with(kItemPrefix)) {
    text.remove_prefix(kItemPrefix.size());
    base = 16;
  }
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc{} || end != text.data() + text.size() || text.empty()) return std::nullopt;
  const auto id = static_cast<std::int64_t>(value);
  if (id <= 0) return std::nullopt;
  return id;
}

// What a stream id names.
struct Stream {
  std::string id{};
  std::optional<std::int64_t> blog_id{};
  std::optional<std::string> category{};  // slug
  bool starred = false;
  std::optional<bool> read{};
};

Result<Stream> parse_stream(View& view, std::string_view id) {
  Stream s{.id = std::string(id)};
  auto not_found = [] { return fail(ErrorKind::kNotFound, "ui: unknown stream", "No such stream."); };
  // "user/<id>/..." for the reader's own streams: "-" or any user id means the caller.
  std::string normalized(id);
  if (id.starts_with("user/")) {
    const std::size_t slash = id.find('/', 5);
    if (slash == std::string_view::npos) return not_found();
    normalized = "user/-" + std::string(id.substr(slash));
  }
  const std::string_view n = normalized;
  if (n.starts_with("feed/")) {
    std::int64_t blog = 0;
    const std::string_view digits = n.substr(5);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), blog);
    if (ec != std::errc{} || end != digits.data() + digits.size() || blog <= 0) return not_found();
    s.blog_id = blog;
  } else if (n.starts_with(kLabelPrefix)) {
    const std::string_view label = n.substr(kLabelPrefix.size());
    auto categories = view.store().categories();
    if (!categories) return std::unexpected(categories.error());
    for (const auto& c : *categories)
      if (view.category_name(c.slug) == label || c.slug == label) s.category = c.slug;
    if (!s.category) return not_found();
  } else if (n == std::string(kStatePrefix) + "reading-list") {
  } else if (n == std::string(kStatePrefix) + "starred") {
    s.starred = true;
  } else if (n == std::string(kStatePrefix) + "read") {
    s.read = true;
  } else {
    return not_found();
  }
  return s;
}

int count_param(const web::Request& request, int max) {
  int n = kDefaultCount;
  if (const auto raw = request.param("n")) {
    const auto [end, ec] = std::from_chars(raw->data(), raw->data() + raw->size(), n);
    if (ec != std::errc{} || end != raw->data() + raw->size()) n = kDefaultCount;
  }
  return std::clamp(n, 1, max);
}

std::optional<TimePoint> seconds_param(const web::Request& request, std::string_view name) {
  const auto raw = request.param(name);
  if (!raw) return std::nullopt;
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(raw->data(), raw->data() + raw->size(), value);
  if (ec != std::errc{} || end != raw->data() + raw->size() || value < 0) return std::nullopt;
  return from_unix(value);
}

// The stream query of a request: the stream itself, then xt/it (exclude or include a state), ot/nt
// (newer or older than, in seconds), r=o (oldest first), c (continuation), n (count).
Result<storage::StreamQuery> stream_query(const web::Request& request, const Stream& stream, int max) {
  storage::StreamQuery q{.blog_id = stream.blog_id,
                         .category = stream.category,
                         .starred_only = stream.starred,
                         .read = stream.read,
                         .limit = count_param(request, max)};
  for (const auto& [name, value] : request.query_params) {
    const bool exclude = name == "xt";
    if (!exclude && name != "it") continue;
    if (value == std::string(kStatePrefix) + "read") q.read = !exclude;
    if (value == std::string(kStatePrefix) + "starred" && !exclude) q.starred_only = true;
  }
  q.newer_than = seconds_param(request, "ot");
  q.older_than = seconds_param(request, "nt");
  q.oldest_first = request.param("r").value_or("") == "o";
  q.after = std::string(request.param("c").value_or(""));
  return q;
}

std::vector<std::string> item_categories(View& view, const storage::StreamItem& item) {
  std::vector<std::string> out{std::string(kStatePrefix) + "reading-list"};
  out.push_back(std::string(kLabelPrefix) + view.category_name(article_category(item.view)));
  if (item.read) out.push_back(std::string(kStatePrefix) + "read");
  if (item.starred) out.push_back(std::string(kStatePrefix) + "starred");
  return out;
}

json item_json(View& view, const storage::StreamItem& item) {
  const model::Article& a = item.view.article;
  const std::string& base = view.options().base_url;
  const std::string link = is_http_url(a.link) ? a.link : base + article_path(a);
  const std::int64_t seconds = to_unix(item.display_at);
  return json{
      {"id", item_id(a.id)},
      {"crawlTimeMsec", std::to_string(to_unix(a.first_seen) * 1000)},
      {"timestampUsec", std::to_string(seconds * 1000000)},
      {"published", seconds},
      {"updated", seconds},
      {"title", a.title.empty() ? "Untitled" : a.title},
      {"canonical", json::array({json{{"href", link}}})},
      {"alternate", json::array({json{{"href", link}, {"type", "text/html"}}})},
      {"categories", item_categories(view, item)},
      {"origin", json{{"streamId", fmt::format("feed/{}", a.blog_id)},
                      {"title", blog_display_name(item.view.blog_title, item.view.blog_site_url)},
                      {"htmlUrl", item.view.blog_site_url}}},
      {"summary", json{{"direction", "ltr"}, {"content", "<p>" + html_escape(a.excerpt) + "</p>"}}},
      {"author", a.author},
  };
}

// The item ids of a form (i=, repeated), each in any form; kInvalidInput for one that is not an id.
Result<std::vector<std::int64_t>> form_items(const web::Fields& form) {
  std::vector<std::int64_t> ids;
  for (const auto& [name, value] : form) {
    if (name != "i") continue;
    if (ids.size() == kMaxItemsPerRequest)
      return fail(ErrorKind::kInvalidInput, "ui: too many items in one request", "Too many items.");
    auto id = parse_item_id(value);
    if (!id) return fail(ErrorKind::kInvalidInput, "ui: malformed item id", "Malformed item id.");
    ids.push_back(*id);
  }
  return ids;
}

// Authenticated and, for a change, carrying the edit token: the caller and the form; else the answer.
struct Change {
  ApiCaller caller;
  web::Fields form;
};
Result<std::variant<Change, web::Response>> change_request(View& view, const web::Request& request) {
  auto who = caller(view, request);
  if (!who) return std::unexpected(who.error());
  if (!*who) return std::variant<Change, web::Response>(unauthorized());
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string_view t = form_value(*form, "T");
  if (!view.accounts().api_edit_token_valid((*who)->token, t)) {
    web::Response res = plain(401, "Unauthorized\n");
    res.set_header("X-Reader-Google-Bad-Token", "true");
    return std::variant<Change, web::Response>(std::move(res));
  }
  return std::variant<Change, web::Response>(Change{.caller = **who, .form = std::move(*form)});
}

// The blogs a stream covers, for mark-all-as-read (nullopt: every blog).
Result<std::vector<std::optional<std::int64_t>>> stream_blogs(View& view, const Stream& stream) {
  if (stream.blog_id) return std::vector<std::optional<std::int64_t>>{stream.blog_id};
  if (!stream.category) return std::vector<std::optional<std::int64_t>>{std::nullopt};
  auto blogs = view.store().blogs();
  if (!blogs) return std::unexpected(blogs.error());
  std::vector<std::optional<std::int64_t>> out;
  for (const auto& b : *blogs)
    if ((b.category.empty() ? "uncategorized" : b.category) == *stream.category) out.push_back(b.id);
  return out;
}

Result<web::Response> stream_contents_of(View& view, const web::Request& request,
                                         std::string_view stream_id) {
  auto who = caller(view, request);
  if (!who) return std::unexpected(who.error());
  if (!*who) return unauthorized();
  auto stream = parse_stream(view, stream_id);
  if (!stream) return std::unexpected(stream.error());
  auto query = stream_query(request, *stream, kMaxCount);
  if (!query) return std::unexpected(query.error());
  auto page = view.store().reader_stream((*who)->reader_id, *query);
  if (!page) return std::unexpected(page.error());
  json items = json::array();
  for (const auto& item : page->items) items.push_back(item_json(view, item));
  json doc{{"id", stream->id}, {"updated", to_unix(view.now())}, {"items", std::move(items)}};
  if (!page->next.empty()) doc["continuation"] = page->next;
  return json_answer(doc);
}

// "/reader/api/0/stream/contents/feed/12" and the like: the stream is the rest of the path.
std::string stream_from_path(const web::Request& request, std::string_view prefix) {
  return request.path.size() > prefix.size() ? request.path.substr(prefix.size()) : std::string();
}

}  // namespace

Result<web::Response> api_client_login(View& view, const web::Request& request, const Params&) {
  // Apps send the form as a POST body; some old ones as query parameters.
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  std::string email(form_value(*form, "Email"));
  std::string password(form_value(*form, "Passwd"));
  if (email.empty()) email = std::string(request.param("Email").value_or(""));
  if (password.empty()) password = std::string(request.param("Passwd").value_or(""));
  auto login = view.accounts().api_log_in(email, password, request.remote_address, view.now());
  if (!login) {
    if (login.error().kind == ErrorKind::kRateLimited) {
      web::Response res = plain(429, "Error=TooManyRequests\n");
      return res;
    }
    if (login.error().kind == ErrorKind::kInvalidInput || login.error().kind == ErrorKind::kForbidden)
      return plain(401, "Error=BadAuthentication\n");
    return std::unexpected(login.error());
  }
  return plain(200, fmt::format("SID={0}\nLSID=null\nAuth={0}\n", login->token));
}

Result<web::Response> api_token(View& view, const web::Request& request, const Params&) {
  auto who = caller(view, request);
  if (!who) return std::unexpected(who.error());
  if (!*who) return unauthorized();
  return plain(200, view.accounts().api_edit_token((*who)->token));
}

Result<web::Response> api_user_info(View& view, const web::Request& request, const Params&) {
  auto who = caller(view, request);
  if (!who) return std::unexpected(who.error());
  if (!*who) return unauthorized();
  const std::string id = std::to_string((*who)->reader_id);
  return json_answer(json{{"userId", id}, {"userName", id}, {"userProfileId", id}});
}

Result<web::Response> api_tag_list(View& view, const web::Request& request, const Params&) {
  auto who = caller(view, request);
  if (!who) return std::unexpected(who.error());
  if (!*who) return unauthorized();
  auto categories = view.store().categories();
  if (!categories) return std::unexpected(categories.error());
  json tags = json::array({json{{"id", std::string(kStatePrefix) + "starred"}}});
  for (const auto& c : *categories)
    tags.push_back(json{{"id", std::string(kLabelPrefix) + view.category_name(c.slug)}, {"type", "folder"}});
  return json_answer(json{{"tags", std::move(tags)}});
}

Result<web::Response> api_subscriptions(View& view, const web::Request& request, const Params&) {
  auto who = caller(view, request);
  if (!who) return std::unexpected(who.error());
  if (!*who) return unauthorized();
  auto blogs = listed_blogs(view);
  if (!blogs) return std::unexpected(blogs.error());
  json subscriptions = json::array();
  for (const auto& b : *blogs) {
    const std::string label = view.category_name(b.category.empty() ? "uncategorized" : b.category);
    subscriptions.push_back(json{
        {"id", fmt::format("feed/{}", b.id)},
        {"title", blog_display_name(b.title, b.site_url)},
        {"categories", json::array({json{{"id", std::string(kLabelPrefix) + label}, {"label", label}}})},
        {"url", b.feed_url},
        {"htmlUrl", b.site_url},
        {"iconUrl", ""},
    });
  }
  return json_answer(json{{"subscriptions", std::move(subscriptions)}});
}

Result<web::Response> api_stream_contents(View& view, const web::Request& request, const Params&) {
  std::string stream = stream_from_path(request, "/reader/api/0/stream/contents/");
  if (stream.empty())
    stream = std::string(request.param("s").value_or(std::string(kStatePrefix) + "reading-list"));
  return stream_contents_of(view, request, stream);
}

Result<web::Response> api_stream_item_ids(View& view, const web::Request& request, const Params&) {
  auto who = caller(view, request);
  if (!who) return std::unexpected(who.error());
  if (!*who) return unauthorized();
  auto stream = parse_stream(view, request.param("s").value_or(std::string(kStatePrefix) + "reading-list"));
  if (!stream) return std::unexpected(stream.error());
  auto query = stream_query(request, *stream, kMaxIds);
  if (!query) return std::unexpected(query.error());
  auto page = view.store().reader_stream((*who)->reader_id, *query);
  if (!page) return std::unexpected(page.error());
  json refs = json::array();
  for (const auto& item : page->items) {
    refs.push_back(json{{"id", std::to_string(item.view.article.id)},
                        {"directStreamIds", json::array()},
                        {"timestampUsec", std::to_string(to_unix(item.display_at) * 1000000)}});
  }
  json doc{{"itemRefs", std::move(refs)}};
  if (!page->next.empty()) doc["continuation"] = page->next;
  return json_answer(doc);
}

Result<web::Response> api_stream_items_contents(View& view, const web::Request& request, const Params&) {
  auto who = caller(view, request);
  if (!who) return std::unexpected(who.error());
  if (!*who) return unauthorized();
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  auto ids = form_items(*form);
  if (!ids) return std::unexpected(ids.error());
  auto items = view.store().reader_items((*who)->reader_id, *ids);
  if (!items) return std::unexpected(items.error());
  json out = json::array();
  for (const auto& item : *items) out.push_back(item_json(view, item));
  return json_answer(json{{"id", std::string(kStatePrefix) + "reading-list"}, {"items", std::move(out)}});
}

Result<web::Response> api_edit_tag(View& view, const web::Request& request, const Params&) {
  auto checked = change_request(view, request);
  if (!checked) return std::unexpected(checked.error());
  if (auto* answer = std::get_if<web::Response>(&*checked)) return std::move(*answer);
  auto& change = std::get<Change>(*checked);
  auto ids = form_items(change.form);
  if (!ids) return std::unexpected(ids.error());
  const std::string read = std::string(kStatePrefix) + "read";
  const std::string kept_unread = std::string(kStatePrefix) + "kept-unread";
  const std::string starred = std::string(kStatePrefix) + "starred";
  const std::int64_t reader = change.caller.reader_id;
  for (const auto& [name, tag] : change.form) {
    if (name != "a" && name != "r") continue;
    const bool add = name == "a";
    if (tag == read || tag == kept_unread) {
      const bool mark_read = tag == read ? add : !add;
      if (auto ok = set_read_everywhere(view, reader, *ids, mark_read); !ok)
        return std::unexpected(ok.error());
    } else if (tag == starred) {
      for (const std::int64_t id : *ids) {
        auto ok = view.store().set_saved(reader, id, add, view.now());
        // An article gone from the site cannot be starred; the others still are.
        if (!ok && ok.error().kind != ErrorKind::kNotFound) return std::unexpected(ok.error());
      }
    }
    // Other tags (broadcast, user labels) are not kept here: accepted and ignored, as FreshRSS does.
  }
  return plain(200, "OK");
}

Result<web::Response> api_mark_all_read(View& view, const web::Request& request, const Params&) {
  auto checked = change_request(view, request);
  if (!checked) return std::unexpected(checked.error());
  if (auto* answer = std::get_if<web::Response>(&*checked)) return std::move(*answer);
  auto& change = std::get<Change>(*checked);
  auto stream = parse_stream(view, form_value(change.form, "s"));
  if (!stream) return std::unexpected(stream.error());
  // ts: microseconds; only what is older is marked (what arrived since the app looked stays unread).
  TimePoint before = view.now() + std::chrono::seconds(1);
  if (const std::string_view ts = form_value(change.form, "ts"); !ts.empty()) {
    std::int64_t usec = 0;
    const auto [end, ec] = std::from_chars(ts.data(), ts.data() + ts.size(), usec);
    if (ec != std::errc{} || end != ts.data() + ts.size() || usec < 0)
      return fail(ErrorKind::kInvalidInput, "ui: malformed ts", "Malformed ts.");
    before = std::min(before, from_unix(usec / 1000000));
  }
  auto blogs = stream_blogs(view, *stream);
  if (!blogs) return std::unexpected(blogs.error());
  for (const auto& blog : *blogs) {
    if (auto ok = view.store().mark_stream_read(change.caller.reader_id, blog, before, view.now()); !ok)
      return std::unexpected(ok.error());
  }
  return plain(200, "OK");
}

// newsboat's "feedhq" source reads each subscription as Atom: entries whose ids are item ids, with
// Google Reader's state categories ("fresh" for unread, "read", "starred").
Result<web::Response> api_atom(View& view, const web::Request& request, const Params&) {
  auto who = caller(view, request);
  if (!who) return std::unexpected(who.error());
  if (!*who) return unauthorized();
  const std::string stream_id = stream_from_path(request, "/reader/atom/");
  auto stream = parse_stream(view, stream_id);
  if (!stream) return std::unexpected(stream.error());
  auto query = stream_query(request, *stream, kMaxCount);
  if (!query) return std::unexpected(query.error());
  auto page = view.store().reader_stream((*who)->reader_id, *query);
  if (!page) return std::unexpected(page.error());
  const std::string& base = view.options().base_url;
  AtomFeed feed;
  feed.id = "tag:google.com,2005:reader/" + stream_id;
  feed.title = stream_id;
  if (stream->blog_id) {
    auto blog = view.store().blog(*stream->blog_id);
    if (!blog) return std::unexpected(blog.error());
    if (!*blog) return fail(ErrorKind::kNotFound, "ui: no such blog", "No such stream.");
    feed.title = blog_display_name((*blog)->title, (*blog)->site_url);
    feed.alternate = (*blog)->site_url;
  } else if (stream->category) {
    feed.title = view.category_name(*stream->category);
  }
  if (feed.alternate.empty()) feed.alternate = base + "/";
  feed.author = view.options().site_name;
  feed.self = base + request.target;
  feed.updated = page->items.empty() ? view.now() : page->items.front().display_at;
  constexpr const char* kScheme = "http://www.google.com/reader/";
  for (const auto& item : page->items) {
    const model::Article& a = item.view.article;
    AtomEntry entry{.id = item_id(a.id),
                    .title = a.title.empty() ? "Untitled" : a.title,
                    .link = is_http_url(a.link) ? a.link : base + article_path(a),
                    .related = base + article_path(a),
                    .author = blog_display_name(item.view.blog_title, item.view.blog_site_url),
                    .category = article_category(item.view),
                    .summary = a.excerpt,
                    .published = item.display_at};
    entry.categories.push_back({std::string(kStatePrefix) + "reading-list", kScheme, "reading-list"});
    entry.categories.push_back(item.read
                                   ? AtomCategory{std::string(kStatePrefix) + "read", kScheme, "read"}
                                   : AtomCategory{std::string(kStatePrefix) + "fresh", kScheme, "fresh"});
    if (item.starred) entry.categories.push_back({std::string(kStatePrefix) + "starred", kScheme, "starred"});
    feed.entries.push_back(std::move(entry));
  }
  web::Response res;
  res.status = 200;
  res.content_type = "application/atom+xml; charset=utf-8";
  res.body = atom_document(feed);
  if (res.body.empty()) return fail(ErrorKind::kInternal, "ui: libxml2 could not write the feed");
  res.set_header("Cache-Control", "private, no-store");
  return res;
}

}  // namespace longread::ui::pages
