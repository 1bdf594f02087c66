#include "web/router.h"

#include "core/strings.h"

namespace longread::web {
namespace {

// "/a/b/" -> {"a", "b", ""}: a trailing slash is a distinct (empty) segment, so "/about/" is not "/about".
std::vector<std::string_view> path_segments(std::string_view path) {
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  if (path.empty()) return {};
  return split(path, '/');
}

}  // namespace

std::string_view RouteParams::get(std::string_view name) const {
  for (const auto& [key, value] : values_) {
    if (key == name) return value;
  }
  return {};
}

void Router::add(std::string method, std::string_view pattern, RouteHandler handler) {
  Route route{std::move(method), std::string(pattern), {}, std::move(handler)};
  for (const auto segment : path_segments(pattern)) route.segments.emplace_back(segment);
  routes_.push_back(std::move(route));
}

bool Router::match(const Route& route, const std::vector<std::string_view>& segments, RouteParams& params) {
  if (route.segments.size() != segments.size()) return false;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& want = route.segments[i];
    if (want.size() > 2 && want.front() == '{' && want.back() == '}') {
      if (segments[i].empty()) return false;
      params.add(want.substr(1, want.size() - 2), std::string(segments[i]));
    } else if (want != segments[i]) {
      return false;
    }
  }
  return true;
}

std::string_view Router::pattern_of(std::string_view path) const {
  const auto segments = path_segments(path);
  for (const auto& route : routes_) {
    RouteParams params;
    if (match(route, segments, params)) return route.pattern;
  }
  return {};
}

std::vector<std::pair<std::string, std::string>> Router::routes() const {
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(routes_.size());
  for (const auto& route : routes_) out.emplace_back(route.method, route.pattern);
  return out;
}

Result<Response> Router::dispatch(const Request& request) const {
  const auto segments = path_segments(request.path);
  const std::string_view method = request.method == "HEAD" ? std::string_view("GET") : request.method;
  std::string allowed;
  for (const auto& route : routes_) {
    RouteParams params;
    if (!match(route, segments, params)) continue;
    if (route.method == method) return route.handler(request, params);
    if (allowed.find(route.method) == std::string::npos) {
      if (!allowed.empty()) allowed += ", ";
      allowed += route.method;
      if (route.method == "GET") allowed += ", HEAD";
    }
  }
  if (!allowed.empty()) {
    auto res = Response::text(405, "Method not allowed\n");
    res.set_header("Allow", allowed);
    return res;
  }
  return fail(ErrorKind::kNotFound, "web: no route for " + request.path, "Page not found.");
}

}  // namespace longread::web
