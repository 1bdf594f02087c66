#include "storage/postgres/crawl_save.h"

#include <algorithm>
#include <bit>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "storage/postgres/rows.h"
#include "storage/values.h"

namespace longread::storage::postgres {
namespace {

// A duplicate_of that names no stored article is dropped (NULL) instead of failing the whole crawl.
#define LONGREAD_PG_DUPLICATE_OF "(SELECT d.id FROM articles d WHERE d.id = :duplicate_of::bigint)"

// score and search_vector are generated columns: derived from votes, dates and texts.
constexpr const char* kInsertArticle =
    "INSERT INTO articles (blog_id, guid, title, link, author, published, updated, undated, summary_html,"
    " content_html, text, excerpt, first_seen, display_at, content_hash, word_count, reading_minutes, "
    "category,"
    " category_from_blog, junk, junk_reason, duplicate_of, keep_override, visible, full_text_fetched,"
    " full_text_failures, full_text_error, simhash, votes, truncated, rank_prior)"
    " VALUES (:blog_id, :guid, :title, :link, :author, :published, :updated, :undated, :summary_html,"
    " :content_html, :text, :excerpt, :first_seen, :display_at, :content_hash, :word_count, :reading_minutes,"
    " :category, :category_from_blog, :junk, :junk_reason, " LONGREAD_PG_DUPLICATE_OF
    ", :keep_override, :visible, :full_text_fetched, :full_text_failures, :full_text_error, :simhash, :votes,"
    " :truncated, :rank_prior)";

// Content changed: everything the feed and curation say is replaced; id, votes, score, first_seen and
// the operator's keep_override stay.
constexpr const char* kUpdateArticle =
    "UPDATE articles SET title = :title, link = :link, author = :author, published = :published,"
    " updated = :updated, undated = :undated, summary_html = :summary_html, content_html = :content_html,"
    " text = :text, excerpt = :excerpt, display_at = COALESCE(:published, first_seen),"
    " content_hash = :content_hash, word_count = :word_count, reading_minutes = :reading_minutes,"
    " category = :category, category_from_blog = :category_from_blog, junk = :junk, junk_reason = "
    ":junk_reason,"
    " duplicate_of = " LONGREAD_PG_DUPLICATE_OF
    ", visible = CASE WHEN held = 1 THEN 0 WHEN keep_override IS NULL THEN 1 - :junk ELSE keep_override END,"
    " full_text_fetched = :full_text_fetched, full_text_failures = :full_text_failures,"
    " full_text_error = :full_text_error, simhash = :simhash, truncated = :truncated, pruned_at = NULL,"
    " rank_prior = :rank_prior"
    " WHERE id = :id";

// Content unchanged but curation given again (a full-text page tried again): refresh it, with the page's
// HTML when it was read, writing only on a difference. The summary stays as stored.
constexpr const char* kRefreshCuration =
    "UPDATE articles SET content_html = :content_html, text = :text, excerpt = :excerpt,"
    " word_count = :word_count, reading_minutes = :reading_minutes, category = :category,"
    " category_from_blog = :category_from_blog, junk = :junk, junk_reason = :junk_reason,"
    " duplicate_of = " LONGREAD_PG_DUPLICATE_OF
    ", visible = CASE WHEN held = 1 THEN 0 WHEN keep_override IS NULL THEN 1 - :junk ELSE keep_override END,"
    " full_text_fetched = :full_text_fetched, full_text_failures = :full_text_failures,"
    " full_text_error = :full_text_error, simhash = :simhash, pruned_at = NULL, rank_prior = :rank_prior"
    " WHERE id = :id AND NOT (content_html = :content_html AND text = :text AND excerpt = :excerpt"
    " AND word_count = :word_count AND reading_minutes = :reading_minutes AND category = :category"
    " AND junk = :junk AND junk_reason = :junk_reason"
    " AND duplicate_of IS NOT DISTINCT FROM " LONGREAD_PG_DUPLICATE_OF
    " AND full_text_fetched = :full_text_fetched AND full_text_failures = :full_text_failures"
    " AND full_text_error = :full_text_error AND simhash = :simhash AND rank_prior = :rank_prior)";

constexpr const char* kUpdateBlogCrawlState =
    "UPDATE blogs SET last_attempt_at = :attempted_at,"
    " last_success_at = CASE WHEN :success::integer = 1 THEN :attempted_at ELSE last_success_at END,"
    " last_status = :status, last_error = :error,"
    " last_error_at = CASE WHEN :success::integer = 1 THEN last_error_at ELSE :attempted_at END,"
    " next_due_at = :next_due_at, consecutive_failures = :consecutive_failures,"
    " etag = COALESCE(:etag::text, etag), last_modified = COALESCE(:last_modified::text, last_modified),"
    " feed_update_minutes = CASE WHEN :feed_update_minutes::bigint IS NULL THEN feed_update_minutes"
    "  ELSE NULLIF(:feed_update_minutes::bigint, 0) END,"
    " title = CASE WHEN title = '' THEN :feed_title ELSE title END,"
    " site_url = CASE WHEN site_url = '' THEN :site_url ELSE site_url END,"
    " author = CASE WHEN author = '' THEN :author ELSE author END,"
    // The result is saved: the parse it covered is over. A feed body read without a crash (a 200, the one
    // case that sets validators) ends a crash streak; a 304 parses nothing, so proves nothing.
    " parsing_by = '', parsing_since = NULL,"
    // Recorded: whichever crawler claimed the blog for this poll is done with it.
    " claimed_by = '', claimed_until = NULL,"
    " crashes = CASE WHEN :success::integer = 1 AND :etag::text IS NOT NULL THEN 0 ELSE crashes END"
    " WHERE id = :blog_id";

// A permanent redirect onto a feed URL another blog already has is not applied (it would break the unique
// feed URL); the crawl is still saved. The URL it replaces and when are kept for the "moved" list.
constexpr const char* kRedirectBlog =
    "UPDATE blogs SET feed_url = :feed_url, moved_from = feed_url, moved_at = :now WHERE id = :blog_id"
    " AND NOT EXISTS (SELECT 1 FROM blogs o WHERE o.feed_url = :feed_url)";

// What a blog over its cap may lose, in the order it loses it: hidden (junk) first, then the oldest. Never an
// article with a vote, on a reading list, kept by the operator or held by readers' flags.
constexpr const char* kSelectPruneCandidates =
    "SELECT a.id, a.guid FROM articles a WHERE a.blog_id = :blog_id AND a.votes = 0"
    " AND (a.keep_override IS NULL OR a.keep_override = 0) AND a.held = 0"
    " AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.article_id = a.id)"
    " AND NOT EXISTS (SELECT 1 FROM reading_list r WHERE r.article_id = a.id)"
    " ORDER BY a.visible, a.display_at, a.id LIMIT :limit";

// Hidden articles past curate.junk_retention_days keep their row (guid, content hash, verdict) and lose the
// bodies; a held one keeps them (an operator's "keep" shows it again, whole).
constexpr const char* kPruneHiddenBodies =
    "UPDATE articles SET summary_html = '', content_html = '', text = '', excerpt = '', pruned_at = :now"
    " WHERE blog_id = :blog_id AND visible = 0 AND pruned_at IS NULL AND first_seen < :before AND held = 0";

Result<void> save_article(Connection& conn, const CrawlRecord& record, const std::string& blog_category,
                          const model::Article& article, SaveStats& stats, VisibleCounts& counts) {
  const std::string hash = effective_content_hash(article);
  const bool from_blog = article.category.empty() || article.category == blog_category;
  const std::string& category = from_blog ? blog_category : article.category;
  if (!from_blog) {
    if (auto ok = ensure_category(conn, category); !ok) return ok;
  }

  Query identity(conn, "SELECT id, content_hash FROM articles WHERE blog_id = :blog_id AND guid = :guid");
  identity.bind(":blog_id", record.blog_id).bind(":guid", article.guid);
  auto existing = identity.run();
  if (!existing) return std::unexpected(existing.error());

  auto bind_curation = [&](Query& q) {
    q.bind(":text", article.text).bind(":excerpt", article.excerpt).bind(":word_count", article.word_count);
    q.bind(":reading_minutes", article.reading_minutes).bind(":category", category);
    q.bind(":category_from_blog", from_blog).bind(":junk", article.junk);
    q.bind(":junk_reason", article.junk_reason).bind(":duplicate_of", article.duplicate_of);
    q.bind(":full_text_fetched", article.full_text_fetched);
    q.bind(":full_text_failures", article.full_text_failures);
    q.bind(":full_text_error", article.full_text_error);
    q.bind(":simhash", std::bit_cast<std::int64_t>(article.simhash));
    q.bind(":rank_prior", article.rank_prior);
  };
  auto bind_content = [&](Query& q) {
    q.bind(":title", article.title).bind(":link", article.link).bind(":author", article.author);
    q.bind(":published", article.published).bind(":updated", article.updated);
    q.bind(":undated", article.undated).bind(":summary_html", article.summary_html);
    q.bind(":content_html", article.content_html).bind(":content_hash", hash);
    q.bind(":truncated", article.truncated);
  };

  if (existing->empty()) {
    Query q(conn, kInsertArticle);
    const TimePoint first_seen = article.first_seen == TimePoint{} ? record.attempted_at : article.first_seen;
    const bool visible = article.keep_override ? *article.keep_override : !article.junk;
    bind_content(q);
    bind_curation(q);
    q.bind(":blog_id", record.blog_id).bind(":guid", article.guid);
    q.bind(":first_seen", first_seen).bind(":display_at", article.published.value_or(first_seen));
    std::optional<std::int64_t> keep;
    if (article.keep_override) keep = *article.keep_override ? 1 : 0;
    q.bind(":keep_override", keep).bind(":visible", visible).bind(":votes", article.votes);
    if (auto ok = q.run(); !ok) return std::unexpected(ok.error());
    if (visible) counts.count(record.blog_id, category);
    ++stats.inserted;
    return {};
  }
  const std::int64_t id = existing->int64(0, 0);
  if (existing->text(0, 1) != hash) {
    Query q(conn, kUpdateArticle);
    bind_content(q);
    bind_curation(q);
    q.bind(":id", id);
    if (auto ok = q.run(); !ok) return std::unexpected(ok.error());
    ++stats.updated;
    return {};
  }
  // Unchanged. A record that carries curation (non-empty text) may refresh it; one without keeps it.
  if (!article.text.empty()) {
    Query q(conn, kRefreshCuration);
    bind_curation(q);
    q.bind(":content_html", article.content_html).bind(":id", id);
    if (auto ok = q.run(); !ok) return std::unexpected(ok.error());
  }
  ++stats.unchanged;
  return {};
}

Result<void> save_blog_state(Connection& conn, const CrawlRecord& record) {
  Query q(conn, kUpdateBlogCrawlState);
  // A failure without a separate error text records its status ("HTTP 404") as the error.
  std::string_view error;
  if (!record.success) error = record.error.empty() ? record.status : record.error;
  q.bind(":attempted_at", record.attempted_at).bind(":success", record.success);
  q.bind(":status", record.status).bind(":error", error);
  q.bind(":next_due_at", record.next_due_at);
  q.bind(":consecutive_failures", record.consecutive_failures);
  q.bind(":etag", record.etag).bind(":last_modified", record.last_modified);
  std::optional<std::int64_t> feed_update_minutes;
  if (record.feed_update_interval)
    feed_update_minutes = std::max<std::int64_t>(0, record.feed_update_interval->count());
  q.bind(":feed_update_minutes", feed_update_minutes);
  q.bind(":feed_title", record.feed_title).bind(":site_url", record.site_url).bind(":author", record.author);
  q.bind(":blog_id", record.blog_id);
  if (auto ok = q.run(); !ok) return std::unexpected(ok.error());

  if (record.new_feed_url && !record.new_feed_url->empty()) {
    Query r(conn, kRedirectBlog);
    r.bind(":feed_url", *record.new_feed_url)
        .bind(":blog_id", record.blog_id)
        .bind(":now", record.attempted_at);
    if (auto ok = r.run(); !ok) return std::unexpected(ok.error());
  }
  return {};
}

// CrawlRecord's budgets, after the record's articles are written. The rows this crawl inserted carry guids
// of the feed, so they are never deleted here.
Result<void> apply_budgets(Connection& conn, const CrawlRecord& record, SaveStats& stats) {
  if (record.prune_hidden_before) {
    Query q(conn, kPruneHiddenBodies);
    q.bind(":blog_id", record.blog_id).bind(":before", *record.prune_hidden_before);
    q.bind(":now", record.attempted_at);
    auto pruned = q.run();
    if (!pruned) return std::unexpected(pruned.error());
    stats.bodies_pruned = static_cast<int>(pruned->affected());
  }
  if (record.max_articles <= 0 || stats.inserted == 0) return {};
  Query count(conn, "SELECT COUNT(*) FROM articles WHERE blog_id = :blog_id");
  count.bind(":blog_id", record.blog_id);
  auto rows = count.run();
  if (!rows) return std::unexpected(rows.error());
  const std::int64_t total = rows->int64(0, 0);
  if (total <= record.max_articles) return {};
  const auto excess = static_cast<std::size_t>(total - record.max_articles);
  const std::unordered_set<std::string_view> in_feed(record.feed_guids.begin(), record.feed_guids.end());
  Query candidates(conn, kSelectPruneCandidates);
  // The feed's own guids are skipped, so read that many more than the excess.
  candidates.bind(":blog_id", record.blog_id)
      .bind(":limit", static_cast<std::int64_t>(excess + record.feed_guids.size()));
  auto found = candidates.run();
  if (!found) return std::unexpected(found.error());
  std::vector<std::int64_t> doomed;
  for (int r = 0; r < found->size() && doomed.size() < excess; ++r) {
    if (!in_feed.contains(found->text(r, 1))) doomed.push_back(found->int64(r, 0));
  }
  if (doomed.empty()) return {};
  Query del(conn, "DELETE FROM articles WHERE id = ANY(:ids::bigint[])");
  del.bind(":ids", fmt::format("{{{}}}", fmt::join(doomed, ",")));
  if (auto ok = del.run(); !ok) return std::unexpected(ok.error());
  stats.deleted = static_cast<int>(doomed.size());
  return {};
}

}  // namespace

void VisibleCounts::add(const VisibleCounts& other) {
  for (const auto& [blog, n] : other.by_blog_) by_blog_[blog] += n;
  for (const auto& [category, n] : other.by_category_) by_category_[category] += n;
}

Result<void> VisibleCounts::write(Connection& conn) const {
  for (const auto& [blog, n] : by_blog_) {
    Query q(conn, "UPDATE blogs SET visible_articles = visible_articles + :n WHERE id = :blog_id");
    q.bind(":n", n).bind(":blog_id", blog);
    if (auto ok = q.run(); !ok) return std::unexpected(ok.error());
  }
  for (const auto& [category, n] : by_category_) {
    Query q(conn, "UPDATE categories SET visible_articles = visible_articles + :n WHERE slug = :category");
    q.bind(":n", n).bind(":category", category);
    if (auto ok = q.run(); !ok) return std::unexpected(ok.error());
  }
  return {};
}

Result<SaveStats> save_record(Connection& conn, const CrawlRecord& record, VisibleCounts& counts) {
  Query blog(conn, "SELECT category FROM blogs WHERE id = :id");
  blog.bind(":id", record.blog_id);
  auto rows = blog.run();
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return fail(ErrorKind::kNotFound, fmt::format("store: no blog {}", record.blog_id));
  const std::string blog_category = rows->string(0, 0);
  SaveStats stats;
  for (const model::Article& article : record.articles) {
    if (auto saved = save_article(conn, record, blog_category, article, stats, counts); !saved) {
      return std::unexpected(saved.error());
    }
  }
  if (auto ok = save_blog_state(conn, record); !ok) return std::unexpected(ok.error());
  if (auto ok = apply_budgets(conn, record, stats); !ok) return std::unexpected(ok.error());
  return stats;
}

}  // namespace longread::storage::postgres
