#include "storage/postgres/crawl_save.h"

#include <algorithm>
#include <array>
#include <bit>
#include <set>
#include <span>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include <optional>

#include "storage/article_binds.h"
#include "storage/postgres/article_bodies.h"
#include "storage/postgres/rows.h"
#include "storage/postgres/statement.h"
#include "storage/postgres/vector_columns.h"
#include "storage/values.h"

namespace longread::storage::postgres {
namespace {

// A duplicate_of that names no stored article is dropped (NULL) instead of failing the whole crawl.
#define LONGREAD_PG_DUPLICATE_OF "(SELECT d.id FROM articles d WHERE d.id = :duplicate_of::bigint)"

// The columns a new article is inserted with, in the order insert_values binds them. score is a generated
// column (from votes and dates); the search and rank vectors are made here (search_vectors.h), and so is
// the packed body, beside which summary_html, content_html, text and excerpt are written empty
// (article_bodies.h).
constexpr std::string_view kInsertColumns =
    "blog_id, guid, title, link, author, published, updated, undated, summary_html, content_html, text,"
    " excerpt, first_seen, display_at, content_hash, word_count, reading_minutes, category,"
    " category_from_blog, junk, junk_reason, duplicate_of, keep_override, visible, full_text_fetched,"
    " full_text_failures, full_text_error, simhash, votes, truncated, rank_prior, search_words, rank_vector,"
    " phrase_filter, common_words, lead_filter, body, body_dictionary";
constexpr std::size_t kInsertColumnCount = 38;
static_assert(std::ranges::count(kInsertColumns, ',') + 1 == kInsertColumnCount);
constexpr std::size_t kDuplicateOfColumn = 21;
// The columns bound in their types' binary form (insert_values), cast so the server never infers another
// type for the bytes.
constexpr std::size_t kSearchVectorColumn = 31;
// The 0-based position of `name` in kInsertColumns, or kInsertColumnCount when it is not there.
constexpr std::size_t insert_column(std::string_view name) {
  std::size_t column = 0;
  for (std::size_t at = 0; at < kInsertColumns.size(); ++column) {
    const std::size_t comma = std::min(kInsertColumns.find(',', at), kInsertColumns.size());
    std::string_view item = kInsertColumns.substr(at, comma - at);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    if (item == name) return column;
    at = comma + 1;
  }
  return kInsertColumnCount;
}
// kVectorColumns, in their order (add_search_vectors), then the packed body.
constexpr bool vector_columns_in_place() {
  for (std::size_t i = 0; i < kVectorColumns.size(); ++i)
    if (insert_column(kVectorColumns[i].name) != kSearchVectorColumn + i) return false;
  return insert_column("body") == kSearchVectorColumn + kVectorColumns.size();
}
static_assert(vector_columns_in_place());
static_assert(insert_column("duplicate_of") == kDuplicateOfColumn);
// The cast of the binary column `c`, or "" for a column sent as text.
constexpr std::string_view binary_cast(std::size_t c) {
  if (c >= kSearchVectorColumn && c < kSearchVectorColumn + kVectorColumns.size())
    return kVectorColumns[c - kSearchVectorColumn].cast;
  return c == kSearchVectorColumn + kVectorColumns.size() ? "::bytea" : "";  // the body
}
// Rows per INSERT: a statement takes at most 65,535 parameters.
constexpr std::size_t kInsertChunk = 1000;
// An INSERT of at most this many rows, none naming an original, is prepared (one statement for each count
// of rows, so at most this many): the server keeps a prepared statement's parse tree and plan, a few
// kilobytes a row, for the connection's life. A larger one is planned each time, which costs little beside
// writing its rows.
constexpr std::size_t kPreparedInsertRows = 16;

// Content changed: everything the feed and curation say is replaced; id, votes, score, first_seen and
// the operator's keep_override stay.
constexpr const char* kUpdateArticle =
    "UPDATE articles SET title = :title, link = :link, author = :author, published = :published,"
    " updated = :updated, undated = :undated, summary_html = '', content_html = '', text = '',"
    " body = :body::bytea, body_dictionary = :body_dictionary::bigint, excerpt = :excerpt,"
    " display_at = COALESCE(:published, first_seen),"
    " content_hash = :content_hash, word_count = :word_count, reading_minutes = :reading_minutes,"
    " category = :category, category_from_blog = :category_from_blog, junk = :junk, junk_reason = "
    ":junk_reason,"
    " duplicate_of = " LONGREAD_PG_DUPLICATE_OF
    ", visible = CASE WHEN held = 1 THEN 0 WHEN keep_override IS NULL THEN 1 - :junk ELSE keep_override END,"
    " full_text_fetched = :full_text_fetched, full_text_failures = :full_text_failures,"
    " full_text_error = :full_text_error, simhash = :simhash, truncated = :truncated, pruned_at = NULL,"
    " rank_prior = :rank_prior," LONGREAD_PG_SET_VECTORS " WHERE id = :id";

// Content unchanged but curation given again (a full-text page tried again): refresh it, with the page's
// HTML when it was read, writing only on a difference. The summary stays as stored: the body is packed
// again from the stored summary and the new content, text and excerpt when any of those three differs
// (:body_changed), and kept as it is otherwise.
constexpr const char* kRefreshCuration =
    "UPDATE articles SET" LONGREAD_PG_SET_BODY_WHEN_CHANGED
    ","
    " word_count = :word_count, reading_minutes = :reading_minutes, category = :category,"
    " category_from_blog = :category_from_blog, junk = :junk, junk_reason = :junk_reason,"
    " duplicate_of = " LONGREAD_PG_DUPLICATE_OF
    ", visible = CASE WHEN held = 1 THEN 0 WHEN keep_override IS NULL THEN 1 - :junk ELSE keep_override END,"
    " full_text_fetched = :full_text_fetched, full_text_failures = :full_text_failures,"
    " full_text_error = :full_text_error, simhash = :simhash, pruned_at = NULL,"
    " rank_prior = :rank_prior," LONGREAD_PG_SET_VECTORS
    " WHERE id = :id AND NOT (:body_changed::integer = 0"
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
    "UPDATE articles SET summary_html = '', content_html = '', text = '', body = NULL,"
    " body_dictionary = NULL, excerpt = '',"
    " pruned_at = :now"
    " WHERE blog_id = :blog_id AND visible = 0 AND pruned_at IS NULL AND first_seen < :before AND held = 0";

// A guid as the server keeps it: Params drops NUL bytes, so a row comes back under the guid without them.
std::string stored_guid(std::string_view guid) {
  std::string out(guid);
  std::erase(out, '\0');
  return out;
}

// What one article of the record comes to, decided in feed order before any statement runs.
struct Planned {
  const model::Article* article;
  std::string hash;
  std::string category;
  bool from_blog;
  // Its search vectors: prepared with the record (ArticleStore::prepare_crawl), else made when written.
  const SearchVectors* prepared_vectors;
  // Its packed body (a zstd frame; "": none): prepared with the record likewise, else packed when written.
  const std::string* prepared_body;
  std::optional<SearchVectors> made_vectors{};
  std::optional<std::string> made_body{};

