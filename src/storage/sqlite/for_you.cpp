#include "storage/sqlite/for_you.h"

#include <fmt/format.h>

#include <string>

#include "core/time.h"
#include "storage/sqlite/article_rows.h"
#include "storage/sqlite/personal_filters.h"

namespace longread::storage::sqlite {
namespace {

// A reader's seeds: the articles they voted for or saved, the most recent max_seeds of them.
constexpr const char* kSeeds =
    "seeds (article_id, at, saved) AS ("
    " SELECT article_id, MAX(at), MAX(saved) FROM ("
    "  SELECT article_id, created_at AS at, 0 AS saved FROM votes WHERE reader_id = :filter_reader"
    "  UNION ALL SELECT article_id, saved_at, 1 FROM reading_list WHERE reader_id = :filter_reader)"
    " GROUP BY article_id ORDER BY MAX(at) DESC, article_id DESC LIMIT :max_seeds)";

constexpr const char* kCountSeeds =
    "SELECT COUNT(*) FROM (SELECT article_id FROM votes WHERE reader_id = :reader"
    " UNION SELECT article_id FROM reading_list WHERE reader_id = :reader)";

// Each seed's stored picks, both ways: an article picked for a seed (the seed's own list, written when it
// was crawled or when a newer article beat its lowest pick), and an article that picked the seed (the
// newer article's list, written when it was crawled). A pair stored both ways counts once, at its higher
// score. A candidate's reason is the seed it is most like (SQLite takes the bare columns of a MAX()
// aggregate from the row with the maximum); its score is the sum over every seed it is like, so an article
// like several of the reader's choices comes first.
std::string for_you_sql(const ReaderFilter& filter) {
  return fmt::format(
      "WITH {}, edges (seed, candidate, score, shared) AS ("
      " SELECT s.article_id, x.similar_id, x.score, x.shared FROM seeds s"
      "  JOIN similar_articles x ON x.article_id = s.article_id"
      " UNION ALL SELECT s.article_id, x.article_id, x.score, x.shared FROM seeds s"
      "  JOIN similar_articles x ON x.similar_id = s.article_id),"
      " pairs (seed, candidate, score, shared) AS ("
      " SELECT seed, candidate, MAX(score), shared FROM edges GROUP BY seed, candidate),"
      " best (candidate, top, seed, shared, total) AS ("
      " SELECT candidate, MAX(score), seed, shared, SUM(score) FROM pairs GROUP BY candidate)"
      " SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL
      ", best.total, best.seed, best.shared, seed_article.title, seed_article.blog_id, seeds.saved"
      " FROM best JOIN articles a ON a.id = best.candidate JOIN blogs b ON b.id = a.blog_id"
      " JOIN seeds ON seeds.article_id = best.seed JOIN articles seed_article ON seed_article.id = best.seed"
      " WHERE a.visible = 1 AND a.display_at >= :since"
      " AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.reader_id = :filter_reader AND v.article_id = a.id)"
      " AND NOT EXISTS (SELECT 1 FROM reading_list r WHERE r.reader_id = :filter_reader AND r.article_id = "
      "a.id)"
      "{}"
      " ORDER BY best.total DESC, a.display_at DESC, a.id DESC LIMIT :limit",
      kSeeds, reader_filter_sql(filter));
}

}  // namespace

Result<ForYou> for_you(Connection& db, const ForYouQuery& query) {
  ForYou out;
  {
    auto q = db.query(kCountSeeds);
    if (!q) return db_error("cannot read the reader's votes and saves", q.error());
    q->bind(":reader", query.reader_id);
    auto row = q->step();
    if (!row) return db_error("cannot read the reader's votes and saves", row.error());
    if (*row) out.seeds = q->int64(0);
  }
  // Read articles are always left out: the page is for what the reader has not read yet.
  ReaderFilter filter{.reader_id = query.reader_id, .hide_read = true};
  auto q = db.query(for_you_sql(filter));
  if (!q) return db_error("cannot read picks for a reader", q.error());
  bind_reader_filter(*q, filter);
  q->bind(":max_seeds", query.max_seeds).bind(":since", to_unix(query.since)).bind(":limit", query.limit);
  for (;;) {
    auto row = q->step();
    if (!row) return db_error("cannot read picks for a reader", row.error());
    if (!*row) break;
    ForYouPick pick;
    pick.article = read_article_view(*q);
    pick.score = q->real(kArticleColumnCount);
    pick.because.id = q->int64(kArticleColumnCount + 1);
    pick.shared = q->text(kArticleColumnCount + 2);
    pick.because.title = q->text(kArticleColumnCount + 3);
    pick.because.blog_id = q->int64(kArticleColumnCount + 4);
    pick.because_saved = q->int64(kArticleColumnCount + 5) != 0;
    out.picks.push_back(std::move(pick));
  }
  return out;
}

}  // namespace longread::storage::sqlite
