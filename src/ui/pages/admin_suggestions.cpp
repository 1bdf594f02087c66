// "/admin/suggestions": the blogs readers suggested, and those an operator asked to add from /admin/blogs,
// with what feed discovery found (feed, title, format, newest posts and the junk rules' verdict on each).
// Approve follows the feed with a category, as `longread blogs add` does (Store::upsert_blog: due at once,
// so the next crawl reads it); reject records a reason the reader sees. Both are audited. "Add a blog" is
// an operator's own suggestion, discovered by the same background worker and approved here.
#include <spdlog/spdlog.h>

#include <chrono>
#include <string>
#include <vector>

#include "core/strings.h"
#include "pages/admin.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "pages/suggest.h"
#include "ui/format.h"

namespace longread::ui::pages {
namespace {

using storage::Suggestion;
using storage::SuggestionStatus;

// The inclusion rule's "posted in the last 12 months".
constexpr auto kActiveWithin = std::chrono::hours(24 * 365);
constexpr int kListed = 100;

std::string done_message(std::string_view done) {
  if (done == "approved") return "Approved: the blog is followed and due at once; the next crawl reads it.";
  if (done == "rejected") return "Rejected; the reader sees the reason on their account page.";
  if (done == "adding") return "Looking for its feed in the background: reload this page in a moment.";
  if (done == "decided") return "That suggestion was already decided.";
  return {};
}

std::string suggestion_target(const Suggestion& s) {
  return "suggestion " + std::to_string(s.id) + " " + s.url;
}

Html category_options(const View& view) {
  auto categories = view.store().categories();
  if (!categories) return {};
  Html options;
  for (const auto& c : *categories) options += html("<option value=\"{}\"></option>", attr(c.slug));
  return html("<datalist id=\"category-slugs\">{}</datalist>\n", options);
}

Html posts_table(const Suggestion& s) {
  if (s.posts.empty()) return {};
  Html rows;
  for (const auto& p : s.posts) {
    const Html title = text(p.title.empty() ? std::string("(untitled)") : p.title);
    rows += html("<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                 p.link.empty() ? title : external_link(p.link, title),
                 text(p.published ? ordinal_date(*p.published) : std::string("no date")),
                 p.junk ? html("<span class=\"badge warn\">junk</span> {}", text(p.junk_reason))
                        : Html::literal("kept"));
  }
  return html(
      "<table class=\"admin-table\">\n<caption>Newest posts, judged by the junk rules</caption>\n<thead><tr>"
      "<th scope=\"col\">Post</th><th scope=\"col\">Date</th><th scope=\"col\">Junk rules</th></tr></thead>\n"
      "<tbody>\n{}</tbody>\n</table>\n",
      rows);
}

Html found_details(const View& view, const Suggestion& s) {
  if (s.status != SuggestionStatus::kFound && s.status != SuggestionStatus::kApproved &&
      s.status != SuggestionStatus::kFollowed) {
    return {};
  }
  if (s.feed_url.empty()) return {};
  Html active;
  if (s.newest_post) {
    const bool recent = view.now() - *s.newest_post <= kActiveWithin;
    active = html("newest post {} {}", text(relative_age(*s.newest_post, view.now())),
                  recent ? Html::literal("(within 12 months)")
                         : Html::literal("<span class=\"badge warn\">nothing in 12 months</span>"));
  } else {
    active = Html::literal("<span class=\"badge warn\">no dated posts</span>");
  }
  std::size_t kept = 0;
  for (const auto& p : s.posts) kept += p.junk ? 0 : 1;
  return html(
      "<dt>Feed</dt><dd><code>{}</code> ({}, {})</dd>\n<dt>Site</dt><dd>{}</dd>\n<dt>Posts</dt><dd>{}; {} of "
      "the "
      "newest {} pass the junk rules</dd>\n",
      text(s.feed_url), text(s.format), text(plural(s.entries, "entry", "entries")),
      s.site_url.empty() ? Html::literal("(from the first crawl)")
                         : external_link(s.site_url, text(s.site_url)),
      active, number(static_cast<std::int64_t>(kept)), number(static_cast<std::int64_t>(s.posts.size())));
}

Html actions(const View& view, const Suggestion& s) {
  const std::string base = "/admin/suggestions/" + std::to_string(s.id);
  Html out;
  if (s.status == SuggestionStatus::kFound) {
    const std::string category = s.category.empty() ? std::string("uncategorized") : s.category;
    out += html(
        "<form method=\"post\" action=\"{}/approve\" class=\"inline suggestion-approve\">"
        "<input type=\"hidden\" name=\"csrf\" value=\"{}\">"
        "<label for=\"category-{}\">Category</label> <input id=\"category-{}\" name=\"category\" required "
        "maxlength=\"60\" list=\"category-slugs\" value=\"{}\"> "
        "<button type=\"submit\" class=\"button primary\">Approve and follow</button></form>\n",
        attr(base), attr(view.csrf_token()), number(s.id), number(s.id), attr(category));
  }
  if (!storage::is_closed(s.status)) {
    out += html(
        "<form method=\"post\" action=\"{}/reject\" class=\"inline suggestion-reject\">"
        "<input type=\"hidden\" name=\"csrf\" value=\"{}\">"
        "<label for=\"reason-{}\">Reason</label> <input id=\"reason-{}\" name=\"reason\" required "
        "maxlength=\"{}\" "
        "placeholder=\"not a personal blog\"> "
        "<button type=\"submit\" class=\"button\">Reject</button></form>\n",
        attr(base), attr(view.csrf_token()), number(s.id), number(s.id),
        number(static_cast<std::int64_t>(kMaxRejectReason)));
  }
  return out.empty() ? Html() : html("<div class=\"actions\">{}</div>\n", out);
}

Html suggestion_item(const View& view, const Suggestion& s) {
  const std::string who = s.by_operator            ? "an operator (" + s.reader_email + ")"
                          : s.reader_email.empty() ? std::string("a deleted account")
                                                   : s.reader_email;
  return html(
      "<article class=\"suggestion\" id=\"suggestion-{}\" data-suggestion=\"{}\" data-status=\"{}\">\n"
      "<h2>{} <span class=\"badge\">{}</span></h2>\n<dl>\n<dt>Address given</dt><dd><code>{}</code></dd>\n"
      "<dt>From</dt><dd>{}, {}</dd>\n{}{}{}</dl>\n<p>{}</p>\n{}{}</article>\n",
      number(s.id), number(s.id), text(storage::to_string(s.status)), text(s.title.empty() ? s.url : s.title),
      text(suggestion_status_label(s.status)), text(s.url), text(who),
      text(relative_age(s.created_at, view.now())),
      s.note.empty() ? Html() : html("<dt>Note</dt><dd>{}</dd>\n", text(s.note)),
      s.decided_at ? html("<dt>Decided</dt><dd>{} by {}</dd>\n",
                          text(relative_age(*s.decided_at, view.now())), text(s.decided_by))
                   : Html(),
      found_details(view, s), suggestion_outcome(s), posts_table(s), actions(view, s));
}

// The suggestion named by the route, or kNotFound.
Result<Suggestion> route_suggestion(const View& view, const Params& params) {
  auto id = route_id(params.get("suggestion"), "suggestion");
  if (!id) return std::unexpected(id.error());
  auto s = view.store().suggestion(*id);
  if (!s) return std::unexpected(s.error());
  if (!*s) return fail(ErrorKind::kNotFound, "ui: no such suggestion", "No such suggestion.");
  return std::move(**s);
}

web::Response add_blog_page(View& view, std::string_view url, std::string_view category,
                            std::string_view error, int status) {
  return admin_page(view, "Add a blog", "blogs",
                    html("{}<p><a href=\"/admin/blogs\">Back to the blogs</a></p>\n",
                         add_blog_form(view, url, category, error)),
                    status);
}

}  // namespace

Html add_blog_form(const View& view, std::string_view url, std::string_view category,
                   std::string_view error) {
  return html(
      "<section class=\"add-blog\">\n<h2>Add a blog</h2>\n<p>Its home page or its feed. The feed is looked "
      "for "
      "in the background, as <code>longread blogs add</code> does; then approve it under "
      "<a href=\"/admin/suggestions\">Suggestions</a>.</p>\n{}"
      "<form method=\"post\" action=\"/admin/blogs/add\" class=\"account-form\">\n"
      "<input type=\"hidden\" name=\"csrf\" value=\"{}\">\n"
      "<label for=\"add-url\">Address</label>\n<input id=\"add-url\" name=\"url\" type=\"text\" "
      "inputmode=\"url\" "
      "required maxlength=\"{}\" value=\"{}\">\n"
      "<label for=\"add-category\">Category (a slug: lower-case letters, digits, dashes)</label>\n"
      "<input id=\"add-category\" name=\"category\" maxlength=\"60\" list=\"category-slugs\" "
      "placeholder=\"uncategorized\" value=\"{}\">\n{}"
      "<button type=\"submit\" class=\"button primary\">Find its feed</button>\n</form>\n</section>\n",
      error.empty() ? Html() : html("<p class=\"form-error\" role=\"alert\">{}</p>\n", text(error)),
      attr(view.csrf_token()), number(static_cast<std::int64_t>(kMaxSuggestedUrl)), attr(url), attr(category),
      category_options(view));
}

Result<web::Response> admin_suggestions(View& view, const web::Request& request, const Params&) {
  auto all = view.store().suggestions(kListed);
  if (!all) return std::unexpected(all.error());
  Html items;
  std::size_t open = 0;
  for (const auto& s : *all) {
    open += storage::is_closed(s.status) ? 0 : 1;
    items += suggestion_item(view, s);
  }
  return admin_page(
      view, "Suggestions", "suggestions",
      html("{}<p>{} open. Readers see each status and a rejection's reason on their account page. Guidance "
           "for readers: a personal blog, writing by its author, a post in the last 12 months.</p>\n{}{}",
           admin_notice(done_message(request.param("done").value_or(""))),
           text(plural(static_cast<long long>(open), "suggestion", "suggestions")), category_options(view),
           items.empty() ? Html::literal("<p class=\"empty\">No suggestions yet.</p>\n") : items));
}

Result<web::Response> admin_suggestion_approve(View& view, const web::Request& request,
                                               const Params& params) {
  auto s = route_suggestion(view, params);
  if (!s) return std::unexpected(s.error());
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  std::string category = std::string(trim(form_value(*form, "category")));
  if (category.empty()) category = s->category.empty() ? "uncategorized" : s->category;
  if (!is_category_slug(category) || category.size() > 60) {
    return fail(ErrorKind::kInvalidInput, "ui: category is not a slug",
                "The category must be a slug: lower-case letters, digits and dashes, like \"" +
                    slugify(category) + "\".");
  }
  if (s->status != SuggestionStatus::kFound) return see_other(view, "/admin/suggestions?done=decided");
  // Followed meanwhile (another suggestion, `blogs add`, an import): approving links to that blog and
  // leaves it as it is, as `blogs add` says "already following" instead of overwriting it.
  std::optional<std::int64_t> blog_id;
  auto existing = view.store().blog_by_feed_url(s->feed_url);
  if (!existing) return std::unexpected(existing.error());
  std::string detail;
  if (*existing) {
    blog_id = (*existing)->id;
    detail = "already followed as blog " + std::to_string(*blog_id);
  } else {
    auto added = view.store().upsert_blog(
        {.feed_url = s->feed_url, .site_url = s->site_url, .title = s->title, .category = category});
    if (!added) return std::unexpected(added.error());
    blog_id = *added;
    detail = "followed as blog " + std::to_string(*blog_id) + " \"" + s->title + "\" (" + category +
             "): " + s->feed_url;
  }
  auto decided = view.store().decide_suggestion(s->id, {.status = SuggestionStatus::kApproved,
                                                        .at = view.now(),
                                                        .decided_by = view.reader()->email,
                                                        .blog_id = blog_id});
  if (!decided) {
    if (decided.error().kind == ErrorKind::kConflict)
      return see_other(view, "/admin/suggestions?done=decided");
    return std::unexpected(decided.error());
  }
  if (auto logged = audit(view, "suggestion.approve", suggestion_target(*s), detail); !logged)
    return std::unexpected(logged.error());
  return see_other(view, "/admin/suggestions?done=approved");
}

Result<web::Response> admin_suggestion_reject(View& view, const web::Request& request, const Params& params) {
  auto s = route_suggestion(view, params);
  if (!s) return std::unexpected(s.error());
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string reason = std::string(trim(form_value(*form, "reason")));
  if (reason.empty() || reason.size() > kMaxRejectReason) {
    return fail(ErrorKind::kInvalidInput, "ui: bad rejection reason",
                "Give a reason of at most 500 characters: the reader sees it.");
  }
  auto decided = view.store().decide_suggestion(s->id, {.status = SuggestionStatus::kRejected,
                                                        .at = view.now(),
                                                        .decided_by = view.reader()->email,
                                                        .reason = reason});
  if (!decided) {
    if (decided.error().kind == ErrorKind::kConflict)
      return see_other(view, "/admin/suggestions?done=decided");
    return std::unexpected(decided.error());
  }
  if (auto logged = audit(view, "suggestion.reject", suggestion_target(*s), "reason: " + reason); !logged)
    return std::unexpected(logged.error());
  return see_other(view, "/admin/suggestions?done=rejected");
}

Result<web::Response> admin_blog_add(View& view, const web::Request& request, const Params&) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string_view input = form_value(*form, "url");
  const std::string category = std::string(trim(form_value(*form, "category")));
  const std::string_view shown = input.size() <= kMaxSuggestedUrl ? input : std::string_view();
  if (!category.empty() && (!is_category_slug(category) || category.size() > 60)) {
    return add_blog_page(view, shown, "",
                         "The category must be a slug: lower-case letters, digits and dashes, like \"" +
                             slugify(category) + "\".",
                         400);
  }
  auto checked = read_suggested_url(view, input);
  if (!checked) {
    if (checked.error().kind != ErrorKind::kInvalidInput) return std::unexpected(checked.error());
    return add_blog_page(view, shown, category, checked.error().display(), 400);
  }
  if (checked->followed) {
    const model::Blog& b = *checked->followed;
    return add_blog_page(view, shown, category,
                         "Already followed as blog " + std::to_string(b.id) + " \"" +
                             blog_display_name(b.title, b.site_url) + "\".",
                         409);
  }
  auto added = view.store().add_suggestion({.reader_id = view.reader()->reader_id,
                                            .by_operator = true,
                                            .url = checked->url,
                                            .category = category,
                                            .now = view.now()});
  if (!added) return std::unexpected(added.error());
  if (auto logged = audit(view, "suggestion.add", suggestion_target(*added),
                          category.empty() ? std::string() : "category " + category);
      !logged) {
    return std::unexpected(logged.error());
  }
  if (view.options().suggestion_added) view.options().suggestion_added();
  return see_other(view, "/admin/suggestions?done=adding#suggestion-" + std::to_string(added->id));
}

}  // namespace longread::ui::pages
