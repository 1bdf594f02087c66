#include "app/category_option.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/store_setup.h"
#include "core/strings.h"

namespace longread::app {
namespace {

std::string category_list(storage::ArticleStore& store) {
  auto categories = store.categories();
  if (!categories || categories->empty()) return "none yet";
  std::vector<std::string> slugs;
  for (const auto& c : *categories) slugs.push_back(c.slug);
  std::sort(slugs.begin(), slugs.end());
  std::string out;
  for (const auto& s : slugs) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

bool is_category_slug(std::string_view s) {
  return !s.empty() && slugify(s, s.size() + 1) == s;
}

bool check_category_option(storage::ArticleStore& store, std::string_view command, std::string_view slug) {
  if (!is_category_slug(slug)) {
    fmt::print(stderr,
               "longread: {}: category \"{}\" is not a slug (lower-case letters, digits and dashes, like "
               "\"{}\"); existing categories: {}\n",
               command, slug, slugify(slug), category_list(store));
    return false;
  }
  auto categories = store.categories();
  if (!categories) {
    report_failure(categories.error());
    return false;
  }
  const bool known = std::any_of(categories->begin(), categories->end(),
                                 [&](const model::Category& c) { return c.slug == slug; });
  if (!known)
    fmt::print(stderr, "longread: note: \"{}\" is a new category (existing: {})\n", slug,
               category_list(store));
  return true;
}

}  // namespace longread::app
