// How the SQLite backend reads an article row with its blog's name: the column list every listing selects
// and the row reader that makes an ArticleView of it. Internal to the SQLite backend.
#pragma once

#include "storage/sqlite/handles.h"
#include "storage/store.h"

namespace longread::storage::sqlite {

// Listings read every article field except the three big ones (summary_html, content_html, text), which
// only the article page needs: a page of 30 would otherwise carry megabytes. Same column positions as the
// full form, so one row reader serves both. The excerpt is in the compressed body (migration 0021): one
// decompression per listed row, ~15 us (docs/perf.md, "Compact store").
#define LONGREAD_ARTICLE_COLUMNS_HEAD \
  "a.id, a.blog_id, a.guid, a.title, a.link, a.author, a.published, a.updated, a.undated,"
#define LONGREAD_ARTICLE_COLUMNS_TAIL                                                                  \
  " a.first_seen, a.content_hash, longread_body_part_or_empty(a.body, 3, a.excerpt), a.word_count, "   \
  "a.reading_minutes, a.category, a.junk,"                                                             \
  " a.junk_reason, a.duplicate_of, a.keep_override, a.full_text_fetched, a.simhash, a.votes, a.score," \
  " a.truncated, a.rank_prior, b.title, b.site_url, b.category, a.full_text_error"
#define LONGREAD_ARTICLE_FROM " FROM articles a JOIN blogs b ON b.id = a.blog_id"

// Columns of the lists above; a statement's own columns come after them.
inline constexpr int kArticleColumnCount = 32;

// The ArticleView of a row selected with the columns above.
ArticleView read_article_view(const Query& q);

}  // namespace longread::storage::sqlite
