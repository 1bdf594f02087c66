#include "article_texts.h"

#include <cstdlib>

#include <fmt/format.h>

#include "storage/postgres/article_bodies.h"

namespace longread::bench {

namespace pg = storage::postgres;

void for_each_article_text(pg::Connection& conn, pg::Database& db, const std::string& where,
                           const std::function<void(const ArticleTexts&)>& fn) {
  constexpr std::int64_t kBatch = 2000;
  auto must = [&](const std::string& sql) {
    auto rows = conn.exec(sql);
    if (!rows) {
      fmt::print(stderr, "{}: {}\n", sql, rows.error().message);
      std::exit(1);
    }
    return std::move(*rows);
  };
  const std::int64_t top = must("SELECT COALESCE(MAX(id), 0) FROM articles").int64(0, 0);
  for (std::int64_t low = 0; low < top; low += kBatch) {
    const pg::Rows rows =
        must(fmt::format("SELECT a.id, a.title, a.visible, a.display_at, " LONGREAD_PG_BODY_COLUMNS
                         " FROM articles a WHERE a.id > {} AND a.id <= {} AND ({})",
                         low, low + kBatch, where));
    ArticleTexts batch;
    for (int r = 0; r < rows.size(); ++r) {
      // A body that cannot be read is an empty text, as the site shows it.
      auto body = pg::stored_body(db.bodies(), pg::PgBodyDictionaries(conn), rows, r, 4);
      batch.ids.push_back(rows.int64(r, 0));
      batch.titles.push_back(rows.string(r, 1));
      batch.visible.push_back(rows.int64(r, 2));
      batch.display_at.push_back(rows.int64(r, 3));
      batch.texts.push_back(body ? std::move(body->text) : std::string());
    }
    if (!batch.ids.empty()) fn(batch);
  }
}

}  // namespace longread::bench
