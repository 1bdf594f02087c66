#include "storage/postgres/article_rows.h"

#include <bit>

namespace longread::storage::postgres {

ArticleView read_article_view(const Rows& rows, int r) {
  ArticleView v;
  model::Article& a = v.article;
  a.id = rows.int64(r, 0);
  a.blog_id = rows.int64(r, 1);
  a.guid = rows.string(r, 2);
  a.title = rows.string(r, 3);
  a.link = rows.string(r, 4);
  a.author = rows.string(r, 5);
  a.published = rows.optional_time(r, 6);
  a.updated = rows.optional_time(r, 7);
  a.undated = rows.flag(r, 8);
  a.summary_html = rows.string(r, 9);
  a.content_html = rows.string(r, 10);
  a.text = rows.string(r, 11);
  a.first_seen = rows.time(r, 12);
  a.content_hash = rows.string(r, 13);
  a.excerpt = rows.string(r, 14);
  a.word_count = rows.int32(r, 15);
  a.reading_minutes = rows.int32(r, 16);
  a.category = rows.string(r, 17);
  a.junk = rows.flag(r, 18);
  a.junk_reason = rows.string(r, 19);
  a.duplicate_of = rows.optional_int64(r, 20);
  if (!rows.null(r, 21)) a.keep_override = rows.flag(r, 21);
  a.full_text_fetched = rows.flag(r, 22);
  a.simhash = std::bit_cast<std::uint64_t>(rows.int64(r, 23));
  a.votes = rows.int32(r, 24);
  a.score = rows.real(r, 25);
  a.truncated = rows.flag(r, 26);
  a.rank_prior = rows.real(r, 27);
  v.blog_title = rows.string(r, 28);
  v.blog_site_url = rows.string(r, 29);
  v.blog_category = rows.string(r, 30);
  a.full_text_error = rows.string(r, 31);
  return v;
}

}  // namespace longread::storage::postgres