  const SearchVectors& vectors(const SearchTokenizer& tokenizer, const CommonWords& common) {
    if (prepared_vectors != nullptr) return *prepared_vectors;
    if (!made_vectors) made_vectors = search_vectors(tokenizer, common, article->title, article->text);
    return *made_vectors;
  }
};

// What makes an article's derived columns while it is written: its search vectors and its packed body.
struct Writer {
  Connection& conn;
  const SearchTokenizer& tokenizer;
  const CommonWords& common;
  BodyDictionaries& bodies;
  std::optional<std::uint32_t> dictionary{};  // the newest, read once a record needs it

  // These parts' frame (nullopt: none).
  Result<std::optional<std::string>> pack(const ArticleBodyView& parts) {
    if (!dictionary) {
      auto newest = bodies.current_id(PgBodyDictionaries(conn));
      if (!newest) return std::unexpected(newest.error());
      dictionary = *newest;
    }
    return pack_body(bodies, conn, *dictionary, parts);
  }

  // The frame of `plan`'s article.
  Result<std::optional<std::string>> body(Planned& plan) {
    if (plan.prepared_body != nullptr)
      return plan.prepared_body->empty() ? std::nullopt : std::optional<std::string>(*plan.prepared_body);
    if (!plan.made_body) {
      const model::Article& a = *plan.article;
      auto made = pack({.summary_html = a.summary_html,
                        .content_html = a.content_html,
                        .text = a.text,
                        .excerpt = a.excerpt});
      if (!made) return std::unexpected(made.error());
      plan.made_body = made->value_or("");
    }
    return plan.made_body->empty() ? std::nullopt : std::optional<std::string>(*plan.made_body);
  }
};

// A row the record writes: stored already (id), or inserted by this record (its id known once inserted).
struct Target {
  std::optional<std::int64_t> id;
  std::string hash;  // the row's content hash once the steps before have run
};

// The INSERT of rows[from, from + count). A row's duplicate_of is checked as LONGREAD_PG_DUPLICATE_OF says
// only when it names an original: the server plans each such subquery (the articles table's relation and
// its indexes looked up again), which for every row of a first pass, where nearly none has one, had been a
// tenth of the server's CPU.
std::string insert_sql(const std::vector<Planned*>& rows, std::size_t from, std::size_t count) {
  std::string sql = fmt::format("INSERT INTO articles ({}) VALUES ", kInsertColumns);
  int n = 0;
  for (std::size_t r = from; r < from + count; ++r) {
    sql += r == from ? "(" : ", (";
    const bool names_original = rows[r]->article->duplicate_of.has_value();
    for (std::size_t c = 0; c < kInsertColumnCount; ++c) {
      if (c > 0) sql += ", ";
      ++n;
      if (c == kDuplicateOfColumn && names_original) {
        sql += fmt::format("(SELECT d.id FROM articles d WHERE d.id = ${}::bigint)", n);
      } else {
        sql += fmt::format("${}{}", n, binary_cast(c));
      }
    }
    sql += ')';
  }
  return sql + " RETURNING id, guid";
}

bool inserted_visible(const model::Article& a) {
  return a.keep_override ? *a.keep_override : !a.junk;
}

// The values of one inserted row, in kInsertColumns' order.
Result<void> insert_values(Params& p, const CrawlRecord& record, Planned& plan, Writer& writer) {
  const model::Article& a = *plan.article;
  const TimePoint first_seen = a.first_seen == TimePoint{} ? record.attempted_at : a.first_seen;
  std::optional<std::int64_t> keep;
  if (a.keep_override) keep = *a.keep_override ? 1 : 0;
  p.add(record.blog_id).add(a.guid).add(a.title).add(a.link).add(a.author);
  p.add(a.published).add(a.updated).add(a.undated).add("").add("");
  p.add("").add("").add(first_seen).add(a.published.value_or(first_seen)).add(plan.hash);
  p.add(a.word_count).add(a.reading_minutes).add(plan.category).add(plan.from_blog).add(a.junk);
  p.add(a.junk_reason).add(a.duplicate_of).add(keep).add(inserted_visible(a)).add(a.full_text_fetched);
  p.add(a.full_text_failures).add(a.full_text_error).add(std::bit_cast<std::int64_t>(a.simhash)).add(a.votes);
  p.add(a.truncated).add(a.rank_prior);
  add_search_vectors(p, plan.vectors(writer.tokenizer, writer.common));
  auto body = writer.body(plan);
  if (!body) return std::unexpected(body.error());
  if (*body) {
    p.add(Binary{**body}).add(static_cast<std::int64_t>(body_dictionary_id(**body)));
  } else {
    p.add(std::nullopt).add(std::nullopt);
  }
  return {};
}

// Inserts `rows` (first sightings of their guids, in feed order, so ids ascend as the feed lists them) and
// returns each one's new id, by stored guid.
Result<std::unordered_map<std::string, std::int64_t>> insert_articles(Connection& conn,
                                                                      const CrawlRecord& record,
                                                                      const std::vector<Planned*>& rows,
                                                                      Writer& writer) {
  std::unordered_map<std::string, std::int64_t> ids;
  for (std::size_t from = 0; from < rows.size(); from += kInsertChunk) {
    const std::size_t n = std::min(kInsertChunk, rows.size() - from);
    Params params;
    bool names_original = false;
    for (std::size_t i = from; i < from + n; ++i) {
      if (auto ok = insert_values(params, record, *rows[i], writer); !ok) return std::unexpected(ok.error());
      names_original = names_original || rows[i]->article->duplicate_of.has_value();
    }
    const std::string sql = insert_sql(rows, from, n);
    auto inserted = n <= kPreparedInsertRows && !names_original ? conn.exec_prepared(sql, params)
                                                                : conn.exec(sql, params);
    if (!inserted) return std::unexpected(inserted.error());
    for (int r = 0; r < inserted->size(); ++r) ids.emplace(inserted->string(r, 1), inserted->int64(r, 0));
  }
  return ids;
}

// New categories the articles were filed under (not their blog's), in one statement, in slug order so two
// crawlers adding the same ones never wait on each other crosswise.
Result<void> ensure_categories(Connection& conn, const std::set<std::string>& slugs) {
  if (slugs.empty()) return {};
  std::vector<std::string> names;
  names.reserve(slugs.size());
  for (const std::string& slug : slugs) names.push_back(category_name(slug));
  Query q(
      conn,
      "INSERT INTO categories (slug, name) SELECT s, n FROM unnest(:slugs::text[], :names::text[]) AS c(s, n)"
      " ORDER BY s ON CONFLICT (slug) DO NOTHING");
  q.bind(":slugs", text_array(slugs)).bind(":names", text_array(names));
  if (auto ok = q.run(); !ok) return std::unexpected(ok.error());
  return {};
}

void bind_content(Query& q, const Planned& plan) {
  const model::Article& a = *plan.article;
  q.bind(":title", a.title).bind(":link", a.link).bind(":author", a.author);
  q.bind(":published", a.published).bind(":updated", a.updated);
  q.bind(":undated", a.undated).bind(":content_hash", plan.hash);
  q.bind(":truncated", a.truncated);
}

// The record's blog state (and its redirect), after its articles, as statements for the record's pipeline.
Result<void> blog_state_statements(Connection& conn, const CrawlRecord& record, std::vector<Statement>& out) {
  Query q(conn, kUpdateBlogCrawlState);
  q.prepared();
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
  auto state = q.statement();
  if (!state) return std::unexpected(state.error());
  out.push_back(std::move(*state));

  if (record.new_feed_url && !record.new_feed_url->empty()) {
    Query r(conn, kRedirectBlog);
    r.prepared();
    r.bind(":feed_url", *record.new_feed_url)
        .bind(":blog_id", record.blog_id)
        .bind(":now", record.attempted_at);
    auto redirect = r.statement();
    if (!redirect) return std::unexpected(redirect.error());
    out.push_back(std::move(*redirect));
  }
  return {};
}

// Binds kPruneHiddenBodies (prepared) for the record, which has a prune_hidden_before: the bodies of its
// blog's hidden articles older than that.
void bind_prune(Query& q, const CrawlRecord& record) {
  q.prepared();
  q.bind(":blog_id", record.blog_id).bind(":before", *record.prune_hidden_before);
  q.bind(":now", record.attempted_at);
}

// CrawlRecord's budgets, after the record's articles are written. The rows this crawl inserted carry guids
// of the feed, so they are never deleted here.
Result<void> apply_budgets(Connection& conn, const CrawlRecord& record, SaveStats& stats) {
  if (record.prune_hidden_before) {
    Query q(conn, kPruneHiddenBodies);
    bind_prune(q, record);
    auto pruned = q.run();
    if (!pruned) return std::unexpected(pruned.error());
    stats.bodies_pruned = static_cast<int>(pruned->affected());
  }
  if (record.max_articles <= 0 || stats.inserted == 0) return {};
  Query count(conn, "SELECT COUNT(*) FROM articles WHERE blog_id = :blog_id");
  count.prepared();
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
  del.bind(":ids", id_array(doomed));
  if (auto ok = del.run(); !ok) return std::unexpected(ok.error());
  stats.deleted = static_cast<int>(doomed.size());
  stats.deleted_ids = std::move(doomed);
  return {};
}

}  // namespace

void VisibleCounts::add(const VisibleCounts& other) {
  for (const auto& [blog, n] : other.by_blog_) by_blog_[blog] += n;
  for (const auto& [category, n] : other.by_category_) by_category_[category] += n;
}

Result<void> VisibleCounts::write(Connection& conn) const {
  std::vector<Statement> statements;
  for (const auto& [blog, n] : by_blog_) {
    Query q(conn, "UPDATE blogs SET visible_articles = visible_articles + :n WHERE id = :blog_id");
    q.prepared();
    q.bind(":n", n).bind(":blog_id", blog);
    auto statement = q.statement();
    if (!statement) return std::unexpected(statement.error());
    statements.push_back(std::move(*statement));
  }
  for (const auto& [category, n] : by_category_) {
    Query q(conn, "UPDATE categories SET visible_articles = visible_articles + :n WHERE slug = :category");
    q.prepared();
    q.bind(":n", n).bind(":category", category);
    auto statement = q.statement();
    if (!statement) return std::unexpected(statement.error());
    statements.push_back(std::move(*statement));
  }
  // One statement per row, in key order (one round trip): the locks are taken in that order.
  return run_pipelined(conn, statements);
}

// The stored summary, content, text and excerpt of the rows `ids` (a curation refresh keeps the stored
// summary and writes only on a difference).
Result<std::unordered_map<std::int64_t, ArticleBody>> stored_bodies(Connection& conn,
                                                                    BodyDictionaries& bodies,
                                                                    const std::vector<std::int64_t>& ids) {
  std::unordered_map<std::int64_t, ArticleBody> out;
  if (ids.empty()) return out;
  Query q(conn, "SELECT a.id, " LONGREAD_PG_BODY_COLUMNS " FROM articles a WHERE a.id = ANY(:ids::bigint[])");
  q.prepared();
  q.bind(":ids", id_array(ids));
  auto rows = q.run();
  if (!rows) return std::unexpected(rows.error());
  for (int r = 0; r < rows->size(); ++r) {
    auto body = stored_body(bodies, PgBodyDictionaries(conn), *rows, r, 1);
    if (!body) return std::unexpected(body.error());
    out.emplace(rows->int64(r, 0), std::move(*body));
  }
  return out;
}

bool writes_blog_state_only(const CrawlRecord& record) {
  return record.articles.empty() && !(record.new_feed_url && !record.new_feed_url->empty());
}

Result<std::vector<Result<SaveStats>>> save_blog_states(Connection& conn,
                                                        std::span<const CrawlRecord* const> records) {
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<Statement> statements;
  statements.reserve(2 * records.size());
  std::vector<std::size_t> state_at(records.size());
  std::vector<std::size_t> prune_at(records.size(), kNone);
  for (std::size_t i = 0; i < records.size(); ++i) {
    const CrawlRecord& record = *records[i];
    if (!writes_blog_state_only(record))
      return fail(ErrorKind::kInternal, "store: a record with articles or a redirect among blog states");
    state_at[i] = statements.size();
    if (auto ok = blog_state_statements(conn, record, statements); !ok) return std::unexpected(ok.error());
    if (record.prune_hidden_before) {
      Query q(conn, kPruneHiddenBodies);
      bind_prune(q, record);
      auto prune = q.statement();
      if (!prune) return std::unexpected(prune.error());
      prune_at[i] = statements.size();
      statements.push_back(std::move(*prune));
    }
  }
  std::vector<std::int64_t> affected;
  affected.reserve(statements.size());
  if (auto ok = run_pipelined(conn, statements, &affected); !ok) return std::unexpected(ok.error());
  if (affected.size() != statements.size())
    return fail(ErrorKind::kInternal, "store: a statement of the blog states gave no count of rows");
  std::vector<Result<SaveStats>> results;
  results.reserve(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    // No row updated is no blog, as save_record finds it: nothing else of the record matched a row either.
    if (affected[state_at[i]] == 0) {
      results.push_back(fail(ErrorKind::kNotFound, fmt::format("store: no blog {}", records[i]->blog_id)));
      continue;
    }
    SaveStats stats;
    if (prune_at[i] != kNone) stats.bodies_pruned = static_cast<int>(affected[prune_at[i]]);
    results.push_back(std::move(stats));
  }
  return results;
}

Result<SaveStats> save_record(Connection& conn, const CrawlRecord& record, VisibleCounts& counts,
                              const SearchTokenizer& tokenizer, const CommonWords& common,
                              BodyDictionaries& bodies) {
  Writer writer{.conn = conn, .tokenizer = tokenizer, .common = common, .bodies = bodies};
  std::vector<std::string> guids;
  guids.reserve(record.articles.size());
  for (const model::Article& article : record.articles) guids.push_back(stored_guid(article.guid));
  Query known(conn, kSelectKnownGuids);
  known.prepared().bind(":blog_id", record.blog_id).bind(":guids", text_array(guids));
  auto rows = known.run();
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return fail(ErrorKind::kNotFound, fmt::format("store: no blog {}", record.blog_id));
  const std::string blog_category = rows->string(0, 0);
  std::unordered_map<std::string, Target> targets;
  for (int r = 0; r < rows->size(); ++r) {
    if (!rows->null(r, 1)) targets.emplace(rows->string(r, 1), Target{rows->int64(r, 2), rows->string(r, 3)});
  }

  // Decided in feed order, as if each article were written before the next is looked up: a guid the
  // record repeats updates (or leaves) the row its first sighting inserted or updated.
  struct Later {
    Planned* plan;
    const Target* target;
    bool content_changed;  // an update; else a curation refresh
  };
  SaveStats stats;
  std::vector<Planned> plans;
  plans.reserve(record.articles.size());
  std::set<std::string> new_categories;
  std::vector<Planned*> inserts;
  const bool prepared = record.prepared_search.size() == record.articles.size();
  const bool packed = record.prepared_bodies.size() == record.articles.size();
  std::vector<Later> later;
  for (std::size_t i = 0; i < record.articles.size(); ++i) {
    const model::Article& article = record.articles[i];
    const bool from_blog = article.category.empty() || article.category == blog_category;
    Planned& plan = plans.emplace_back(Planned{
        &article, effective_content_hash(article), from_blog ? blog_category : article.category, from_blog,
        prepared ? &record.prepared_search[i] : nullptr, packed ? &record.prepared_bodies[i] : nullptr});
    if (!from_blog) new_categories.insert(plan.category);
    auto [it, first_sighting] = targets.try_emplace(guids[i]);
    Target& target = it->second;
    if (first_sighting) {
      target.hash = plan.hash;
      inserts.push_back(&plan);
      if (inserted_visible(article)) counts.count(record.blog_id, plan.category);
      ++stats.inserted;
    } else if (target.hash != plan.hash) {
      target.hash = plan.hash;
      later.push_back({&plan, &target, true});
      ++stats.updated;
    } else {
      // Unchanged. A record that carries curation (non-empty text) may refresh it; one without keeps it.
      if (!article.text.empty()) later.push_back({&plan, &target, false});
      ++stats.unchanged;
    }
  }

  if (auto ok = ensure_categories(conn, new_categories); !ok) return std::unexpected(ok.error());
  auto ids = insert_articles(conn, record, inserts, writer);
  if (!ids) return std::unexpected(ids.error());
  for (auto& [guid, target] : targets) {
    if (target.id) continue;
    const auto id = ids->find(guid);
    if (id == ids->end())
      return fail(ErrorKind::kInternal, "store: an inserted article's id did not come back");
    target.id = id->second;
  }
  stats.ids.reserve(guids.size());
  for (const std::string& guid : guids) stats.ids.push_back(*targets.at(guid).id);

  // A refresh packs the stored summary with the new content and text. A row this record updates first
  // (a guid the feed repeats) has the summary of that update, not yet stored.
  std::vector<std::int64_t> refreshed;
  for (const Later& step : later) {
    if (!step.content_changed) refreshed.push_back(*step.target->id);
  }
  auto stored = stored_bodies(conn, bodies, refreshed);
  if (!stored) return std::unexpected(stored.error());
  std::unordered_map<std::int64_t, const model::Article*> updated_first;

  std::vector<Statement> statements;
  statements.reserve(later.size() + 2);
  for (const Later& step : later) {
    Query q(conn, step.content_changed ? kUpdateArticle : kRefreshCuration);
    q.prepared();
    const model::Article& a = *step.plan->article;
    bind_curation(q, a, step.plan->category, step.plan->from_blog);
    q.bind(":excerpt", "");  // the frame holds it
    if (step.content_changed) {
      bind_content(q, *step.plan);
      auto body = writer.body(*step.plan);
      if (!body) return std::unexpected(body.error());
      bind_body(q, *body);
      updated_first[*step.target->id] = &a;
    } else {
      const ArticleBody& before = (*stored)[*step.target->id];
      ArticleBodyView stored_parts = before.view();
      if (auto it = updated_first.find(*step.target->id); it != updated_first.end()) {
        const model::Article& first = *it->second;
        stored_parts = {.summary_html = first.summary_html,
                        .content_html = first.content_html,
                        .text = first.text,
                        .excerpt = first.excerpt};
      }
      const bool changed = stored_parts.content_html != a.content_html || stored_parts.text != a.text ||
                           stored_parts.excerpt != a.excerpt;
      std::optional<std::string> body;
      if (changed) {
        auto made = writer.pack({.summary_html = stored_parts.summary_html,
                                 .content_html = a.content_html,
                                 .text = a.text,
                                 .excerpt = a.excerpt});
        if (!made) return std::unexpected(made.error());
        body = std::move(*made);
      }
      q.bind(":body_changed", changed);
      bind_body(q, body);
    }
    bind_search_vectors(q, step.plan->vectors(tokenizer, common));
    q.bind(":id", *step.target->id);
    auto statement = q.statement();
    if (!statement) return std::unexpected(statement.error());
    statements.push_back(std::move(*statement));
  }
  if (auto ok = blog_state_statements(conn, record, statements); !ok) return std::unexpected(ok.error());
  if (auto ok = run_pipelined(conn, statements); !ok) return std::unexpected(ok.error());
  if (auto ok = apply_budgets(conn, record, stats); !ok) return std::unexpected(ok.error());
  return stats;
}

}  // namespace longread::storage::postgres
