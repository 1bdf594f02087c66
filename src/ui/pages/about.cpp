// "/about" — what the site is and how it chooses what to show.
#include "pages/pages.h"
#include "ui/format.h"

namespace longread::ui::pages {

Result<web::Response> about(View& view, const web::Request&, const Params&) {
  auto blogs = view.store().blog_count();
  if (!blogs) return std::unexpected(blogs.error());
  const std::string& name = view.options().site_name;
  Page out;
  out.title = "About";
  out.description = "What " + name + " is and how it picks articles.";
  out.path = "/about";
  out.nav = "about";
  out.body = html(
      "<div class=\"about\">\n<h1 class=\"page-title\">About {}</h1>\n"
      "<p>{} follows {} personal blogs and collects their long-form writing in one calm place. Every hour it "
      "reads each blog's feed, keeps the articles worth a sit-down read, sets aside link posts and other "
      "short notes, and files each article under a category.</p>\n"
      "<p>Each page shows an excerpt; <em>Read now</em> takes you to the original on the author's own site. "
      "Nothing from a feed is shown as markup: excerpts are plain text.</p>\n"
      "<h2>Keyboard</h2>\n<p>Press <kbd>alt</kbd>+<kbd>shift</kbd>+<kbd>k</kbd> for the list of shortcuts: "
      "<kbd>j</kbd>/<kbd>k</kbd> move through a list, <kbd>o</kbd> opens the original, <kbd>/</kbd> "
      "searches.</p>\n"
      "</div>\n",
      text(name), text(name), text(std::to_string(*blogs)));
  return view.render(out);
}

}  // namespace longread::ui::pages
