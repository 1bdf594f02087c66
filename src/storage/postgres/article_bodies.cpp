#include "storage/postgres/article_bodies.h"

#include "storage/postgres/rows.h"
#include "storage/postgres/statement.h"

namespace longread::storage::postgres {

Result<std::uint32_t> PgBodyDictionaries::newest_id() const {
  auto rows = conn_->exec_prepared("SELECT dict_id FROM body_dictionaries ORDER BY seq DESC LIMIT 1");
  if (!rows) return db_error("cannot read body dictionary", rows.error());
  return rows->empty() ? 0u : static_cast<std::uint32_t>(rows->int64(0, 0));
}

Result<std::optional<std::string>> PgBodyDictionaries::dictionary(std::uint32_t id) const {
  auto rows = conn_->exec("SELECT dict FROM body_dictionaries WHERE dict_id = $1::bigint",
                          Params(static_cast<std::int64_t>(id)));
  if (!rows) return db_error("cannot read body dictionary", rows.error());
  if (rows->empty()) return std::optional<std::string>{};
  return std::optional<std::string>{rows->bytes(0, 0)};
}

Result<std::uint32_t> PgPoolBodyDictionaries::newest_id() const {
  Pool::Lease lease = pool_->acquire();
  return PgBodyDictionaries(*lease).newest_id();
}

Result<std::optional<std::string>> PgPoolBodyDictionaries::dictionary(std::uint32_t id) const {
  Pool::Lease lease = pool_->acquire();
  return PgBodyDictionaries(*lease).dictionary(id);
}

Result<ArticleBody> stored_body(BodyDictionaries& bodies, const BodyDictionarySource& source,
                                const Rows& rows, int row, int frame_col, int parts_col) {
  if (rows.null(row, frame_col)) {
    return ArticleBody{.summary_html = rows.string(row, parts_col),
                       .content_html = rows.string(row, parts_col + 1),
                       .text = rows.string(row, parts_col + 2),
                       .excerpt = rows.string(row, parts_col + 3)};
  }
  auto body = bodies.unpack(source, rows.bytes(row, frame_col));
  if (body && !rows.text(row, parts_col + 3).empty()) body->excerpt = rows.string(row, parts_col + 3);
  return body;
}

Result<void> read_article_body(BodyDictionaries& bodies, const BodyDictionarySource& source, const Rows& rows,
                               int row, model::Article& article) {
  auto body = stored_body(bodies, source, rows, row, kArticleFrameColumn, kArticleColumnCount);
  if (!body) return std::unexpected(body.error());
  article.summary_html = std::move(body->summary_html);
  article.content_html = std::move(body->content_html);
  article.text = std::move(body->text);
  article.excerpt = std::move(body->excerpt);
  return {};
}

Result<std::optional<std::string>> pack_body(BodyDictionaries& bodies, Connection& conn,
                                             std::uint32_t dictionary_id, const ArticleBodyView& parts) {
  if (parts.empty()) return std::optional<std::string>{};
  auto frame = bodies.pack(PgBodyDictionaries(conn), dictionary_id, parts);
  if (!frame) return std::unexpected(frame.error());
  return std::optional<std::string>{std::move(*frame)};
}

void bind_body(Query& q, const std::optional<std::string>& frame) {
  if (!frame) {
    q.bind(":body", std::nullopt).bind(":body_dictionary", std::nullopt);
    return;
  }
  q.bind(":body", Binary{*frame})
      .bind(":body_dictionary", static_cast<std::int64_t>(body_dictionary_id(*frame)));
}

}  // namespace longread::storage::postgres
