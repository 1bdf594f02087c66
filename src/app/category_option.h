// The operator's `--category SLUG` of `blogs add` and `blogs edit`: one rule for both.
#pragma once

#include <string_view>

#include "storage/roles/article_store.h"

namespace longread::app {

// A category slug as the site's URLs use it: lower-case ASCII letters and digits joined by single dashes.
[[nodiscard]] bool is_category_slug(std::string_view s);

// Checks `slug` for `command` ("blogs add"): false after printing why when it is not a slug (with the
// existing categories and a suggestion) or the store cannot list categories. Categories are open (an OPML
// import creates any it names), but a slug ends up in the site's URLs and a typo would quietly start a
// category of one blog, so a new one gets a note naming those that exist.
[[nodiscard]] bool check_category_option(storage::ArticleStore& store, std::string_view command,
                                         std::string_view slug);

}  // namespace longread::app
