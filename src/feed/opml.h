// OPML 1.0/2.0 subscription lists (http://opml.org/spec2.opml): import and export of the blogs we follow.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace longread::feed {

// One subscription of an OPML list: a feed outline and the category it is filed under.
struct OpmlBlog {
  std::string feed_url, site_url, title, category;
  bool short_form = false;  // `longread:shortForm="true"`: short posts are this blog's normal form
  // `longread:paused="true"` / `"false"`: the operator paused the blog (not polled). Unset when the outline
  // does not say, so an import can keep what the database has.
  std::optional<bool> paused{};
  // `longread:allowHosts="a.example b.example"`: hosts the blog's full-text pages may also come from
  // (`blogs edit --allow-host`). Unset when the outline does not say, so an import keeps what is stored.
  std::optional<std::vector<std::string>> allowed_hosts{};
  // `longread:retired="no post in 12 months"`: the operator retired the blog (docs/operating.md, "Blog
  // lifecycle"), with the reason. Unset when the outline does not say, so an import keeps what is stored.
  std::optional<std::string> retired{};
};

// Reads every outline with an xmlUrl, at any depth. Its category is the title/text of the top-level
// outline enclosing it, else the first path component of its OPML 2.0 `category` attribute.
// Errors (kInvalidInput): "opml: empty document", "opml: not an OPML document", "opml: XML error ...".
[[nodiscard]] Result<std::vector<OpmlBlog>> parse_opml(std::string_view bytes);

// OPML 2.0 with one outline per category holding its blogs (uncategorised blogs at the top level);
// round-trips with parse_opml.
std::string write_opml(const std::vector<OpmlBlog>& blogs, std::string_view title);

}  // namespace longread::feed
