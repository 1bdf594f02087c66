// The ArticleStore role (storage/roles/article_store.h) on PostgreSQL.
#pragma once

#include <atomic>

#include "storage/postgres/database.h"
#include "storage/roles/article_store.h"

namespace longread::storage::postgres {

// Every original's id, blog, SimHash and date, which a crawler reads when it starts a pass (simhash_index):
// answered from the index articles_originals alone (migration 0020), whose predicate this repeats.
inline constexpr const char* kSelectOriginals =
    "SELECT id, blog_id, simhash, display_at FROM articles WHERE duplicate_of IS NULL AND simhash <> 0";

class PgArticleStore : public virtual ArticleStore {
 public:
  explicit PgArticleStore(Database& db) noexcept : db_(db) {}

  Result<std::vector<StoredArticleKey>> article_keys(std::int64_t blog_id) override;
  Result<SaveStats> save_crawl(const CrawlRecord& record) override;
  using ArticleStore::save_crawls;
  Result<std::vector<Result<SaveStats>>> save_crawls(std::span<const CrawlRecord> records,
                                                     const DecideDuplicates& decide) override;
  Result<void> prepare_crawl(CrawlRecord& record) override;
  Result<std::int64_t> count_recent_articles(std::int64_t blog_id, TimePoint since) override;
  Result<std::optional<ArticleView>> article(std::int64_t id) override;
  Result<std::vector<ArticleView>> articles(const ArticleQuery& query) override;
  Result<std::int64_t> count_articles(const ArticleQuery& query) override;
  Result<ArticlePage> article_page(const ArticleQuery& query) override;
  Result<HotPage> hot_page(const HotPageQuery& query) override;
  Result<std::vector<SearchHit>> search(std::string_view query, int limit, int offset,
                                        const std::optional<ReaderFilter>& reader) override;
  Result<std::vector<model::Category>> categories() override;
  Result<std::int64_t> article_count() override;
  Result<void> set_keep_override(std::int64_t article_id, std::optional<bool> keep) override;
  Result<std::int64_t> set_verdicts(std::span<const VerdictUpdate> updates) override;
  Result<std::int64_t> set_texts(std::span<const TextUpdate> updates) override;
  Result<CompactBatch> compact_bodies(const CompactOptions& options) override;
  Result<std::optional<std::uint32_t>> train_first_body_dictionary() override;
  Result<std::vector<SimhashEntry>> simhash_index() override;
  Result<std::int64_t> near_duplicate_log_head() override;
  Result<void> mark_duplicates(std::span<const std::pair<std::int64_t, std::int64_t>> marks) override;
  Result<std::vector<ArticleView>> recent_junk(int limit) override;
  Result<std::vector<ArticleView>> near_misses(TimePoint since, int limit) override;

 private:
  Result<std::optional<std::uint32_t>> train_body_dictionary(Connection& conn);
  // Whether a save may have its statements planned once for every value: once the server's statistics
  // count kGenericPlanRows articles or more (generic_plans_fit).
  Result<bool> generic_plans_fit(Connection& conn);
  Database& db_;
  std::atomic<bool> generic_plans_fit_{false};
};

}  // namespace longread::storage::postgres
