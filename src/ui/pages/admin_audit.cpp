// "/admin/audit": the operators' actions, newest first, a page at a time ("?before=<id>" pages on).
#include "pages/admin.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "ui/format.h"

namespace longread::ui::pages {

namespace {
constexpr int kAuditPageSize = 50;
}

Result<web::Response> admin_audit(View& view, const web::Request& request, const Params&) {
  std::int64_t before = 0;
  if (const auto param = request.param("before")) {
    const auto parsed = parse_int64(*param);
    if (!parsed || *parsed <= 0) {
      return fail(ErrorKind::kInvalidInput, "ui: bad audit page",
                  "That page of the audit log does not exist.");
    }
    before = *parsed;
  }
  auto page = view.store().audit_entries(kAuditPageSize, before);
  if (!page) return std::unexpected(page.error());
  std::vector<Html> rows;
  for (const auto& entry : page->entries) {
    rows.push_back(
        html("<tr><td><time datetime=\"{}\">{}</time></td><td>{}</td><td><code>{}</code></td>"
             "<td>{}</td><td>{}</td></tr>\n",
             attr(format_rfc3339(entry.at)), text(format_rfc3339(entry.at)), text(entry.actor),
             text(entry.action), text(entry.target), text(entry.detail)));
  }
  Html table = rows.empty()
                   ? Html::literal("<p>No admin actions yet.</p>\n")
                   : html(
                         "<table class=\"admin-table\">\n<thead><tr><th scope=\"col\">When (UTC)</th>"
                         "<th scope=\"col\">Who</th><th scope=\"col\">Action</th><th scope=\"col\">"
                         "Target</th><th scope=\"col\">Details</th></tr></thead>\n<tbody>\n{}"
                         "</tbody>\n</table>\n",
                         join(rows));
  Html pager;
  if (before != 0 || page->next_before != 0) {
    pager = html("<nav class=\"pager\" aria-label=\"Audit log pages\">{}{}</nav>\n",
                 before != 0 ? Html::literal("<a href=\"/admin/audit\">Newest</a> ") : Html(),
                 page->next_before != 0 ? html("<a href=\"/admin/audit?before={}\" rel=\"next\">Older</a>",
                                               number(page->next_before))
                                        : Html());
  }
  return admin_page(view, "Audit log", "audit", html("{}{}", table, pager));
}

}  // namespace longread::ui::pages
