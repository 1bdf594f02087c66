// A reader's personal filters on the pages (pages/filters.cpp): mute controls and the account page's
// section. The handlers are declared in pages.h with the others.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "ui/view.h"

namespace longread::ui::pages {

// A form that mutes (or, when `muted`, un-mutes) a blog or a category, coming back to `next`.
Html mute_blog_form(const View& view, std::int64_t blog_id, bool muted, std::string_view next,
                    std::string_view name);
Html mute_category_form(const View& view, std::string_view slug, bool muted, std::string_view next,
                        std::string_view name);
// Marks `article_ids` read (or unread) for the reader everywhere a reader sees it: the site-wide read state
// that listings and feed apps share, and the reading list's own mark for those that are saved (its
// exports carry it). Returns how many articles the site-wide state marked (hidden or unknown ones are
// skipped there).
Result<int> set_read_everywhere(const View& view, std::int64_t reader_id,
                                const std::vector<std::int64_t>& article_ids, bool read);
// The account page's "Personal filters": what the reader muted (each with Unmute), and the preferences
// form. `done` is the page's "?done=" (a notice after saving).
Html filters_section(View& view, std::string_view done);

}  // namespace longread::ui::pages
