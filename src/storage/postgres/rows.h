// Row mappings and small statements several PostgreSQL role classes share.
#pragma once

#include <string_view>

#include "core/error.h"
#include "model/model.h"
#include "storage/article_body.h"
#include "storage/postgres/pg.h"
#include "storage/types.h"

namespace longread::storage::postgres {

// The columns read_blog reads, in its order, from `blogs b`. article_count is the kept count of visible
// articles.
#define LONGREAD_PG_BLOG_COLUMNS                                                                        \
  "b.id, b.feed_url, b.site_url, b.title, b.author, b.category, b.short_form, b.etag, b.last_modified," \
  " b.last_attempt_at, b.last_success_at, b.next_due_at, b.consecutive_failures, b.last_status,"        \
  " b.last_error, b.last_error_at, b.visible_articles, b.feed_update_minutes, b.paused, b.crashes,"     \
  " b.quarantined, b.allowed_hosts"
inline constexpr int kBlogColumnCount = 22;

// An article row with its blog's name, as every listing selects it. Listings select '' for the three big
// columns (summary_html, content_html, text), which only the article page needs:
//   "SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL
//   LONGREAD_PG_ARTICLE_FROM
// and a reader that needs them adds LONGREAD_PG_BODY_PARTS after the tail and reads them with
// read_article_body (article_bodies.h). The first 32 are SQLite's positions; the last is the packed body,
// which holds the excerpt (article_bodies.h).
#define LONGREAD_PG_ARTICLE_COLUMNS_HEAD \
  "a.id, a.blog_id, a.guid, a.title, a.link, a.author, a.published, a.updated, a.undated,"
#define LONGREAD_PG_ARTICLE_COLUMNS_TAIL                                                               \
  " a.first_seen, a.content_hash, a.excerpt, a.word_count, a.reading_minutes, a.category, a.junk,"     \
  " a.junk_reason, a.duplicate_of, a.keep_override, a.full_text_fetched, a.simhash, a.votes, a.score," \
  " a.truncated, a.rank_prior, b.title, b.site_url, b.category, a.full_text_error, a.body"
#define LONGREAD_PG_ARTICLE_FROM " FROM articles a JOIN blogs b ON b.id = a.blog_id"
// Columns of the lists above; a statement's own columns come after them.
inline constexpr int kArticleColumnCount = 33;
// Where the packed body is among them.
inline constexpr int kArticleFrameColumn = 32;

// The ArticleView of row `row`, selected with the article columns above, as the row has it: the excerpt is
// '' where the frame holds it. For a reader that unpacks the frame anyway (read_article_body).
ArticleView read_article_fields(const Rows& rows, int row);
// The same, its excerpt unpacked with the dictionaries of `source`. A frame that cannot be read lists its
// article with no excerpt, as on SQLite: one bad row never fails a page.
ArticleView read_article_view(const Rows& rows, int row, BodyDictionaries& bodies,
                              const BodyDictionarySource& source);

// Row `row` of `rows`, selected with LONGREAD_PG_BLOG_COLUMNS from column `first` on.
model::Blog read_blog(const Rows& rows, int row, int first = 0);

// Adds category `slug` (named from the slug) unless it exists.
Result<void> ensure_category(Connection& conn, std::string_view slug);

}  // namespace longread::storage::postgres
