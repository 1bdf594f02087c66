// Harness: what the web layer makes of a raw request before any page sees it: Request::from_target (path
// and query decoding, Cookie header parsing), the router's path matching, the form body decoding of
// ui/pages/forms.h, and the checks on what readers type (accounts/validate.h, ui::safe_next). Input fields
// separated by '\n': target, Cookie header, Content-Type, then the body. Checks: decoded path, parameters
// and form fields are valid UTF-8 without NUL; "next" redirects stay on the site; a normalised email is an
// addr-spec within RFC 5321's length that normalises to itself.
#include <algorithm>
#include <string>

#include "accounts/validate.h"
#include "core/strings.h"
#include "fuzz/fuzz_support.h"
#include "ui/pages/forms.h"
#include "ui/view.h"
#include "web/http.h"
#include "web/router.h"

namespace longread::fuzz {
namespace {

void check_decoded(std::string_view s) {
  require(is_valid_utf8(s));
  require(s.find('\0') == std::string_view::npos);
}

void check_fields(const web::Fields& fields) {
  for (const auto& [name, value] : fields) {
    check_decoded(name);
    check_decoded(value);
  }
}

// What a browser makes of a Location value before resolving it (WHATWG URL Standard, basic URL parser):
// leading and trailing C0 controls and spaces stripped, then every tab, CR and LF removed.
std::string as_browser_reads(std::string_view location) {
  std::string out;
  for (const char c : location) {
    if (c != '\t' && c != '\r' && c != '\n') out.push_back(c);
  }
  const auto edge = [](char c) { return static_cast<unsigned char>(c) <= 0x20; };
  while (!out.empty() && edge(out.back())) out.pop_back();
  std::size_t lead = 0;
  while (lead < out.size() && edge(out[lead])) ++lead;
  return out.substr(lead);
}

bool is_local_path(std::string_view path) {
  return path.starts_with('/') && (path.size() == 1 || path[1] != '/') &&
         path.find('\\') == std::string_view::npos;
}

// A local redirect target as the browser will read it: exactly one leading "/", never "//host", and no
// backslash anywhere (browsers read "\" as "/" in http URLs, so "/\host" is another host); no control
// character left in the header. And the other way round: a raw value that is such a path once tab, CR
// and LF are gone (and has no other control character) is kept, not replaced by "/".
void check_next(std::string_view raw) {
  const std::string next = ui::safe_next(raw);
  require(is_local_path(next));
  require(is_local_path(as_browser_reads(next)));
  for (const char c : next) require(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f);
  std::string stripped;
  bool controls = false;
  for (const char c : raw) {
    if (c == '\t' || c == '\r' || c == '\n') continue;
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) controls = true;
    stripped.push_back(c);
  }
  if (!controls && stripped.size() <= 2000 && is_local_path(stripped)) require(next == stripped);
}

void check_email(std::string_view raw) {
  auto email = accounts::normalize_email(raw);
  if (!email) {
    require(email.error().kind == ErrorKind::kInvalidInput);
    return;
  }
  require(!email->empty() && email->size() <= accounts::kMaxEmailLength);
  require(std::count(email->begin(), email->end(), '@') == 1);
  require(email->find_first_of(" \t\r\n<>\"\\") == std::string::npos);
  const auto again = accounts::normalize_email(*email);
  require(again.has_value() && *again == *email);
}

web::Router make_router() {
  web::Router router;
  const auto ok = [](const web::Request&, const web::RouteParams& params) -> Result<web::Response> {
    for (const auto name : {"id", "article", "slug"}) require(is_valid_utf8(params.get(name)));
    return web::Response::text(200, "ok");
  };
  router.add("GET", "/", ok);
  router.add("GET", "/blog/{id}", ok);
  router.add("GET", "/blog/{id}/read/{article}", ok);
  router.add("POST", "/articles/{id}/vote", ok);
  router.add("GET", "/category/{slug}", ok);
  return router;
}

}  // namespace

int web_request_harness(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  std::string target(in.field());
  const std::string_view cookie = in.field();
  const std::string_view content_type = in.field();
  std::string body(in.rest());

  web::Fields headers{{"Cookie", std::string(cookie)}, {"Accept", "application/json"}};
  if (!content_type.empty()) headers.emplace_back("Content-Type", std::string(content_type));
  auto request = web::Request::from_target("POST", std::move(target), std::move(headers), std::move(body));
  if (!request) {
    require(request.error().kind == ErrorKind::kInvalidInput);
    return 0;
  }
  check_decoded(request->path);
  require(request->query.find('#') == std::string::npos);
  check_fields(request->query_params);
  for (const auto& [name, value] : request->cookies) {
    require(!name.empty());
    require(name.find(';') == std::string::npos && value.find(';') == std::string::npos);
  }

  auto response = make_router().dispatch(*request);
  if (!response) require(response.error().kind == ErrorKind::kNotFound);

  (void)ui::page_number(*request);
  (void)ui::pages::route_id(request->path, "fuzz");
  if (const auto next = request->param("next")) check_next(*next);
  check_next(request->path);

  auto form = ui::pages::parse_form(*request);
  if (!form) return 0;
  check_fields(*form);
  check_next(ui::pages::form_value(*form, "next"));
  check_email(ui::pages::form_value(*form, "email"));
  (void)accounts::check_password(ui::pages::form_value(*form, "password"));
  return 0;
}

}  // namespace longread::fuzz

LONGREAD_FUZZ_ENTRY(longread::fuzz::web_request_harness)
