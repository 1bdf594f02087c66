// "/admin/lifecycle": the blogs whose life as a followed blog may be over, by the operator's rules
// (lifecycle.* in the configuration, storage::classify_blog). Four lists: dead (failed polls in a row over
// days), moved (a permanent redirect moved the feed URL; onto another site is marked, since a lapsed
// domain bought by someone else looks exactly like that), inactive (no post in months), and retired. Retire
// pauses a blog for good, with its reason, keeping its articles on the site; Un-retire polls it again from
// the next crawl; Accept takes a move off the list. Each action is audited.
#include <string>
#include <unordered_map>
#include <vector>

#include "pages/admin.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "storage/lifecycle.h"
#include "ui/format.h"

namespace longread::ui::pages {
namespace {

struct Row {
  storage::BlogHealth health;
  storage::BlogLifecycle lifecycle;
  storage::LifecycleVerdict verdict;
};

Html blog_cell(const storage::BlogHealth& h) {
  return html("<a href=\"/blog/{}\">{}</a><br><span class=\"muted\">{}</span>", number(h.blog.id),
              text(blog_display_name(h.blog.title, h.blog.site_url)), text(h.blog.feed_url));
}

Html action(const View& view, std::int64_t blog_id, std::string_view name, std::string_view label) {
  return admin_button(view, "/admin/lifecycle/" + std::to_string(blog_id) + "/" + std::string(name), {},
                      label);
}

std::string ago(const std::optional<TimePoint>& t, TimePoint now, std::string_view never) {
  return t ? relative_age(*t, now) : std::string(never);
}

Html table(std::string_view id, std::string_view caption, std::string_view evidence,
           const std::vector<Html>& rows, std::string_view empty) {
  if (rows.empty()) return html("<p id=\"{}\">{}</p>\n", attr(id), text(empty));
  return html(
      "<table class=\"admin-table\" id=\"{}\">\n<caption>{}</caption>\n<thead><tr><th scope=\"col\">Blog</th>"
      "<th scope=\"col\">{}</th><th scope=\"col\">Actions</th></tr></thead>\n<tbody>\n{}</tbody>\n</table>\n",
      attr(id), text(caption), text(evidence), join(rows));
}

Result<std::vector<Row>> load_rows(View& view) {
  auto health = view.store().blog_health(view.now());
  if (!health) return std::unexpected(health.error());
  auto lifecycles = view.store().blog_lifecycle();
  if (!lifecycles) return std::unexpected(lifecycles.error());
  std::unordered_map<std::int64_t, storage::BlogLifecycle> by_id;
  for (auto& l : *lifecycles) by_id.emplace(l.blog_id, std::move(l));
  std::vector<Row> rows;
  for (auto& h : *health) {
    const auto found = by_id.find(h.blog.id);
    storage::BlogLifecycle l =
        found != by_id.end() ? found->second : storage::BlogLifecycle{.blog_id = h.blog.id};
    const auto verdict = storage::classify_blog(h, l, view.options().lifecycle, view.now());
    rows.push_back({std::move(h), std::move(l), verdict});
  }
  return rows;
}

}  // namespace

Result<web::Response> admin_lifecycle(View& view, const web::Request& request, const Params&) {
  auto rows = load_rows(view);
  if (!rows) return std::unexpected(rows.error());
  const auto& rules = view.options().lifecycle;
  const TimePoint now = view.now();
  std::vector<Html> dead, moved, inactive, retired;
  for (const Row& r : *rows) {
    const model::Blog& b = r.health.blog;
    if (r.verdict.retired) {
      retired.push_back(
          html("<tr data-blog=\"{}\"><td>{}</td><td>{} <span class=\"muted\">({})</span></td>"
               "<td class=\"actions\">{}</td></tr>\n",
               number(b.id), blog_cell(r.health), text(r.lifecycle.retired_reason),
               text(ago(r.lifecycle.retired_at, now, "")), action(view, b.id, "unretire", "Un-retire")));
      continue;
    }
    if (r.verdict.dead) {
      dead.push_back(html(
          "<tr data-blog=\"{}\"><td>{}</td><td>{} failed polls in a row; last success {}; last error: {}</td>"
          "<td class=\"actions\">{}</td></tr>\n",
          number(b.id), blog_cell(r.health), number(b.consecutive_failures),
          text(ago(b.last_success_at, now, "never")),
          text(b.last_error.empty() ? b.last_status : b.last_error), action(view, b.id, "retire", "Retire")));
    }
    if (r.verdict.moved) {
      moved.push_back(html(
          "<tr data-blog=\"{}\"{}><td>{}</td><td>{}from <code>{}</code> {}</td><td class=\"actions\">{} "
          "{}</td>"
          "</tr>\n",
          number(b.id), r.verdict.moved_off_site ? Html::literal(" class=\"moved-off-site\"") : Html(),
          blog_cell(r.health),
          r.verdict.moved_off_site
              ? Html::literal("<strong class=\"badge warn\">another site</strong> check who owns it now; ")
              : Html(),
          text(r.lifecycle.moved_from), text(ago(r.lifecycle.moved_at, now, "")),
          action(view, b.id, "accept-move", "Accept move"), action(view, b.id, "retire", "Retire")));
    }
    if (r.verdict.inactive) {
      inactive.push_back(
          html("<tr data-blog=\"{}\"><td>{}</td><td>newest post {}</td><td class=\"actions\">{}</td>"
               "</tr>\n",
               number(b.id), blog_cell(r.health),
               text(ago(r.health.newest_article_at, now, "none since it was followed")),
               action(view, b.id, "retire", "Retire")));
    }
  }
  const std::string done(request.param("done").value_or(""));
  const auto blog_id = parse_int64(request.param("blog").value_or(""));
  std::string notice;
  if (blog_id) {
    if (done == "retire")
      notice =
          "Blog " + std::to_string(*blog_id) + " retired: no crawl polls it; its articles stay on the site.";
    if (done == "unretire")
      notice = "Blog " + std::to_string(*blog_id) + " un-retired: the next crawl polls it.";
    if (done == "accept-move") notice = "Blog " + std::to_string(*blog_id) + "'s move accepted.";
  }
  const auto automatic = [](bool on) { return on ? "retired automatically" : "listed here only"; };
  return admin_page(
      view, "Blog lifecycle", "lifecycle",
      html("{}<p>Dead: {} failed polls in a row and no success for {} days ({}). Inactive: no post in {} "
           "months ({}). Moved: a permanent redirect (301/308) moved the feed; onto another site is marked, "
           "since a domain that lapsed and was bought looks just like it. A retired blog is no longer polled "
           "and keeps its articles on the site.</p>\n"
           "<h2>Dead</h2>\n{}<h2>Moved</h2>\n{}<h2>Inactive</h2>\n{}<h2>Retired</h2>\n{}",
           admin_notice(notice), number(rules.dead_failures), number(rules.dead_days.count()),
           text(automatic(rules.auto_retire_dead)), number(rules.inactive_months),
           text(automatic(rules.auto_retire_inactive)),
           table("dead", "Dead blogs", "Failures", dead, "No dead blog."),
           table("moved", "Moved feeds, newest move first", "Move", moved, "No moved feed."),
           table("inactive", "Inactive blogs", "Last post", inactive, "No inactive blog."),
           table("retired", "Retired blogs", "Why", retired, "No retired blog.")));
}

namespace {

// POST /admin/lifecycle/{blog}/retire | unretire | accept-move.
Result<web::Response> lifecycle_action(View& view, const Params& params, const std::string& action) {
  auto id = route_id(params.get("blog"), "blog");
  if (!id) return std::unexpected(id.error());
  auto blog = view.store().blog(*id);
  if (!blog) return std::unexpected(blog.error());
  if (!*blog) return fail(ErrorKind::kNotFound, "ui: no such blog", "No such blog.");
  const std::string target = "blog " + std::to_string(*id) + " \"" + (*blog)->title + "\"";
  Result<bool> changed = false;
  std::string detail;
  if (action == "retire") {
    detail = "retired by an operator";
    changed = view.store().retire_blog(*id, detail, view.now());
  } else if (action == "unretire") {
    changed = view.store().unretire_blog(*id);
  } else if (action == "accept-move") {
    auto lifecycles = view.store().blog_lifecycle();
    if (!lifecycles) return std::unexpected(lifecycles.error());
    for (const auto& l : *lifecycles) {
      if (l.blog_id == *id && l.moved_at) detail = "from " + l.moved_from + " to " + (*blog)->feed_url;
    }
    changed = view.store().clear_blog_move(*id);
  } else {
    return fail(ErrorKind::kNotFound, "ui: unknown lifecycle action", "No such page.");
  }
  if (!changed) return std::unexpected(changed.error());
  if (*changed) {
    const std::string audited = action == "accept-move" ? "blog.accept_move" : "blog." + action;
    if (auto logged = audit(view, audited, target, detail); !logged) return std::unexpected(logged.error());
  }
  return see_other(view, "/admin/lifecycle?done=" + action + "&blog=" + std::to_string(*id));
}

}  // namespace

Result<web::Response> admin_lifecycle_retire(View& view, const web::Request&, const Params& params) {
  return lifecycle_action(view, params, "retire");
}

Result<web::Response> admin_lifecycle_unretire(View& view, const web::Request&, const Params& params) {
  return lifecycle_action(view, params, "unretire");
}

Result<web::Response> admin_lifecycle_accept_move(View& view, const web::Request&, const Params& params) {
  return lifecycle_action(view, params, "accept-move");
}

}  // namespace longread::ui::pages
