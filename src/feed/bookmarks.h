// Reading lists in the forms other services export and read: the Netscape bookmark file (browsers,
// Pocket's HTML export), Pocket's CSV export and Instapaper's CSV export. Import and export of a reader's
// reading list; no I/O.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"

namespace longread::feed {

// One saved link.
struct Bookmark {
  std::string url{};  // http or https
  std::string title{};
  std::optional<TimePoint> saved_at{};  // when the service says it was saved
  bool read = false;                    // archived (Pocket) or in Instapaper's "Archive" folder
};

struct BookmarkLimits {
  std::size_t max_links = 20000;  // more is kInvalidInput, not a silent cut
  std::size_t max_url = 2048;     // longer URLs are skipped (counted in BookmarkImport::skipped)
  std::size_t max_title = 300;    // longer titles are cut at a UTF-8 character boundary
};

struct BookmarkImport {
  std::string format{};  // "netscape-html", "pocket-csv", "instapaper-csv"
  std::vector<Bookmark> bookmarks{};
  int skipped = 0;  // entries without an http(s) URL, or with an overlong one
};

// Reads an export, telling the format from its content: HTML (a Netscape bookmark file or Pocket's HTML
// export, where links under the "Read Archive" heading are read) or CSV with a header row (Pocket:
// title,url,time_added,…,status; Instapaper: URL,Title,Selection,Folder,Timestamp). A URL listed twice
// is kept once (its first entry). Errors (kInvalidInput) start with "bookmarks: ": an empty file, a CSV
// without a URL column, unbalanced CSV quotes, more than `max_links` links.
[[nodiscard]] Result<BookmarkImport> parse_bookmarks(std::string_view bytes,
                                                     const BookmarkLimits& limits = {});

// RFC 4180 CSV: rows of fields; quoted fields may hold commas, quotes ("") and line breaks. kInvalidInput
// for a quote left open.
[[nodiscard]] Result<std::vector<std::vector<std::string>>> parse_csv(std::string_view bytes);
// One CSV field, quoted when it holds a comma, a quote or a line break. A field starting with =, +, - or
// @ is prefixed with ' so that a spreadsheet opening the export does not run it as a formula (OWASP's
// "CSV injection").
std::string csv_field(std::string_view value);

// A Netscape bookmark file (the format browsers import, and Pocket's HTML export): a folder per state
// ("Unread", "Read Archive"), ADD_DATE in Unix seconds; every value escaped.
std::string write_netscape_bookmarks(const std::vector<Bookmark>& bookmarks, std::string_view title);

}  // namespace longread::feed
