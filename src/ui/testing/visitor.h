// A visitor of the site in HTTP tests: a client with a cookie jar, as a browser would be.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "web/http.h"
#include "web/testing/client.h"

namespace longread::ui::testing {

using web::testing::ClientResponse;

// A visitor with a cookie jar, as a browser would be. `from` is the loopback address it connects from
// (127.0.0.2, 127.0.0.3, ... stand for other clients); `forwarded_for`, when set, goes out as
// X-Forwarded-For, as a reverse proxy in front of the site would add it.
class Visitor {
 public:
  explicit Visitor(std::uint16_t port, std::string from = "127.0.0.1", std::string forwarded_for = "")
      : port_(port), from_(std::move(from)), forwarded_for_(std::move(forwarded_for)) {}

  ClientResponse get(const std::string& target, web::Fields headers = {}) {
    return send("GET", target, {}, std::move(headers));
  }
  ClientResponse post(const std::string& target, const std::map<std::string, std::string>& form,
                      web::Fields headers = {}) {
    std::string body;
    for (const auto& [name, value] : form) {
      if (!body.empty()) body += '&';
      body += web::url_encode(name) + "=" + web::url_encode(value);
    }
    headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
    return send("POST", target, body, std::move(headers));
  }
  // The CSRF token of the first form on a page.
  static std::string token_in(const std::string& body) {
    std::smatch m;
    if (!std::regex_search(body, m, std::regex("name=\"csrf\" value=\"([^\"]*)\""))) return {};
    return m[1];
  }
  std::string cookie(const std::string& name) const {
    const auto it = jar_.find(name);
    return it == jar_.end() ? std::string() : it->second;
  }
  void set_cookie(const std::string& name, const std::string& value) { jar_[name] = value; }
  std::vector<std::string> last_set_cookies;

 private:
  ClientResponse send(const std::string& method, const std::string& target, std::string body,
                      web::Fields headers) {
    std::string cookies;
    for (const auto& [name, value] : jar_) {
      if (!cookies.empty()) cookies += "; ";
      cookies += name + "=" + value;
    }
    if (!cookies.empty()) headers.emplace_back("Cookie", cookies);
    if (!forwarded_for_.empty()) headers.emplace_back("X-Forwarded-For", forwarded_for_);
    auto client = web::testing::Client::connect(port_, std::chrono::seconds(10), from_);
    EXPECT_TRUE(client.has_value());
    if (!client) return {};
    auto res = client->request(method, target, headers, std::move(body));
    EXPECT_TRUE(res.has_value()) << target;
    if (!res) return {};
    last_set_cookies.clear();
    for (const auto& [name, value] : res->headers) {
      if (!iequals_ascii(name, "set-cookie")) continue;
      last_set_cookies.push_back(value);
      const auto eq = value.find('=');
      const auto semi = value.find(';');
      const std::string cookie_name = value.substr(0, eq);
      const std::string cookie_value = value.substr(eq + 1, semi - eq - 1);
      if (value.find("Max-Age=0") != std::string::npos) {
        jar_.erase(cookie_name);
      } else {
        jar_[cookie_name] = cookie_value;
      }
    }
    return *res;
  }
  static bool iequals_ascii(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
             return std::tolower(static_cast<unsigned char>(x)) ==
                    std::tolower(static_cast<unsigned char>(y));
           });
  }

  std::uint16_t port_;
  std::string from_;
  std::string forwarded_for_;
  std::map<std::string, std::string> jar_;
};

// A visitor who has just signed up through the sign-up form as `email`, and so is logged in.
inline Visitor sign_up(std::uint16_t port, const std::string& email,
                       const std::string& password = "a long passphrase") {
  Visitor v(port);
  auto form = v.get("/signup");
  EXPECT_EQ(form.status, 200);
  auto res = v.post(
      "/signup",
      {{"csrf", Visitor::token_in(form.body)}, {"email", email}, {"password", password}, {"next", "/about"}});
  EXPECT_EQ(res.status, 303) << res.body;
  EXPECT_FALSE(v.cookie("lr_session").empty()) << email;
  return v;
}

}  // namespace longread::ui::testing
