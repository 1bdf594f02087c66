// What the blog-suggestion pages share: the reader's form (/suggest, pages/suggest.cpp), the reader's list on
// the account page, and the admin area's review and "Add a blog" (pages/admin_suggestions.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "storage/store.h"
#include "ui/html.h"
#include "ui/view.h"

namespace longread::ui::pages {

// Longest URL and note a form may carry (bytes): a URL longer than any browser keeps in its address bar
// is not a blog's, and a note is a sentence or two for the operator.
inline constexpr std::size_t kMaxSuggestedUrl = 2000;
inline constexpr std::size_t kMaxSuggestionNote = 1000;
inline constexpr std::size_t kMaxRejectReason = 500;

// A URL typed into a suggestion form, read the way `longread blogs add` reads it (blanks dropped, no scheme
// means https, feed: unwrapped; other schemes refused), and the blog already followed under it, if any:
// as a feed URL (as given or normalized) or as a blog's site URL. kInvalidInput with a sentence to show.
struct SuggestedUrl {
  std::string url;
  std::optional<model::Blog> followed;
};
Result<SuggestedUrl> read_suggested_url(const View& view, std::string_view input);

// Is `category` a slug (lower-case ASCII letters and digits joined by single dashes)?
bool is_category_slug(std::string_view category);

// The status of a suggestion in a few words for people ("Waiting for an operator").
std::string suggestion_status_label(storage::SuggestionStatus status);
// What discovery found or why it did not, and the decision, as a short paragraph.
Html suggestion_outcome(const storage::Suggestion& suggestion);

// The account page's section: the reader's suggestions with their status, and the link to suggest one.
Html reader_suggestions_section(const View& view);

// The "Add a blog" form of /admin/blogs.
Html add_blog_form(const View& view, std::string_view url = {}, std::string_view category = {},
                   std::string_view error = {});

}  // namespace longread::ui::pages
