// The BlogStore role (storage/roles/blog_store.h) on PostgreSQL.
#pragma once

#include "storage/postgres/database.h"
#include "storage/roles/blog_store.h"

namespace longread::storage::postgres {

class PgBlogStore : public virtual BlogStore {
 public:
  explicit PgBlogStore(Database& db) noexcept : db_(db) {}

  Result<std::int64_t> upsert_blog(const BlogSeed& seed) override;
  Result<std::optional<model::Blog>> blog(std::int64_t id) override;
  Result<std::vector<model::Blog>> blogs() override;
  Result<std::vector<model::Blog>> due_blogs(TimePoint now) override;
  Result<std::vector<model::Blog>> claim_due_blogs(std::string_view owner, TimePoint now,
                                                   TimePoint lease_until, int limit) override;
  Result<void> release_blog_claims(std::string_view owner) override;
  Result<std::int64_t> blog_count() override;
  Result<std::optional<model::Blog>> blog_by_feed_url(std::string_view feed_url) override;
  Result<model::Blog> edit_blog(std::int64_t blog_id, const BlogEdit& edit) override;
  Result<void> mark_parsing(std::int64_t blog_id, std::string_view owner, TimePoint since) override;
  Result<std::vector<ParsingMark>> parsing_marks() override;
  Result<void> clear_parsing_marks(std::string_view owner) override;
  Result<bool> record_crawler_crash(const CrawlerCrash& crash) override;
  Result<void> delete_blog(std::int64_t blog_id) override;
  Result<std::vector<BlogHealth>> blog_health(TimePoint since) override;
  Result<std::vector<BlogLifecycle>> blog_lifecycle() override;
  Result<bool> retire_blog(std::int64_t blog_id, std::string_view reason, TimePoint now) override;
  Result<bool> unretire_blog(std::int64_t blog_id) override;
  Result<bool> clear_blog_move(std::int64_t blog_id) override;

 private:
  Database& db_;
};

}  // namespace longread::storage::postgres
