#include "web/http.h"

#include <gtest/gtest.h>

#include "web/router.h"

namespace longread::web {
namespace {

TEST(RequestTest, SplitsTargetIntoDecodedPathAndParams) {
  auto req = Request::from_target("GET", "/search%20x?q=lock+free%21&page=2&empty=&flag",
                                  {{"Cookie", "theme=dark; sid=\"abc\""}, {"Accept", "*/*"}});
  ASSERT_TRUE(req.has_value());
  EXPECT_EQ(req->path, "/search x");
  EXPECT_EQ(req->query, "q=lock+free%21&page=2&empty=&flag");
  EXPECT_EQ(req->param("q"), "lock free!");
  EXPECT_EQ(req->param("page"), "2");
  EXPECT_EQ(req->param("empty"), "");
  EXPECT_EQ(req->param("flag"), "");
  EXPECT_FALSE(req->param("missing").has_value());
  EXPECT_EQ(req->header("accept"), "*/*");
  EXPECT_EQ(req->cookie("theme"), "dark");
  EXPECT_EQ(req->cookie("sid"), "abc");
}

TEST(RequestTest, RejectsNonOriginForm) {
  EXPECT_FALSE(Request::from_target("GET", "http://example.com/").has_value());
  EXPECT_FALSE(Request::from_target("GET", "*").has_value());
  EXPECT_FALSE(Request::from_target("GET", "").has_value());
  // NUL and control characters never reach a handler.
  EXPECT_EQ(Request::from_target("GET", "/a%00b%07").value().path, "/ab");
}

TEST(RequestTest, InvalidUtf8InParamsIsReplaced) {
  auto req = Request::from_target("GET", "/s?q=%FF%FEx");
  ASSERT_TRUE(req.has_value());
  EXPECT_EQ(req->param("q"), "\xEF\xBF\xBD\xEF\xBF\xBDx");
}

TEST(UrlEncodeTest, RoundTrips) {
  EXPECT_EQ(url_encode("a b&c/d"), "a%20b%26c%2Fd");
  EXPECT_EQ(url_decode(url_encode("größe & 1+1"), false), "größe & 1+1");
}

TEST(RouterTest, MatchesPlaceholdersAndMethods) {
  Router router;
  router.add("GET", "/", [](const Request&, const RouteParams&) -> Result<Response> {
    return Response::text(200, "home");
  });
  router.add("GET", "/blog/{id}/read/{article}",
             [](const Request&, const RouteParams& p) -> Result<Response> {
               return Response::text(200, std::string(p.get("id")) + "|" + std::string(p.get("article")));
             });
  router.add("POST", "/newsletter", [](const Request&, const RouteParams&) -> Result<Response> {
    return Response::text(201, "ok");
  });

  auto get = [&](std::string method, std::string target) {
    return router.dispatch(*Request::from_target(std::move(method), std::move(target)));
  };
  EXPECT_EQ(get("GET", "/")->body, "home");
  EXPECT_EQ(get("HEAD", "/")->body, "home");
  EXPECT_EQ(get("GET", "/blog/3/read/42-slug")->body, "3|42-slug");
  EXPECT_EQ(get("POST", "/newsletter")->status, 201);

  auto wrong_method = get("GET", "/newsletter");
  ASSERT_TRUE(wrong_method.has_value());
  EXPECT_EQ(wrong_method->status, 405);
  EXPECT_EQ(wrong_method->header("allow"), "POST");

  for (const char* missing : {"/nope", "/blog/3/read", "/blog/3/read/", "/blog/3/read/4/5", "//"}) {
    auto res = get("GET", missing);
    ASSERT_FALSE(res.has_value()) << missing;
    EXPECT_EQ(res.error().kind, ErrorKind::kNotFound) << missing;
  }
  // The label metrics use: the pattern, whatever the method, and nothing for an unknown path.
  EXPECT_EQ(router.pattern_of("/blog/3/read/42-slug"), "/blog/{id}/read/{article}");
  EXPECT_EQ(router.pattern_of("/"), "/");
  EXPECT_EQ(router.pattern_of("/newsletter"), "/newsletter");
  EXPECT_EQ(router.pattern_of("/blog/3/read"), "");
  EXPECT_EQ(router.pattern_of("/nope"), "");
}

}  // namespace
}  // namespace longread::web
