// Packed article bodies on PostgreSQL (migration 0009): an article's summary HTML, content HTML, text and
// excerpt in one zstd frame (storage/article_body.h) in `articles.body`, as the SQLite store keeps them, or,
// in a row not packed yet, in their own columns. A listing reads the excerpt out of the frame: the excerpt
// column went to TOAST anyway (the rank vector and phrase filter fill the row), so reading the frame costs
// a listing no more pages, and the frame stores the excerpt in a few bytes (it repeats the text's start).
// Rows packed before the excerpt went into the frame keep it in its column, which is read while it is not
// empty, until `db compact` packs it in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/error.h"
#include "model/model.h"
#include "storage/article_body.h"
#include "storage/postgres/pg.h"

namespace longread::storage::postgres {

// The columns stored_body reads, in its order, from `articles a`: the frame, then the four plain parts.
#define LONGREAD_PG_BODY_PARTS "a.summary_html, a.content_html, a.text, a.excerpt"
#define LONGREAD_PG_BODY_COLUMNS "a.body, " LONGREAD_PG_BODY_PARTS
inline constexpr int kBodyColumnCount = 5;
// An UPDATE's assignments for a body that is written only on a difference: the new frame (:body,
// :body_dictionary, bound by bind_body) with the four plain columns emptied when :body_changed is 1, the
// row's body as it is otherwise. :excerpt is bound '' (the frame holds the excerpt).
#define LONGREAD_PG_SET_BODY_WHEN_CHANGED                                                 \
  " body = CASE WHEN :body_changed::integer = 1 THEN :body::bytea ELSE body END,"         \
  " body_dictionary = CASE WHEN :body_changed::integer = 1 THEN :body_dictionary::bigint" \
  "  ELSE body_dictionary END,"                                                           \
  " summary_html = CASE WHEN :body_changed::integer = 1 THEN '' ELSE summary_html END,"   \
  " content_html = CASE WHEN :body_changed::integer = 1 THEN '' ELSE content_html END,"   \
  " text = CASE WHEN :body_changed::integer = 1 THEN '' ELSE text END,"                   \
  " excerpt = CASE WHEN :body_changed::integer = 1 THEN :excerpt ELSE excerpt END"
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

// The summary, content, text and excerpt of row `row`, whose frame is in column `frame_col` and whose
// LONGREAD_PG_BODY_PARTS start at `parts_col`: the frame's parts, or the plain columns when the row has no
// frame; a non-empty excerpt column (a row packed before the frame held the excerpt) is its excerpt.
Result<ArticleBody> stored_body(BodyDictionaries& bodies, const BodyDictionarySource& source,
                                const Rows& rows, int row, int frame_col, int parts_col);
// The same, selected with LONGREAD_PG_BODY_COLUMNS from column `col` on.
inline Result<ArticleBody> stored_body(BodyDictionaries& bodies, const BodyDictionarySource& source,
                                       const Rows& rows, int row, int col) {
  return stored_body(bodies, source, rows, row, col, col + 1);
}
// The same, of an article selected with rows.h's article columns (whose last is the frame) and
// LONGREAD_PG_BODY_PARTS after them, into the article read_article_fields read from the row: the frame is
// unpacked once for all four parts.
Result<void> read_article_body(BodyDictionaries& bodies, const BodyDictionarySource& source, const Rows& rows,
                               int row, model::Article& article);

// An article's parts packed with dictionary `dictionary_id` (as read by BodyDictionaries::current_id; 0:
// none): the frame, or nullopt (NULL) when all four are empty. The caller writes '' to the four plain
// columns beside it.
Result<std::optional<std::string>> pack_body(BodyDictionaries& bodies, Connection& conn,
                                             std::uint32_t dictionary_id, const ArticleBodyView& parts);

// Binds `:body` (the frame as bytea text, or NULL) and `:body_dictionary` (the dictionary its header names,
// 0 for none, NULL without a frame), which `db compact` reads to find the frames of an older dictionary.
void bind_body(Query& q, const std::optional<std::string>& frame);

}  // namespace longread::storage::postgres
