// The routes table type: maps (method, path pattern) to a handler. Patterns are literal segments and
// `{name}` placeholders that match exactly one non-empty segment: "/blog/{id}/read/{article}".
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "web/http.h"

namespace longread::web {

// Values captured by `{name}` placeholders of the matched pattern.
class RouteParams {
 public:
  void add(std::string name, std::string value) { values_.emplace_back(std::move(name), std::move(value)); }
  [[nodiscard]] std::string_view get(std::string_view name) const;

 private:
  std::vector<std::pair<std::string, std::string>> values_;
};

using RouteHandler = std::function<Result<Response>(const Request&, const RouteParams&)>;

// Dispatches a request to the first route whose pattern and method match. An unknown path is kNotFound; a
// known path with another method is a 405 response listing the allowed methods (RFC 9110 section 15.5.6).
class Router {
 public:
  void add(std::string method, std::string_view pattern, RouteHandler handler);
  [[nodiscard]] Result<Response> dispatch(const Request& request) const;
  // The pattern of the first route whose path matches, whatever its method ("/blog/{id}"), or "" when none
  // does: a label for metrics that a client cannot multiply by inventing paths.
  [[nodiscard]] std::string_view pattern_of(std::string_view path) const;
  // Every route as (method, pattern), in the order added: lets tests walk the whole table (a route added
  // later is covered without editing the test).
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> routes() const;

 private:
  struct Route {
    std::string method;
    std::string pattern;
    std::vector<std::string> segments;  // "{name}" marks a placeholder
    RouteHandler handler;
  };
  static bool match(const Route& route, const std::vector<std::string_view>& segments, RouteParams& params);
  std::vector<Route> routes_;
};

}  // namespace longread::web
