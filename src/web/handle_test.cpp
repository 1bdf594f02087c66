#include "web/handle.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "web/gzip.h"

namespace longread::web {
namespace {

Response error_page(int status, std::string_view message) {
  return Response::text(status, "error page: " + std::string(message));
}

Request get(std::string target, Fields headers = {}) {
  return *Request::from_target("GET", std::move(target), std::move(headers));
}

const std::string kLongText(2000, 'a');

App page_app() {
  return [](const Request& req) -> Result<Response> {
    if (req.path == "/missing") return fail(ErrorKind::kNotFound, "store: no article 9", "No such article.");
    if (req.path == "/bad") return fail(ErrorKind::kInvalidInput, "ui: page=x", "Bad page number.");
    if (req.path == "/db") return fail(ErrorKind::kStorage, "store: SQLITE_CORRUPT at /secret/path.db");
    if (req.path == "/throw") throw std::runtime_error("secret internals");
    Response res = Response::text(200, kLongText, "text/html; charset=utf-8");
    res.set_header("ETag", "\"abc\"");
    res.set_header("Cache-Control", "no-cache");
    return res;
  };
}

TEST(StatusTest, MapsEveryUserFacingKind) {
  EXPECT_EQ(status_for(ErrorKind::kNotFound), 404);
  EXPECT_EQ(status_for(ErrorKind::kInvalidInput), 400);
  EXPECT_EQ(status_for(ErrorKind::kUnauthorized), 401);
  EXPECT_EQ(status_for(ErrorKind::kForbidden), 403);
  EXPECT_EQ(status_for(ErrorKind::kRateLimited), 429);
  EXPECT_EQ(status_for(ErrorKind::kStorage), 500);
  EXPECT_EQ(status_for(ErrorKind::kInternal), 500);
  EXPECT_EQ(status_for(ErrorKind::kNetwork), 500);
}

TEST(HandleRequestTest, ErrorsBecomeErrorPagesWithoutInternals) {
  const App app = page_app();
  auto res = handle_request(app, error_page, get("/missing"));
  EXPECT_EQ(res.status, 404);
  EXPECT_EQ(res.payload(), "error page: No such article.");
  res = handle_request(app, error_page, get("/bad"));
  EXPECT_EQ(res.status, 400);
  res = handle_request(app, error_page, get("/db"));
  EXPECT_EQ(res.status, 500);
  EXPECT_EQ(res.payload().find("secret"), std::string_view::npos);
  res = handle_request(app, error_page, get("/throw"));
  EXPECT_EQ(res.status, 500);
  EXPECT_EQ(res.payload().find("secret"), std::string_view::npos);
}

TEST(HandleRequestTest, IfNoneMatchGives304WithValidators) {
  const App app = page_app();
  auto res = handle_request(app, error_page, get("/", {{"If-None-Match", "\"zzz\", W/\"abc\""}}));
  EXPECT_EQ(res.status, 304);
  EXPECT_TRUE(res.payload().empty());
  EXPECT_EQ(res.header("etag"), "\"abc\"");
  EXPECT_EQ(res.header("cache-control"), "no-cache");

  res = handle_request(app, error_page, get("/", {{"If-None-Match", "\"other\""}}));
  EXPECT_EQ(res.status, 200);
  EXPECT_EQ(res.payload(), kLongText);
}

TEST(HandleRequestTest, GzipWhenAcceptedWithDistinctEtag) {
  const App app = page_app();
  auto res = handle_request(app, error_page, get("/", {{"Accept-Encoding", "br, gzip;q=0.8"}}));
  EXPECT_EQ(res.status, 200);
  EXPECT_EQ(res.header("content-encoding"), "gzip");
  EXPECT_EQ(res.header("vary"), "Accept-Encoding");
  EXPECT_EQ(res.header("etag"), "\"abc-gz\"");
  auto plain = gzip_decompress(res.payload());
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(*plain, kLongText);
  EXPECT_LT(res.payload().size(), kLongText.size());

  // The gzip variant's validator revalidates only the gzip variant.
  res = handle_request(app, error_page,
                       get("/", {{"Accept-Encoding", "gzip"}, {"If-None-Match", "\"abc-gz\""}}));
  EXPECT_EQ(res.status, 304);
  res = handle_request(app, error_page, get("/", {{"If-None-Match", "\"abc-gz\""}}));
  EXPECT_EQ(res.status, 200);

  res = handle_request(app, error_page, get("/", {{"Accept-Encoding", "gzip;q=0, identity"}}));
  EXPECT_FALSE(res.header("content-encoding").has_value());
  EXPECT_EQ(res.payload(), kLongText);
}

TEST(AcceptEncodingTest, FollowsQvalues) {
  EXPECT_TRUE(accepts_gzip("gzip"));
  EXPECT_TRUE(accepts_gzip("deflate, GZIP;q=0.5"));
  EXPECT_TRUE(accepts_gzip("*"));
  EXPECT_FALSE(accepts_gzip(""));
  EXPECT_FALSE(accepts_gzip("gzip;q=0"));
  EXPECT_FALSE(accepts_gzip("br, identity"));
  EXPECT_FALSE(accepts_gzip("*, gzip;q=0"));
}

TEST(EtagTest, WeakComparison) {
  EXPECT_TRUE(etag_matches("\"a\"", "\"a\""));
  EXPECT_TRUE(etag_matches("W/\"a\"", "\"a\""));
  EXPECT_TRUE(etag_matches("\"x\" , \"a\"", "\"a\""));
  EXPECT_TRUE(etag_matches("*", "\"a\""));
  EXPECT_FALSE(etag_matches("\"b\"", "\"a\""));
  EXPECT_FALSE(etag_matches("\"a\"", ""));
}

TEST(GzipTest, RoundTripAndCorruption) {
  const std::string text = "hello hello hello hello";
  auto compressed = gzip_compress(text);
  ASSERT_TRUE(compressed.has_value());
  EXPECT_EQ(static_cast<unsigned char>((*compressed)[0]), 0x1f);  // gzip magic (RFC 1952 section 2.3.1)
  EXPECT_EQ(gzip_decompress(*compressed).value(), text);
  EXPECT_FALSE(gzip_decompress("not gzip at all").has_value());
  EXPECT_FALSE(gzip_decompress(compressed->substr(0, compressed->size() / 2)).has_value());
}

}  // namespace
}  // namespace longread::web
