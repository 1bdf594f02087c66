// The compressed form of an article's body (docs/storage.md, "Article bodies"): summary HTML, content HTML,
// plain text and excerpt packed into one zstd frame (RFC 8878), optionally with a dictionary trained on the
// site's own articles and kept in the database. Internal to the SQLite backend.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

struct sqlite3;

// A stored body part as SQL reads it, in whichever form the row has it (migration 0021): from the
// compressed body, else from its old column.
#define LONGREAD_STORED_SUMMARY "longread_body_part(body, 0, summary_html)"
#define LONGREAD_STORED_CONTENT "longread_body_part(body, 1, content_html)"
#define LONGREAD_STORED_TEXT "longread_body_part(body, 2, text)"
#define LONGREAD_STORED_EXCERPT "longread_body_part(body, 3, excerpt)"

namespace longread::storage::sqlite {

// The four parts of a body to be packed, read where they lie (an article of a crawl, a row's columns).
struct ArticleBodyView {
  std::string_view summary_html;
  std::string_view content_html;
  std::string_view text;
  std::string_view excerpt;

  // Nothing to keep: such an article is stored with no body at all (a NULL body with empty plain columns
  // reads as empty), by the crawl's save and by SQL's longread_body_pack alike.
  [[nodiscard]] bool empty() const {
    return summary_html.empty() && content_html.empty() && text.empty() && excerpt.empty();
  }
};

// The big parts of an article: the page reads the HTML, the search index the text, listings the excerpt.
struct ArticleBody {
  std::string summary_html;
  std::string content_html;
  std::string text;
  std::string excerpt;

  [[nodiscard]] ArticleBodyView view() const { return {summary_html, content_html, text, excerpt}; }
};

// zstd's level for new bodies: 3, zstd's own default. The crawl's one writer thread compresses every new
// body, and at level 9 that was a fifth of its time; level 3 compresses about six times faster for frames
// about 7 % larger (docs/perf.md, "Compact store" and "Crawling Kagi Small Web").
inline constexpr int kBodyCompressionLevel = 3;
// A frame that claims more than this is refused before anything is allocated: no stored article comes
// near it (fetch caps a response well below), so such a header is corrupt or hostile.
inline constexpr std::uint64_t kMaxBodyBytes = 64ull * 1024 * 1024;

// A body's frame holds a format byte, the lengths of the first three parts as LEB128 varints, then the four
// parts back to back, compressed as one frame so that the text, which repeats the content HTML's words, and
// the excerpt, which repeats the text's beginning, cost little beside it. A dictionary is named by its id in
// the frame header (RFC 8878, 3.1.1.1.3 Dictionary_ID), so every row says which dictionary it needs and a
// newer one can replace it for new rows.

// The dictionaries of one database, shared by the store's connections: compression and decompression
// contexts are built once per dictionary. Thread-safe.
class BodyDictionaries {
 public:
  BodyDictionaries();
  ~BodyDictionaries();
  BodyDictionaries(const BodyDictionaries&) = delete;
  BodyDictionaries& operator=(const BodyDictionaries&) = delete;

  // Compresses with the database's newest dictionary (none yet: plain zstd). Errors begin "store: ".
  [[nodiscard]] Result<std::string> pack(sqlite3* db, ArticleBodyView body);
  // Compresses with dictionary `dictionary_id` as read by current_id (0: plain zstd), for a caller packing
  // many bodies at once.
  [[nodiscard]] Result<std::string> pack(sqlite3* db, std::uint32_t dictionary_id, ArticleBodyView body);
  // Decompresses a frame written by pack(), with whichever dictionary its header names.
  [[nodiscard]] Result<ArticleBody> unpack(sqlite3* db, std::string_view frame);
  // The id of the newest dictionary (0: none).
  [[nodiscard]] Result<std::uint32_t> current_id(sqlite3* db);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The dictionary id a frame's header names (0: none or unreadable).
std::uint32_t body_dictionary_id(std::string_view frame);

// Registers on a connection (every connection of the store, before it runs a statement that reads an
// article's body):
//   longread_body_pack(summary_html, content_html, text, excerpt) -> BLOB, or NULL when all are empty;
//   longread_body_part(body, n, plain) -> part n (0 summary_html, 1 content_html, 2 text, 3 excerpt) of
//     body, or plain when body is NULL (a row stored before compression, or not yet converted);
//   longread_body_part_or_empty(body, n, plain) -> the same, but "" for a body that cannot be read (listings'
//     excerpts and the search index's view: one bad row must not fail a page);
//   longread_body_dictionary(body) -> the dictionary id its frame names (0 none, -1 an unreadable header),
//     NULL for a NULL body.
// The search index's view and triggers (migration 0021) call longread_body_part, so a connection without it
// cannot change articles. Returns "" or an error message.
std::string register_body_functions(sqlite3* db, std::shared_ptr<BodyDictionaries> dictionaries);

// Trains a dictionary (zstd's ZDICT_trainFromBuffer) on up to `samples` of the newest articles' bodies and
// stores it as the newest; nullopt when there are too few articles to train on. Run inside a write
// transaction by the caller.
[[nodiscard]] Result<std::optional<std::uint32_t>> train_body_dictionary(sqlite3* db,
                                                                         BodyDictionaries& dictionaries,
                                                                         int samples, std::int64_t now);

}  // namespace longread::storage::sqlite
