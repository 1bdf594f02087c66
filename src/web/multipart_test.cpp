// multipart/form-data: the bodies browsers send for a form with a file input (RFC 7578), and what a
// malformed one gets. The site's tests also post real uploads with libcurl (ui_reading_list_test).
#include "web/multipart.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace longread::web {
namespace {

using ::testing::HasSubstr;

TEST(Multipart, BoundaryComesFromTheContentType) {
  EXPECT_EQ(multipart_boundary("multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxk"),
            "----WebKitFormBoundary7MA4YWxk");
  EXPECT_EQ(multipart_boundary("Multipart/Form-Data;boundary=\"a b;c\""), "a b;c");
  EXPECT_EQ(multipart_boundary("multipart/form-data; charset=utf-8; boundary=xyz"), "xyz");
  EXPECT_FALSE(multipart_boundary("application/x-www-form-urlencoded"));
  EXPECT_FALSE(multipart_boundary("multipart/form-data"));
  EXPECT_FALSE(multipart_boundary("multipart/form-data; boundary="));
  EXPECT_FALSE(multipart_boundary("multipart/form-data; boundary=" + std::string(71, 'x')));
  EXPECT_FALSE(multipart_boundary("multipart/mixed; boundary=xyz"));
}

TEST(Multipart, ReadsFieldsAndAFileAsABrowserSendsThem) {
  const std::string body =
      "ignored preamble\r\n"
      "--XyZ\r\n"
      "Content-Disposition: form-data; name=\"csrf\"\r\n"
      "\r\n"
      "token-123\r\n"
      "--XyZ\r\n"
      "Content-Disposition: form-data; name=\"file\"; filename=\"ril_export.html\"\r\n"
      "Content-Type: text/html\r\n"
      "\r\n"
      "<ul>\r\n<li>line --XyZ inside a line</li>\r\n\r\n</ul>\r\n"
      "--XyZ\r\n"
      "Content-Disposition: form-data; name=\"empty\"; filename=\"\"\r\n"
      "Content-Type: application/octet-stream\r\n"
      "\r\n"
      "\r\n"
      "--XyZ--\r\n"
      "epilogue";
  auto parts = parse_multipart(body, "XyZ");
  ASSERT_TRUE(parts) << parts.error().message;
  ASSERT_EQ(parts->size(), 3u);
  EXPECT_EQ((*parts)[0].name, "csrf");
  EXPECT_EQ((*parts)[0].value, "token-123");
  EXPECT_FALSE((*parts)[0].filename);
  EXPECT_EQ((*parts)[1].name, "file");
  EXPECT_EQ((*parts)[1].filename, "ril_export.html");
  EXPECT_EQ((*parts)[1].content_type, "text/html");
  // RFC 2046 5.1.1: the boundary never follows a line end inside a part, so anywhere else it is content.
  EXPECT_EQ((*parts)[1].value, "<ul>\r\n<li>line --XyZ inside a line</li>\r\n\r\n</ul>");
  EXPECT_EQ((*parts)[2].filename, "");
  EXPECT_EQ((*parts)[2].value, "");
}

// What each malformed body gets: an error, never a crash or a read past the end.
TEST(Multipart, MalformedBodiesAreRefused) {
  auto error = [](std::string_view body, std::size_t max_parts = 64) {
    auto r = parse_multipart(body, "b", max_parts);
    EXPECT_FALSE(r) << body;
    return r ? std::string() : r.error().message;
  };
  EXPECT_THAT(error(""), HasSubstr("no boundary"));
  EXPECT_THAT(error("no delimiter at all"), HasSubstr("no boundary"));
  EXPECT_THAT(error("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue"), HasSubstr("closing"));
  EXPECT_THAT(error("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--b"),
              HasSubstr("line end"));
  EXPECT_THAT(error("--b\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nv\r\n--b--"),
              HasSubstr("not form-data"));
  EXPECT_THAT(error("--b\r\nContent-Disposition: form-data\r\n\r\nv\r\n--b--"), HasSubstr("no name"));
  EXPECT_THAT(error("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n--b--"), HasSubstr("headers"));
  std::string many;
  for (int i = 0; i < 5; ++i) many += "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nv\r\n";
  many += "--b--";
  EXPECT_THAT(error(many, 4), HasSubstr("too many parts"));
  EXPECT_TRUE(parse_multipart(many, "b", 5));
  // A quoted name may hold a quote and a semicolon.
  auto quoted =
      parse_multipart("--b\r\nContent-Disposition: form-data; name=\"a\\\"; b\"\r\n\r\nv\r\n--b--", "b");
  ASSERT_TRUE(quoted);
  EXPECT_EQ(quoted->front().name, "a\"; b");
}

}  // namespace
}  // namespace longread::web
