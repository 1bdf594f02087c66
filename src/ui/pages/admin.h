// What the admin area's pages share: the layout with the section tabs, the one-button forms that post
// an action, and the audit log every action writes to.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ui/view.h"
#include "web/http.h"

namespace longread::ui::pages {

// An admin page: the title as heading, the section tabs ("blogs", "junk", "flags", "audit"), then
// `body`; never stored by caches.
web::Response admin_page(View& view, std::string_view title, std::string_view section, Html body,
                         int status = 200);
// A form that posts `fields` (name, value) and the CSRF token to `action` with one button.
Html admin_button(const View& view, std::string_view action,
                  const std::vector<std::pair<std::string, std::string>>& fields, std::string_view label,
                  std::string_view css_class = "button");
// Writes who (the logged-in operator), what (`action`, "blog.pause"), on what (`target`, "blog 12") and
// when to the audit log. A failure is an error the caller returns: an action that cannot be logged is
// not reported as done.
Result<void> audit(const View& view, std::string_view action, std::string_view target,
                   std::string_view detail = {});
// A notice for "?done=..." after an action ("" when none).
Html admin_notice(std::string_view message);

}  // namespace longread::ui::pages
