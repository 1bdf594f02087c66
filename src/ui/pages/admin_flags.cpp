// "/admin/flags": readers' flags. Every flagged article, the most recently flagged first, with its flags
// counted by reason and its state: held (hidden until an operator decides: moderation.flags_to_hide
// readers flagged it), still shown, or decided. Keep lifts a hold for good (later flags are recorded but
// never hide the article again); Junk is the operator's junk override, the one `longread junk ID` and the
// junk review set, which sticks across re-crawls. Each decision is written to the audit log.
#include <string>
#include <vector>

#include "pages/admin.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "ui/format.h"

namespace longread::ui::pages {
namespace {

constexpr int kFlaggedShown = 200;

std::string counts_text(const storage::FlaggedArticle& f) {
  std::string out;
  for (std::size_t i = 0; i < std::size(storage::kFlagReasons); ++i) {
    if (f.by_reason[i] == 0) continue;
    if (!out.empty()) out += ", ";
    out += std::string(storage::flag_reason_label(storage::kFlagReasons[i])) + " " +
           std::to_string(f.by_reason[i]);
  }
  return out;
}

std::string state_text(const storage::FlaggedArticle& f) {
  if (f.held) return "held: hidden until you decide";
  if (f.decision == "keep") return "kept by an operator";
  if (f.decision == "junk") return "junked by an operator";
  if (f.keep_override == false) return "junked by an operator";
  return "shown";
}

Html decide_button(const View& view, std::int64_t id, std::string_view decision, std::string_view label) {
  return admin_button(view, "/admin/flags/" + std::to_string(id) + "/decide",
                      {{"decision", std::string(decision)}}, label);
}

Html flagged_row(const View& view, const storage::FlaggedArticle& f) {
  const std::string title = f.title.empty() ? "Untitled" : f.title;
  const Html title_html = [&] {
    if (auto url = href(f.link)) return html("<a href=\"{}\" rel=\"noopener\">{}</a>", *url, text(title));
    return text(title);
  }();
  std::vector<Html> actions;
  if (f.decision != "keep") actions.push_back(decide_button(view, f.article_id, "keep", "Keep"));
  if (f.decision != "junk") actions.push_back(decide_button(view, f.article_id, "junk", "Junk"));
  return html(
      "<tr data-article=\"{}\"{}><td>{}<br><span class=\"muted\">{} · <a href=\"/blog/{}/read/{}\">on this "
      "site</a></span></td><td>{} <span class=\"muted\">({})</span></td><td>{}</td><td>{}</td>"
      "<td class=\"actions\">{}</td></tr>\n",
      number(f.article_id), f.held ? Html::literal(" class=\"held\"") : Html(), title_html,
      text(blog_display_name(f.blog_title, f.blog_site_url)), number(f.blog_id), number(f.article_id),
      number(f.flags), text(counts_text(f)), text(state_text(f)),
      text(relative_age(f.last_flag_at, view.now())), join(actions, Html::literal(" ")));
}

}  // namespace

Result<web::Response> admin_flags(View& view, const web::Request& request, const Params&) {
  const std::string_view show = request.param("show").value_or("all");
  if (show != "all" && show != "held") {
    return fail(ErrorKind::kInvalidInput, "ui: unknown flags filter", "Unknown filter.");
  }
  auto flagged = view.store().flagged_articles(kFlaggedShown);
  if (!flagged) return std::unexpected(flagged.error());
  std::vector<Html> rows;
  int held = 0;
  for (const auto& f : *flagged) {
    held += f.held ? 1 : 0;
    if (show == "held" && !f.held) continue;
    rows.push_back(flagged_row(view, f));
  }
  const std::string done(request.param("done").value_or(""));
  const auto done_id = parse_int64(request.param("article").value_or(""));
  std::string notice;
  if (done_id && (done == "keep" || done == "junk")) {
    notice = "Article " + std::to_string(*done_id) +
             (done == "keep" ? " kept: it shows on the site, and later flags will not hide it again."
                             : " junked: it is hidden from the site, across re-crawls.");
  }
  const Html filters = html(
      "<nav class=\"admin-filters\" aria-label=\"Filter flagged articles\"><a "
      "href=\"/admin/flags\"{}>All</a> "
      "<a href=\"/admin/flags?show=held\"{}>Held ({})</a></nav>\n",
      show == "all" ? Html::literal(" aria-current=\"page\"") : Html(),
      show == "held" ? Html::literal(" aria-current=\"page\"") : Html(), number(held));
  const Html table =
      rows.empty()
          ? html("<p>{}</p>\n", text(show == "held" ? "No article is held." : "No article has been flagged."))
          : html(
                "<table class=\"admin-table\">\n<caption>Flagged articles, most recently flagged "
                "first</caption>\n"
                "<thead><tr><th scope=\"col\">Article</th><th scope=\"col\">Flags</th><th "
                "scope=\"col\">State</th>"
                "<th scope=\"col\">Last flag</th><th "
                "scope=\"col\">Actions</th></tr></thead>\n<tbody>\n{}</tbody>\n"
                "</table>\n",
                join(rows));
  return admin_page(
      view, "Reader flags", "flags",
      html(
          "{}<p>Readers flag articles as spam, AI-generated, not an article or a broken link, once each. At "
          "{} "
          "flags an article is held: hidden from every listing, search, feed and the newsletter until you "
          "decide. <strong>Keep</strong> shows it again for good; <strong>Junk</strong> hides it as the junk "
          "review does, across re-crawls.</p>\n{}{}",
          admin_notice(notice), number(view.options().flag_rules.flags_to_hide), filters, table));
}

Result<web::Response> admin_flags_decide(View& view, const web::Request& request, const Params& params) {
  auto id = route_id(params.get("article"), "article");
  if (!id) return std::unexpected(id.error());
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string decision(form_value(*form, "decision"));
  if (decision != "keep" && decision != "junk") {
    return fail(ErrorKind::kInvalidInput, "ui: unknown flags decision", "Unknown decision.");
  }
  auto article = view.store().article(*id);
  if (!article) return std::unexpected(article.error());
  if (!*article) return fail(ErrorKind::kNotFound, "ui: no such article", "No such article.");
  auto before = view.store().flag_state(*id, std::nullopt);
  if (!before) return std::unexpected(before.error());
  if (auto ok = view.store().decide_flags(
          *id, decision == "keep" ? storage::FlagDecision::kKeep : storage::FlagDecision::kJunk);
      !ok) {
    return std::unexpected(ok.error());
  }
  const std::string was = before->held ? "held" : !before->decision.empty() ? before->decision : "shown";
  if (auto logged = audit(view, "flags." + decision,
                          "article " + std::to_string(*id) + " \"" + (*article)->article.title + "\"",
                          "flags: " + std::to_string(before->flags) + "; was: " + was);
      !logged) {
    return std::unexpected(logged.error());
  }
  return see_other(view, "/admin/flags?done=" + decision + "&article=" + std::to_string(*id));
}

}  // namespace longread::ui::pages
