// The near-duplicate decision's reads and writes on PostgreSQL (DuplicateDecision, migration 0006), on the
// connection of save_crawls' transaction, under a transaction-scoped advisory lock that every crawler
// process takes for its decision and that the commit (or a dead connection) gives back.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "storage/postgres/pg.h"
#include "storage/roles/article_store.h"

namespace longread::storage::postgres {

// The advisory lock's key ("neardupl" in ASCII), apart from the migrations' and the similar articles' keys.
inline constexpr std::int64_t kNearDuplicateLock = 0x6e6561726475706c;

// A blog's stored articles, read from the (blog_id, guid) key alone (migration 0022: it carries the other
// columns).
inline constexpr const char* kSelectArticleKeys =
    "SELECT id, guid, content_hash, full_text_fetched, full_text_failures FROM articles"
    " WHERE blog_id = :blog_id";

// Drops the oldest places, from the oldest still there (:first) to :last_dropped. The lower bound is what
// lets the planner see the few rows it drops: the log's statistics are of places a crawl has long dropped,
// and for `seq <= :last_dropped` alone it guessed the whole log and read every row of it in each save
// (16 ms a save under the decision's lock, over the whole Kagi Small Web list; docs/perf.md, "The
// near-duplicate log pruned by its key").
inline constexpr const char* kPruneLog =
    "DELETE FROM near_duplicate_log WHERE seq >= :first AND seq <= :last_dropped";

// The newest place of the near-duplicate log and its oldest (0 and 0 when it is empty).
struct LogEnds {
  std::int64_t head = 0;
  std::int64_t tail = 0;
};
Result<LogEnds> read_log_ends(Connection& conn);

// A blog's stored articles (ArticleStore::article_keys), on `conn`.
Result<std::vector<StoredArticleKey>> read_article_keys(Connection& conn, std::int64_t blog_id);
// Each (article, original) pair marked a duplicate (ArticleStore::mark_duplicates), on `conn`, in the
// caller's transaction.
Result<void> write_duplicate_marks(Connection& conn,
                                   std::span<const std::pair<std::int64_t, std::int64_t>> marks);
// The near-duplicate log's newest place, 0 when it is empty.
Result<std::int64_t> read_log_head(Connection& conn);
// Takes the decision's lock for the rest of the caller's transaction, waiting at most two minutes for a
// holder (a live process: a dead one's connection, and so its lock, is gone).
Result<void> lock_for_decision(Connection& conn);

class PgDuplicateDecision final : public DuplicateDecision {
 public:
  explicit PgDuplicateDecision(Connection& conn) : conn_(conn) {}

  Result<std::vector<StoredArticleKey>> article_keys(std::int64_t blog_id) override;
  Result<LoggedOriginals> originals_since(std::int64_t after_seq) override;
  Result<std::int64_t> log_originals(std::span<const std::int64_t> ids) override;
  Result<void> mark_duplicates(std::span<const std::pair<std::int64_t, std::int64_t>> marks) override;

 private:
  Connection& conn_;
};

}  // namespace longread::storage::postgres
