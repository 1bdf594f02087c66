// The titles and texts of a PostgreSQL database's articles as the site reads them (a packed body
// decompressed), in batches by id: for benches and scripts that count or index the words themselves, since
// the database keeps only their ids (docs/storage.md, "Word ids").
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "storage/postgres/database.h"
#include "storage/postgres/pg.h"

namespace longread::bench {

struct ArticleTexts {
  std::vector<std::int64_t> ids;
  std::vector<std::string> titles;
  std::vector<std::string> texts;  // the texts alone, without their titles
  std::vector<std::int64_t> visible;
  std::vector<std::int64_t> display_at;
};

// Calls `fn` with the articles `where` selects (an SQL condition on `articles a`), 2,000 ids at a time,
// oldest first. Exits the process with the server's message on an error (a bench has nothing to recover).
void for_each_article_text(storage::postgres::Connection& conn, storage::postgres::Database& db,
                           const std::string& where, const std::function<void(const ArticleTexts&)>& fn);

}  // namespace longread::bench
