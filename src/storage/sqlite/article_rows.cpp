#include "storage/sqlite/article_rows.h"

#include <bit>

namespace longread::storage::sqlite {
ArticleView read_article_view(const Query& q) {
  ArticleView v;
  model::Article& a = v.article;
  a.id = q.int64(0);
  a.blog_id = q.int64(1);
  a.guid = q.text(2);
  a.title = q.text(3);
  a.link = q.text(4);
  a.author = q.text(5);
  a.published = optional_time(q, 6);
  a.updated = optional_time(q, 7);
  a.undated = q.int64(8) != 0;
  a.summary_html = q.text(9);
  a.content_html = q.text(10);
  a.text = q.text(11);
  a.first_seen = from_unix(q.int64(12));
  a.content_hash = q.text(13);
  a.excerpt = q.text(14);
  a.word_count = q.integer(15);
  a.reading_minutes = q.integer(16);
  a.category = q.text(17);
  a.junk = q.int64(18) != 0;
  a.junk_reason = q.text(19);
  a.duplicate_of = q.optional_int64(20);
  if (!q.is_null(21)) a.keep_override = q.int64(21) != 0;
  a.full_text_fetched = q.int64(22) != 0;
  a.simhash = std::bit_cast<std::uint64_t>(q.int64(23));
  a.votes = q.integer(24);
  a.score = q.real(25);
  a.truncated = q.int64(26) != 0;
  a.rank_prior = q.real(27);
  v.blog_title = q.text(28);
  v.blog_site_url = q.text(29);
  v.blog_category = q.text(30);
  a.full_text_error = q.text(31);
  return v;
}

}  // namespace longread::storage::sqlite
