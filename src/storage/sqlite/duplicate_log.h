// The near-duplicate decision's reads and writes on SQLite (DuplicateDecision, migration 0033), on the
// writer connection inside save_crawls' transaction. SQLite lets one write transaction at a time into the
// file, across processes, so that transaction is the decision's lock. Internal to the SQLite backend.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "storage/roles/article_store.h"
#include "storage/sqlite/handles.h"

namespace longread::storage::sqlite {

// A blog's stored articles (ArticleStore::article_keys), on `db`.
Result<std::vector<StoredArticleKey>> read_article_keys(Connection& db, std::int64_t blog_id);
// Each (article, original) pair marked a duplicate (ArticleStore::mark_duplicates), on `db`, in the caller's
// transaction.
Result<void> write_duplicate_marks(Connection& db,
                                   std::span<const std::pair<std::int64_t, std::int64_t>> marks);
// The near-duplicate log's newest place, 0 when it is empty.
Result<std::int64_t> read_log_head(Connection& db);

class SqliteDuplicateDecision final : public DuplicateDecision {
 public:
  explicit SqliteDuplicateDecision(Connection& db) : db_(db) {}

  Result<std::vector<StoredArticleKey>> article_keys(std::int64_t blog_id) override;
  Result<LoggedOriginals> originals_since(std::int64_t after_seq) override;
  Result<std::int64_t> log_originals(std::span<const std::int64_t> ids) override;
  Result<void> mark_duplicates(std::span<const std::pair<std::int64_t, std::int64_t>> marks) override;

 private:
  Connection& db_;
};

}  // namespace longread::storage::sqlite
