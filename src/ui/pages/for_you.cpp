// "/for-you": a logged-in reader's fresh articles ranked by how like they are to what the reader voted for
// and saved (the similar articles stored at crawl time, docs/similar.md), each with its reason: "because you
// saved <title>" and the words they share. Articles the reader muted, read, saved or voted for are left out.
// With too little history, or nothing fresh like it, the page says so and shows Hot (with the reader's
// filters). A visitor is sent to log in.
#include "core/strings.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "ui/format.h"

namespace longread::ui::pages {
namespace {

// Fewer votes and saves than this make no profile worth ranking by.
constexpr std::int64_t kMinSeeds = 3;
// Fresh: dated in the last 30 days.
constexpr auto kFreshFor = std::chrono::hours(24 * 30);
constexpr int kPicks = 30;

Html reason(const storage::ForYouPick& pick) {
  const std::string title =
      trim(pick.because.title).empty() ? "Untitled" : std::string(trim(pick.because.title));
  return html(
      "<p class=\"because\" data-because=\"{}\" data-shared=\"{}\">Because you {} <a "
      "href=\"{}\">{}</a>{}</p>\n",
      number(pick.because.id), attr(pick.shared), text(pick.because_saved ? "saved" : "voted for"),
      attr(article_path(pick.because)), text(title),
      pick.shared.empty() ? Html() : html(" <span class=\"muted\">(shares: {})</span>", text(pick.shared)));
}

}  // namespace

Result<web::Response> for_you(View& view, const web::Request& request, const Params&) {
  if (!view.logged_in()) return login_first(view, request, "/for-you");
  const std::int64_t reader = view.reader()->reader_id;
  auto found = view.store().for_you({.reader_id = reader, .since = view.now() - kFreshFor, .limit = kPicks});
  if (!found) return std::unexpected(found.error());
  Page out;
  out.title = "For you";
  out.description = "Fresh articles like the ones you voted for and saved.";
  out.path = "/for-you";
  out.nav = "for-you";
  if (found->seeds >= kMinSeeds && !found->picks.empty()) {
    std::vector<std::int64_t> ids;
    for (const auto& p : found->picks) ids.push_back(p.article.article.id);
    view.load_marks(ids);
    Html items;
    for (const auto& p : found->picks) items += article_item(view, p.article, {.after_meta = reason(p)});
    out.body = html(
        "<h1 class=\"page-title\">For you</h1>\n<p>Fresh articles like the ones you voted for and "
        "saved, the most alike first.</p>\n<ol class=\"items\">\n{}</ol>\n",
        items);
    return view.render(out);
  }
  auto hot = view.store().hot_page({.page_size = view.options().page_size,
                                    .per_blog_cap = view.options().per_blog_cap,
                                    .reader = view.reader_filter()});
  if (!hot) return std::unexpected(hot.error());
  const Html why =
      found->seeds < kMinSeeds
          ? html(
                "<p class=\"empty\" data-too-little-history>Vote for or save a few articles ({} so far, {} "
                "needed) and this "
                "page will find fresh ones like them. Until then, here is what is hot.</p>\n",
                number(found->seeds), number(kMinSeeds))
          : Html::literal(
                "<p class=\"empty\" data-nothing-fresh>Nothing fresh is like what you voted for and saved "
                "yet. Until there is, here is what is hot.</p>\n");
  out.body = html("<h1 class=\"page-title\">For you</h1>\n{}{}", why, article_list(view, hot->articles, {}));
  return view.render(out);
}

}  // namespace longread::ui::pages
