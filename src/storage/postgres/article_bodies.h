// Packed article bodies on PostgreSQL (migration 0009): an article's summary HTML, content HTML and text in
// one zstd frame (storage/article_body.h) in `articles.body`, or, in a row not packed yet, in their own
// columns. The excerpt is not packed: it stays a column of its own (lz4 since migration 0010), which every
// listing selects without unpacking a frame.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/error.h"
#include "model/model.h"
#include "storage/article_body.h"
#include "storage/postgres/pg.h"

namespace longread::storage::postgres {

// The columns stored_body reads, in its order, from `articles a`.
#define LONGREAD_PG_BODY_COLUMNS "a.body, a.summary_html, a.content_html, a.text"
inline constexpr int kBodyColumnCount = 4;
// An UPDATE's assignments for a body that is written only on a difference: the new frame (:body,
// :body_dictionary, bound by bind_body) with the three plain columns emptied when :body_changed is 1, the
// row's body as it is otherwise.
#define LONGREAD_PG_SET_BODY_WHEN_CHANGED                                                 \
  " body = CASE WHEN :body_changed::integer = 1 THEN :body::bytea ELSE body END,"         \
  " body_dictionary = CASE WHEN :body_changed::integer = 1 THEN :body_dictionary::bigint" \
  "  ELSE body_dictionary END,"                                                           \
  " summary_html = CASE WHEN :body_changed::integer = 1 THEN '' ELSE summary_html END,"   \
  " content_html = CASE WHEN :body_changed::integer = 1 THEN '' ELSE content_html END,"   \
  " text = CASE WHEN :body_changed::integer = 1 THEN '' ELSE text END"
// About how many bytes of text a row's frame unpacks to, for budgets that bound what a search reads: the
// parts are about four times their frame (docs/perf.md, "Packed bodies on PostgreSQL").
#define LONGREAD_PG_PACKED_TEXT_BYTES "4 * COALESCE(octet_length(a.body), 0)"

// The body_dictionaries table, read over the connection at hand.
class PgBodyDictionaries final : public BodyDictionarySource {
 public:
  explicit PgBodyDictionaries(Connection& conn) : conn_(&conn) {}
  [[nodiscard]] Result<std::uint32_t> newest_id() const override;
  [[nodiscard]] Result<std::optional<std::string>> dictionary(std::uint32_t id) const override;

 private:
  Connection* conn_;
};

// The body_dictionaries table, read over a connection of `pool` taken when a dictionary is needed (not yet
// cached): for a reader that has given its connection back.
class PgPoolBodyDictionaries final : public BodyDictionarySource {
 public:
  explicit PgPoolBodyDictionaries(Pool& pool) : pool_(&pool) {}
  [[nodiscard]] Result<std::uint32_t> newest_id() const override;
  [[nodiscard]] Result<std::optional<std::string>> dictionary(std::uint32_t id) const override;

 private:
  Pool* pool_;
};

// The summary, content and text of row `row`, selected with LONGREAD_PG_BODY_COLUMNS from column `col` on:
// the frame's parts, or the plain columns when the row has no frame. The excerpt is left empty.
Result<ArticleBody> stored_body(BodyDictionaries& bodies, const BodyDictionarySource& source,
                                const Rows& rows, int row, int col);
// The same, into an article read with '' in the places of those three (rows.h's listing form).
Result<void> read_article_body(BodyDictionaries& bodies, const BodyDictionarySource& source, const Rows& rows,
                               int row, int col, model::Article& article);

// An article's parts packed with dictionary `dictionary_id` (as read by BodyDictionaries::current_id; 0:
// none): the frame, or nullopt (NULL) when all three are empty. The caller writes '' to the three plain
// columns beside it.
Result<std::optional<std::string>> pack_body(BodyDictionaries& bodies, Connection& conn,
                                             std::uint32_t dictionary_id, std::string_view summary_html,
                                             std::string_view content_html, std::string_view text);

// Binds `:body` (the frame as bytea text, or NULL) and `:body_dictionary` (the dictionary its header names,
// 0 for none, NULL without a frame), which `db compact` reads to find the frames of an older dictionary.
void bind_body(Query& q, const std::optional<std::string>& frame);

}  // namespace longread::storage::postgres
