// The blogs role of the Store: the followed blogs, their crawl state, the crawlers' claims and parsing marks,
// their health and lifecycle (docs/storage.md, "Roles").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "model/model.h"
#include "storage/types.h"

namespace longread::storage {

// Followed blogs and their crawl state: what the crawler polls, which crawler holds a blog, crash
// quarantine, retirement and moves, and the operator's edits.
// Every method is safe to call from several threads; implementations serialise as needed.
class BlogStore {
 public:
  virtual ~BlogStore() = default;

  virtual Result<std::int64_t> upsert_blog(const BlogSeed& seed) = 0;
  virtual Result<std::optional<model::Blog>> blog(std::int64_t id) = 0;
  virtual Result<std::vector<model::Blog>> blogs() = 0;  // with article_count
  // Blogs due at `now`, paused ones and those another crawler has claimed left out.
  virtual Result<std::vector<model::Blog>> due_blogs(TimePoint now) = 0;
  // Claims for `owner` (one crawler process) the blogs due at `now`, at most `limit` of them in due order
  // (0: every one), until `lease_until`, in one transaction, and returns them. Several crawler processes
  // over one database each get blogs no other one holds: a claimed blog is not due for anyone until its
  // poll is recorded (which ends the claim), its owner gives it back, or the claim lapses at
  // `lease_until` (its crawler died) and another crawler takes it over.
  virtual Result<std::vector<model::Blog>> claim_due_blogs(std::string_view owner, TimePoint now,
                                                           TimePoint lease_until, int limit) = 0;
  // Gives back every claim `owner` still holds (the end of its pass): a blog it did not record is due again
  // at once.
  virtual Result<void> release_blog_claims(std::string_view owner) = 0;
  virtual Result<std::int64_t> blog_count() = 0;
  // The blog whose feed URL is exactly `feed_url` (as stored: after any permanent redirect), if any.
  virtual Result<std::optional<model::Blog>> blog_by_feed_url(std::string_view feed_url) = 0;
  // Applies `edit` in one transaction and returns the blog as it is afterwards. A new category re-files the
  // blog's articles that took its category (not those the classifier filed elsewhere), and a category left
  // with no blog and no article is dropped. kNotFound for an unknown blog; kConflict when the new feed URL
  // is another blog's.
  virtual Result<model::Blog> edit_blog(std::int64_t blog_id, const BlogEdit& edit) = 0;

  // --- crash quarantine (migration 0015, docs/fetch.md "Quarantine"). Each is one statement, committed
  // at once: the mark must be on disk before the parse it covers starts.
  // Marks `blog_id` as being parsed by `owner` since `since` (replacing any mark).
  virtual Result<void> mark_parsing(std::int64_t blog_id, std::string_view owner, TimePoint since) = 0;
  // Every blog that carries a mark.
  virtual Result<std::vector<ParsingMark>> parsing_marks() = 0;
  // Removes every mark of `owner` (the end of its pass; save_crawl removes a blog's mark with its result).
  virtual Result<void> clear_parsing_marks(std::string_view owner) = 0;
  // Records `crash` on its blog (crash count, quarantine, status and error, one more consecutive failure,
  // next due) and removes the mark, all only if the blog still carries exactly crash.mark; false when it
  // does not (another process recorded it first, or the blog was crawled again meanwhile).
  virtual Result<bool> record_crawler_crash(const CrawlerCrash& crash) = 0;
  // Removes a blog the operator no longer wants, with its articles (their votes, reading-list entries and
  // search entries go with them; copies elsewhere that pointed at them keep their junk verdict), in one
  // transaction. kNotFound for an unknown blog.
  virtual Result<void> delete_blog(std::int64_t blog_id) = 0;

  // Every followed blog with its health (BlogHealth), `since` bounding recent_articles; by title.
  virtual Result<std::vector<BlogHealth>> blog_health(TimePoint since) = 0;

  // --- lifecycle (migration 0026, storage/lifecycle.h judges by it).
  // Every followed blog's lifecycle, by id.
  virtual Result<std::vector<BlogLifecycle>> blog_lifecycle() = 0;
  // Retires a blog: paused (no crawl polls it), with when and why; its articles stay on the site. false
  // when it already was retired; kNotFound for an unknown blog.
  virtual Result<bool> retire_blog(std::int64_t blog_id, std::string_view reason, TimePoint now) = 0;
  // Polls a retired blog again from the next crawl (due at once). false when it was not retired.
  virtual Result<bool> unretire_blog(std::int64_t blog_id) = 0;
  // The operator accepted a move: the mark goes, the blog stays at its new feed URL. false when none.
  virtual Result<bool> clear_blog_move(std::int64_t blog_id) = 0;
};

}  // namespace longread::storage
