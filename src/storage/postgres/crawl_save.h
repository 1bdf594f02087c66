// Saving one crawl record on PostgreSQL (ArticleStore::save_crawls): the blog's articles inserted, updated or
// left, its crawl state, and its budgets, inside the caller's transaction.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

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

// The blog's category and the stored rows of the guids a record brings, in one statement: no row at all is no
// blog. The articles' side is read from the (blog_id, guid) key alone (migration 0022).
inline constexpr const char* kSelectKnownGuids =
    "SELECT b.category, a.guid, a.id, a.content_hash FROM blogs b LEFT JOIN articles a"
    " ON a.blog_id = b.id AND a.guid = ANY(:guids::text[]) WHERE b.id = :blog_id";

// Whether saving `record` writes its blog's row alone (and prunes its hidden bodies): no articles and no
// redirect, as an unchanged feed (304) or a failed poll gives, most records of an hourly pass.
bool writes_blog_state_only(const CrawlRecord& record);

// The blog states of `records` (each writes_blog_state_only) and the hidden bodies their budgets prune, in
// one round trip, where save_record takes four a record: its results are save_record's. A record whose blog
// does not exist gets kNotFound and changed nothing. Any other error is the call's, and the caller's
// transaction (or savepoint) must be rolled back.
Result<std::vector<Result<SaveStats>>> save_blog_states(Connection& conn,
                                                        std::span<const CrawlRecord* const> records);

// One record's statements; its new visible articles are added to `counts`. Its articles' search vectors and
// packed bodies are the record's prepared ones (CrawlRecord::prepared_search, prepared_bodies), or made with
// `tokenizer`, `common` and `bodies` as they are written.
Result<SaveStats> save_record(Connection& conn, const CrawlRecord& record, VisibleCounts& counts,
                              const SearchTokenizer& tokenizer, const CommonWords& common,
                              BodyDictionaries& bodies);

}  // namespace longread::storage::postgres
