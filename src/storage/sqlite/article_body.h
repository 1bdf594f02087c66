// The SQLite side of compressed article bodies (storage/article_body.h): the dictionaries' table, the SQL
// functions that pack and read a body inside statements, and training a dictionary. Internal to the SQLite
// backend.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "storage/article_body.h"

struct sqlite3;

// A stored body part as SQL reads it, in whichever form the row has it (migration 0021): from the
// compressed body, else from its old column.
#define LONGREAD_STORED_SUMMARY "longread_body_part(body, 0, summary_html)"
#define LONGREAD_STORED_CONTENT "longread_body_part(body, 1, content_html)"
#define LONGREAD_STORED_TEXT "longread_body_part(body, 2, text)"
#define LONGREAD_STORED_EXCERPT "longread_body_part(body, 3, excerpt)"

namespace longread::storage::sqlite {

using storage::ArticleBody;
using storage::ArticleBodyView;
using storage::BodyDictionaries;

// The body_dictionaries table of one connection.
class SqliteBodyDictionaries final : public BodyDictionarySource {
 public:
  explicit SqliteBodyDictionaries(sqlite3* db) : db_(db) {}
  [[nodiscard]] Result<std::uint32_t> newest_id() const override;
  [[nodiscard]] Result<std::optional<std::string>> dictionary(std::uint32_t id) const override;

 private:
  sqlite3* db_;
};

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
