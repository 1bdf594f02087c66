// "/admin/junk": the junk review. Recent junk with the rule's reason, and the near misses (the shortest
// recent articles the filter kept, Store::near_misses); one click keeps or junks an article through the
// operator's override (the one `longread keep / junk ID` sets, which sticks across re-crawls), and the
// notice after it offers to undo, setting the override back to what it was.
#include <string>
#include <vector>

#include "pages/admin.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "ui/format.h"

namespace longread::ui::pages {
namespace {

constexpr int kJunkShown = 50;
constexpr int kNearMissesShown = 20;
constexpr auto kNearMissWindow = std::chrono::hours(24 * 30);

// An override as a form value and back: "keep", "junk", or "filter" (no override: the rules decide).
std::string override_name(const std::optional<bool>& keep) {
  return !keep ? "filter" : *keep ? "keep" : "junk";
}
// A known name, and the override it stands for (nullopt: no override).
struct OverrideChoice {
  bool known = false;
  std::optional<bool> keep{};
};
OverrideChoice parse_override(std::string_view name) {
  if (name == "keep") return {true, true};
  if (name == "junk") return {true, false};
  return {name == "filter", std::nullopt};
}

Html decide_button(const View& view, std::int64_t id, std::string_view decision, std::string_view label) {
  return admin_button(view, "/admin/junk/" + std::to_string(id) + "/decide",
                      {{"decision", std::string(decision)}}, label);
}

Html title_link(const model::Article& a) {
  const std::string title = a.title.empty() ? "Untitled" : a.title;
  if (auto url = href(a.link)) return html("<a href=\"{}\" rel=\"noopener\">{}</a>", *url, text(title));
  return text(title);
}

// A junk row says what decided: the rule, or an operator (whose override the filter's verdict is kept
// beside), and offers the opposite decision.
Html junk_row(const View& view, const storage::ArticleView& v) {
  const model::Article& a = v.article;
  std::string why = a.junk_reason;
  if (a.keep_override) {
    why = *a.keep_override ? "kept by an operator (filter: " + a.junk_reason + ")" : "junked by an operator";
  }
  return html(
      "<tr data-article=\"{}\"><td>{}<br><span class=\"muted\">{} · {}</span></td><td>{}</td><td>{}</td>"
      "<td class=\"actions\">{}</td></tr>\n",
      number(a.id), title_link(a), text(blog_display_name(v.blog_title, v.blog_site_url)),
      text(plural(a.word_count, "word", "words")), text(why), text(relative_age(a.first_seen, view.now())),
      a.keep_override ? decide_button(view, a.id, "filter", "Hand back to the filter")
                      : decide_button(view, a.id, "keep", "Keep"));
}

Html near_miss_row(const View& view, const storage::ArticleView& v) {
  const model::Article& a = v.article;
  return html(
      "<tr data-article=\"{}\"><td>{}<br><span class=\"muted\">{}</span></td><td>{}</td><td>{}</td>"
      "<td class=\"actions\">{}</td></tr>\n",
      number(a.id), title_link(a), text(blog_display_name(v.blog_title, v.blog_site_url)),
      text(plural(a.word_count, "word", "words")), text(relative_age(a.first_seen, view.now())),
      decide_button(view, a.id, "junk", "Junk"));
}

Html table(std::string_view caption, std::string_view third_column, const std::vector<Html>& rows,
           std::string_view empty) {
  if (rows.empty()) return html("<p>{}</p>\n", text(empty));
  return html(
      "<table class=\"admin-table\">\n<caption>{}</caption>\n<thead><tr><th scope=\"col\">Article</th>"
      "<th scope=\"col\">{}</th><th scope=\"col\">Seen</th><th scope=\"col\">Actions</th></tr></thead>\n"
      "<tbody>\n{}</tbody>\n</table>\n",
      text(caption), text(third_column), join(rows));
}

// The notice after a decision, with the button that undoes it.
Html decided_notice(const View& view, const web::Request& request) {
  const auto id = parse_int64(request.param("article").value_or(""));
  const std::string decision(request.param("done").value_or(""));
  const auto was = parse_override(request.param("was").value_or(""));
  if (!id || *id <= 0 || !parse_override(decision).known || !was.known) return {};
  const std::string what = decision == "keep"   ? "kept: it shows on the site"
                           : decision == "junk" ? "junked: it is hidden from the site"
                                                : "handed back to the filter";
  return html("<div class=\"notice\" role=\"status\"><p>Article {} {}. {}</p></div>\n", number(*id),
              text(what), decide_button(view, *id, override_name(was.keep), "Undo"));
}

}  // namespace

Result<web::Response> admin_junk(View& view, const web::Request& request, const Params&) {
  auto junk = view.store().recent_junk(kJunkShown);
  if (!junk) return std::unexpected(junk.error());
  auto near = view.store().near_misses(view.now() - kNearMissWindow, kNearMissesShown);
  if (!near) return std::unexpected(near.error());
  std::vector<Html> junk_rows, near_rows;
  for (const auto& v : *junk) junk_rows.push_back(junk_row(view, v));
  for (const auto& v : *near) near_rows.push_back(near_miss_row(view, v));
  return admin_page(
      view, "Junk review", "junk",
      html("{}<p>A decision here is the operator's override: it sticks across re-crawls and <code>longread "
           "rejudge</code>. Near misses are the shortest articles of the last 30 days that the filter kept: "
           "the "
           "rules are first-match and give no margin, and &ldquo;too short&rdquo; is the rule most verdicts "
           "come from.</p>\n{}{}",
           decided_notice(view, request),
           table("Recent junk, newest first", "Why", junk_rows, "No junk yet."),
           table("Near misses, shortest first", "Length", near_rows,
                 "No recent articles kept by the filter.")));
}

Result<web::Response> admin_junk_decide(View& view, const web::Request& request, const Params& params) {
  auto id = route_id(params.get("article"), "article");
  if (!id) return std::unexpected(id.error());
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string decision = std::string(form_value(*form, "decision"));
  const auto wanted = parse_override(decision);
  if (!wanted.known) return fail(ErrorKind::kInvalidInput, "ui: unknown junk decision", "Unknown decision.");
  auto article = view.store().article(*id);
  if (!article) return std::unexpected(article.error());
  if (!*article) return fail(ErrorKind::kNotFound, "ui: no such article", "No such article.");
  const std::string was = override_name((*article)->article.keep_override);
  if (auto set = view.store().set_keep_override(*id, wanted.keep); !set) return std::unexpected(set.error());
  if (auto logged = audit(view, "article." + decision,
                          "article " + std::to_string(*id) + " \"" + (*article)->article.title + "\"",
                          "was: " + was +
                              (was == "filter" && (*article)->article.junk
                                   ? " (junk: " + (*article)->article.junk_reason + ")"
                                   : std::string()));
      !logged) {
    return std::unexpected(logged.error());
  }
  return see_other(view, "/admin/junk?done=" + decision + "&article=" + std::to_string(*id) + "&was=" + was);
}

}  // namespace longread::ui::pages
