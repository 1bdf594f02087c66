// Saving one crawl record on PostgreSQL (ArticleStore::save_crawls): the blog's articles inserted, updated or
// left, its crawl state, and its budgets, inside the caller's transaction.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "core/error.h"
#include "storage/article_body.h"
#include "storage/postgres/pg.h"
#include "storage/postgres/search_vectors.h"
#include "storage/types.h"

namespace longread::storage::postgres {

// New visible articles per blog and per category, written once per save group. Written in key order, so
// two crawlers saving at once lock the shared category rows in the same order and never deadlock.
class VisibleCounts {
 public:
  void count(std::int64_t blog_id, const std::string& category) {
    ++by_blog_[blog_id];
    ++by_category_[category];
  }
  void add(const VisibleCounts& other);
  Result<void> write(Connection& conn) const;

 private:
  std::map<std::int64_t, std::int64_t> by_blog_;
  std::map<std::string, std::int64_t> by_category_;
};

// One record's statements; its new visible articles are added to `counts`. Its articles' search vectors and
// packed bodies are the record's prepared ones (CrawlRecord::prepared_search, prepared_bodies), or made with
// `tokenizer`, `common` and `bodies` as they are written.
Result<SaveStats> save_record(Connection& conn, const CrawlRecord& record, VisibleCounts& counts,
                              const SearchTokenizer& tokenizer, const CommonWords& common,
                              BodyDictionaries& bodies);

}  // namespace longread::storage::postgres
