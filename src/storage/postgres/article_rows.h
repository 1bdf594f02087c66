// How the PostgreSQL backend reads an article row with its blog's name: the column list listings select and
// the row reader that makes an ArticleView of it. The PostgreSQL form of sqlite/article_rows.h, same column
// positions, shared by the roles that list articles.
#pragma once

#include "storage/postgres/pg.h"
#include "storage/types.h"

namespace longread::storage::postgres {

// Listings read every article field except the three big ones (summary_html, content_html, text), which
// only the article page needs; a statement puts '' (or the column) for them between HEAD and TAIL, as
// `HEAD " '', '', ''," TAIL`. The excerpt is a plain column here (no compressed body).
#define LONGREAD_PG_ARTICLE_COLUMNS_HEAD \
  "a.id, a.blog_id, a.guid, a.title, a.link, a.author, a.published, a.updated, a.undated,"
#define LONGREAD_PG_ARTICLE_COLUMNS_TAIL                                                               \
  " a.first_seen, a.content_hash, a.excerpt, a.word_count, a.reading_minutes, a.category, a.junk,"     \
  " a.junk_reason, a.duplicate_of, a.keep_override, a.full_text_fetched, a.simhash, a.votes, a.score," \
  " a.truncated, a.rank_prior, b.title, b.site_url, b.category, a.full_text_error"
#define LONGREAD_PG_ARTICLE_LIST_COLUMNS \
  LONGREAD_PG_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL
#define LONGREAD_PG_ARTICLE_FROM " FROM articles a JOIN blogs b ON b.id = a.blog_id"

// Columns of the lists above; a statement's own columns come after them.
inline constexpr int kArticleColumnCount = 32;

// The ArticleView of row `row` of a result selected with the columns above.
ArticleView read_article_view(const Rows& rows, int row);

}  // namespace longread::storage::postgres
