// "/admin/blogs": every followed blog with its health, sortable and filterable, and the operator's
// actions on one blog: pause, resume, edit (title, category) and remove (after a confirmation page).
// The same Store methods as `longread blogs pause / resume / edit / remove`; each action is audited.
#include <algorithm>
#include <chrono>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/strings.h"
#include "pages/admin.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "pages/suggest.h"
#include "ui/format.h"

namespace longread::ui::pages {
namespace {

using namespace std::chrono_literals;

// Posts per week are counted over the last four weeks; a blog is "quiet" with nothing dated in 90 days and
// "new" for two weeks after it was first followed.
constexpr auto kRateWindow = std::chrono::hours(24 * 28);
constexpr auto kQuietAfter = std::chrono::hours(24 * 90);
constexpr auto kNewFor = std::chrono::hours(24 * 14);

bool failing(const storage::BlogHealth& h) {
  return h.blog.consecutive_failures > 0 || h.blog.quarantined;
}
bool is_new(const storage::BlogHealth& h, TimePoint now) {
  return now - h.followed_at < kNewFor;
}
bool quiet(const storage::BlogHealth& h, TimePoint now) {
  return !is_new(h, now) && (!h.newest_article_at || now - *h.newest_article_at > kQuietAfter);
}
bool stopped(const storage::BlogHealth& h) {
  return h.blog.paused || h.blog.quarantined;
}

// Retired blogs (the lifecycle's retire, by an operator or automatically) by id, with the reason: a retired
// blog is paused too, and the table names it retired so an operator knows resuming it un-retires it.
using Retired = std::unordered_map<std::int64_t, std::string>;

struct Filter {
  std::string_view id, label;
};
constexpr Filter kFilters[] = {{"all", "All"}, {"failing", "Failing"}, {"quiet", "Quiet"},
                               {"new", "New"}, {"paused", "Paused"},   {"retired", "Retired"}};

bool shown(const storage::BlogHealth& h, const Retired& retired, std::string_view filter, TimePoint now) {
  if (filter == "retired") return retired.contains(h.blog.id);
  if (filter == "failing") return failing(h);
  if (filter == "quiet") return quiet(h, now);
  if (filter == "new") return is_new(h, now);
  if (filter == "paused") return stopped(h);
  return true;
}

struct Column {
  std::string_view id, label;
};
constexpr Column kColumns[] = {{"title", "Blog"},   {"status", "Last status"}, {"success", "Last success"},
                               {"due", "Next due"}, {"articles", "Articles"},  {"rate", "Posts a week"}};

std::int64_t unix_or(const std::optional<TimePoint>& t, std::int64_t missing) {
  return t ? to_unix(*t) : missing;
}

// Stable sorts from the table's title order: failing first for "status", the longest without a success
// first, soonest due first (paused and quarantined last), most articles and busiest first.
void sort_blogs(std::vector<storage::BlogHealth>& blogs, std::string_view key) {
  auto by = [&](auto less) { std::stable_sort(blogs.begin(), blogs.end(), less); };
  using H = storage::BlogHealth;
  if (key == "status") {
    by([](const H& a, const H& b) { return a.blog.consecutive_failures > b.blog.consecutive_failures; });
  } else if (key == "success") {
    by([](const H& a, const H& b) {
      return unix_or(a.blog.last_success_at, 0) < unix_or(b.blog.last_success_at, 0);
    });
  } else if (key == "due") {
    by([](const H& a, const H& b) {
      const auto due = [](const H& h) {
        return stopped(h) ? std::numeric_limits<std::int64_t>::max() : unix_or(h.blog.next_due_at, 0);
      };
      return due(a) < due(b);
    });
  } else if (key == "articles") {
    by([](const H& a, const H& b) { return a.blog.article_count > b.blog.article_count; });
  } else if (key == "rate") {
    by([](const H& a, const H& b) { return a.recent_articles > b.recent_articles; });
  }
}

std::string when(const std::optional<TimePoint>& t, TimePoint now, std::string_view never) {
  return t ? relative_age(*t, now) : std::string(never);
}

std::string next_due(const storage::BlogHealth& h, bool retired, TimePoint now) {
  if (retired) return "retired";
  if (h.blog.paused) return "paused";
  if (h.blog.quarantined) return "quarantined";
  if (!h.blog.next_due_at || *h.blog.next_due_at <= now) return "now";
  const auto minutes = std::chrono::duration_cast<std::chrono::minutes>(*h.blog.next_due_at - now).count();
  return minutes < 120 ? plural(minutes, "minute", "minutes") : plural(minutes / 60, "hour", "hours");
}

std::string rate(const storage::BlogHealth& h) {
  const double per_week = static_cast<double>(h.recent_articles) / 4.0;
  if (h.recent_articles == 0) return "0";
  return per_week < 1 ? "< 1" : std::to_string(static_cast<long long>(per_week + 0.5));
}

Html blog_row(const View& view, const storage::BlogHealth& h, const Retired& retired) {
  const model::Blog& b = h.blog;
  const std::string base = "/admin/blogs/" + std::to_string(b.id);
  const auto retirement = retired.find(b.id);
  const bool is_retired = retirement != retired.end();
  std::vector<Html> state;
  if (is_retired) {
    state.push_back(
        html("<span class=\"badge\" data-retired=\"{}\">retired</span> <span class=\"muted\">{}</span>",
             attr(retirement->second), text(retirement->second)));
  } else if (b.paused) {
    state.push_back(Html::literal("<span class=\"badge\">paused</span>"));
  }
  if (b.quarantined) state.push_back(Html::literal("<span class=\"badge warn\">quarantined</span>"));
  if (failing(h))
    state.push_back(html("<span class=\"badge warn\">{} failing</span>", number(b.consecutive_failures)));
  if (is_new(h, view.now())) state.push_back(Html::literal("<span class=\"badge\">new</span>"));
  if (quiet(h, view.now())) state.push_back(Html::literal("<span class=\"badge\">quiet</span>"));
  const bool can_resume = b.paused || b.quarantined;
  return html(
      "<tr data-blog=\"{}\"><td><a href=\"{}\">{}</a> <span class=\"muted\">{}</span><br>{}</td>"
      "<td>{}{}</td><td>{}</td><td>{}</td><td>{} <span class=\"muted\">of {}</span></td><td>{}</td>"
      "<td class=\"actions\">{} <a href=\"{}/edit\">Edit</a> <a href=\"{}/remove\">Remove</a></td></tr>\n",
      number(b.id), attr(blog_path(b.id)), text(blog_display_name(b.title, b.site_url)), text(b.category),
      join(state, Html::literal(" ")), text(b.last_status.empty() ? "not polled yet" : b.last_status),
      b.last_error.empty() ? Html() : html("<br><span class=\"form-error\">{}</span>", text(b.last_error)),
      text(when(b.last_success_at, view.now(), "never")), text(next_due(h, is_retired, view.now())),
      number(b.article_count), number(h.stored_articles), text(rate(h)),
      admin_button(view, base + (can_resume ? "/resume" : "/pause"), {},
                   is_retired ? "Un-retire" : (can_resume ? "Resume" : "Pause")),
      attr(base), attr(base));
}

// The blog named by the route, or kNotFound.
Result<model::Blog> route_blog(const View& view, const Params& params) {
  auto id = route_id(params.get("blog"), "blog");
  if (!id) return std::unexpected(id.error());
  auto blog = view.store().blog(*id);
  if (!blog) return std::unexpected(blog.error());
  if (!*blog) return fail(ErrorKind::kNotFound, "ui: no such blog", "No such blog.");
  return std::move(**blog);
}

std::string blog_target(const model::Blog& blog) {
  return "blog " + std::to_string(blog.id) + " \"" + blog.title + "\"";
}

std::string done_message(std::string_view done) {
  if (done == "paused") return "Paused: no crawl polls the blog until it is resumed; its articles stay.";
  if (done == "resumed") return "Resumed: the blog is due at once.";
  if (done == "edited") return "Saved.";
  if (done == "removed") return "Removed, with its articles.";
  return {};
}

Result<web::Response> set_paused(View& view, const Params& params, bool paused) {
  auto blog = route_blog(view, params);
  if (!blog) return std::unexpected(blog.error());
  auto edited = view.store().edit_blog(blog->id, {.paused = paused});
  if (!edited) return std::unexpected(edited.error());
  if (auto logged = audit(view, paused ? "blog.pause" : "blog.resume", blog_target(*blog)); !logged)
    return std::unexpected(logged.error());
  return see_other(view, paused ? "/admin/blogs?done=paused" : "/admin/blogs?done=resumed");
}

web::Response edit_form(View& view, const model::Blog& blog, std::string_view title,
                        std::string_view category, std::string_view message, int status) {
  return admin_page(
      view, "Edit " + blog_display_name(blog.title, blog.site_url), "blogs",
      html(
          "{}<form method=\"post\" action=\"/admin/blogs/{}/edit\" class=\"account-form\">\n"
          "<input type=\"hidden\" name=\"csrf\" value=\"{}\">\n"
          "<label for=\"title\">Title</label>\n<input id=\"title\" name=\"title\" required maxlength=\"300\" "
          "value=\"{}\">\n<label for=\"category\">Category (a slug: lower-case letters, digits, "
          "dashes)</label>\n"
          "<input id=\"category\" name=\"category\" required maxlength=\"60\" value=\"{}\">\n"
          "<button type=\"submit\" class=\"button primary\">Save</button>\n</form>\n"
          "<p>Feed: <code>{}</code></p>\n<p><a href=\"/admin/blogs\">Back to the blogs</a></p>\n",
          message.empty() ? Html() : html("<p class=\"form-error\" role=\"alert\">{}</p>\n", text(message)),
          number(blog.id), attr(view.csrf_token()), attr(title), attr(category), text(blog.feed_url)),
      status);
}

}  // namespace

Result<web::Response> admin_blogs(View& view, const web::Request& request, const Params&) {
  const std::string filter(request.param("show").value_or("all"));
  const std::string sort(request.param("sort").value_or("title"));
  const bool known_filter =
      std::any_of(std::begin(kFilters), std::end(kFilters), [&](const Filter& f) { return f.id == filter; });
  const bool known_sort =
      std::any_of(std::begin(kColumns), std::end(kColumns), [&](const Column& c) { return c.id == sort; });
  if (!known_filter || !known_sort) {
    return fail(ErrorKind::kInvalidInput, "ui: unknown blogs filter or sort", "No such filter or order.");
  }
  auto health = view.store().blog_health(view.now() - kRateWindow);
  if (!health) return std::unexpected(health.error());
  auto lifecycle = view.store().blog_lifecycle();
  if (!lifecycle) return std::unexpected(lifecycle.error());
  Retired retired;
  for (const auto& l : *lifecycle) {
    if (l.retired_at) retired.emplace(l.blog_id, l.retired_reason);
  }
  std::vector<storage::BlogHealth> blogs;
  for (auto& h : *health) {
    if (shown(h, retired, filter, view.now())) blogs.push_back(std::move(h));
  }
  sort_blogs(blogs, sort);

  std::vector<Html> filters;
  for (const auto& f : kFilters) {
    filters.push_back(html("<a href=\"/admin/blogs?show={}&amp;sort={}\"{}>{}</a>", attr(f.id), attr(sort),
                           f.id == filter ? Html::literal(" aria-current=\"page\"") : Html(), text(f.label)));
  }
  std::vector<Html> headers;
  for (const auto& c : kColumns) {
    headers.push_back(html("<th scope=\"col\"{}><a href=\"/admin/blogs?show={}&amp;sort={}\">{}</a></th>",
                           c.id == sort ? Html::literal(" aria-sort=\"ascending\"") : Html(), attr(filter),
                           attr(c.id), text(c.label)));
  }
  std::vector<Html> rows;
  for (const auto& h : blogs) rows.push_back(blog_row(view, h, retired));
  return admin_page(
      view, "Blogs", "blogs",
      html(
          "{}<nav class=\"admin-filters\" aria-label=\"Show\">{}</nav>\n<p>{} shown. Quiet: nothing dated in "
          "90 days; new: followed in the last 14 days; posts a week over the last 4 weeks.</p>\n"
          "<table class=\"admin-table\">\n<thead><tr>{}<th scope=\"col\">Actions</th></tr></thead>\n"
          "<tbody>\n{}</tbody>\n</table>\n{}",
          admin_notice(done_message(request.param("done").value_or(""))), join(filters, Html::literal(" ")),
          text(plural(static_cast<long long>(blogs.size()), "blog", "blogs")), join(headers), join(rows),
          add_blog_form(view)));
}

Result<web::Response> admin_blog_pause(View& view, const web::Request&, const Params& params) {
  return set_paused(view, params, true);
}

Result<web::Response> admin_blog_resume(View& view, const web::Request&, const Params& params) {
  return set_paused(view, params, false);
}

Result<web::Response> admin_blog_edit_form(View& view, const web::Request&, const Params& params) {
  auto blog = route_blog(view, params);
  if (!blog) return std::unexpected(blog.error());
  return edit_form(view, *blog, blog->title, blog->category, "", 200);
}

Result<web::Response> admin_blog_edit(View& view, const web::Request& request, const Params& params) {
  auto blog = route_blog(view, params);
  if (!blog) return std::unexpected(blog.error());
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string title = std::string(trim(form_value(*form, "title")));
  const std::string category = std::string(trim(form_value(*form, "category")));
  // The blog's current values when the form leaves a field out (the table test posts only the token).
  const std::string new_title = title.empty() ? blog->title : title;
  const std::string new_category = category.empty() ? blog->category : category;
  if (new_title.size() > 300) return edit_form(view, *blog, "", new_category, "The title is too long.", 400);
  if (slugify(new_category, new_category.size() + 1) != new_category) {
    return edit_form(view, *blog, new_title, new_category,
                     "The category must be a slug: lower-case letters, digits and dashes, like \"" +
                         slugify(new_category) + "\".",
                     400);
  }
  auto edited = view.store().edit_blog(blog->id, {.title = new_title, .category = new_category});
  if (!edited) return std::unexpected(edited.error());
  std::string detail;
  if (new_title != blog->title) detail += "title: \"" + blog->title + "\" -> \"" + new_title + "\"";
  if (new_category != blog->category) {
    detail +=
        (detail.empty() ? "" : "; ") + std::string("category: ") + blog->category + " -> " + new_category;
  }
  if (auto logged = audit(view, "blog.edit", blog_target(*edited), detail); !logged)
    return std::unexpected(logged.error());
  return see_other(view, "/admin/blogs?done=edited");
}

Result<web::Response> admin_blog_remove_form(View& view, const web::Request&, const Params& params) {
  auto blog = route_blog(view, params);
  if (!blog) return std::unexpected(blog.error());
  return admin_page(
      view, "Remove " + blog_display_name(blog->title, blog->site_url) + "?", "blogs",
      html("<p>The blog and its {} go, with their votes, reading-list entries and search entries. "
           "Importing its feed again follows it anew.</p>\n<p>Feed: <code>{}</code></p>\n<p>{} "
           "<a href=\"/admin/blogs\">Cancel</a></p>\n",
           text(plural(blog->article_count, "visible article", "visible articles")), text(blog->feed_url),
           admin_button(view, "/admin/blogs/" + std::to_string(blog->id) + "/remove", {{"confirm", "yes"}},
                        "Remove the blog and its articles", "button danger")));
}

Result<web::Response> admin_blog_remove(View& view, const web::Request& request, const Params& params) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  // Only the confirmation page's button removes; any other post of this form shows that page.
  if (form_value(*form, "confirm") != "yes") return admin_blog_remove_form(view, request, params);
  auto blog = route_blog(view, params);
  if (!blog) return std::unexpected(blog.error());
  if (auto removed = view.store().delete_blog(blog->id); !removed) return std::unexpected(removed.error());
  if (auto logged = audit(view, "blog.remove", blog_target(*blog), "feed " + blog->feed_url); !logged)
    return std::unexpected(logged.error());
  return see_other(view, "/admin/blogs?done=removed");
}

}  // namespace longread::ui::pages
