// The SQLite backend of storage::Store, internal to it (not installed): one class, SqliteStore, whose member
// functions are defined across sqlite/*_store.cpp and a few more files, one role (storage/roles/*.h) or part
// of a role each, next to that role's SQL. They share what this class holds.
//
// Connections: one writer connection guarded by a mutex (SQLite allows one writer at a time anyway) and a
// small pool of reader connections. In WAL mode (https://sqlite.org/wal.html) readers see the last committed
// state and never wait for the writer, so pages keep rendering while a crawl commits.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "storage/search_tokenizer.h"
#include "storage/sqlite/article_body.h"
#include "storage/sqlite/checkpointer.h"
#include "storage/sqlite/handles.h"
#include "storage/sqlite/parse_marks.h"
#include "storage/sqlite/query_helpers.h"
#include "storage/sqlite/reader_pool.h"
#include "storage/store.h"

namespace longread::storage::sqlite {

class SqliteStore final : public Store {
 public:
  SqliteStore(std::unique_ptr<Connection> writer, std::unique_ptr<Connection> checkpointer, std::string path,
              std::shared_ptr<BodyDictionaries> bodies, std::unique_ptr<ParseMarks> marks,
              std::unique_ptr<SearchTokenizer> tokenizer);

  // blog_store.cpp
  Result<std::int64_t> upsert_blog(const BlogSeed& seed) override;
  Result<model::Blog> edit_blog(std::int64_t blog_id, const BlogEdit& edit) override;
  Result<std::optional<model::Blog>> blog(std::int64_t id) override;
  Result<std::optional<model::Blog>> blog_by_feed_url(std::string_view feed_url) override;
  Result<std::vector<model::Blog>> blogs() override;
  Result<std::vector<model::Blog>> due_blogs(TimePoint now) override;
  Result<std::vector<model::Blog>> claim_due_blogs(std::string_view owner, TimePoint now,
                                                   TimePoint lease_until, int limit) override;
  Result<void> release_blog_claims(std::string_view owner) override;
  Result<std::int64_t> blog_count() override;
  Result<void> mark_parsing(std::int64_t blog_id, std::string_view owner, TimePoint since) override;
  Result<std::vector<ParsingMark>> parsing_marks() override;
  Result<void> clear_parsing_marks(std::string_view owner) override;
  Result<bool> record_crawler_crash(const CrawlerCrash& crash) override;
  Result<void> delete_blog(std::int64_t blog_id) override;
  Result<std::vector<BlogHealth>> blog_health(TimePoint since) override;
  Result<std::vector<BlogLifecycle>> blog_lifecycle() override;
  Result<bool> retire_blog(std::int64_t blog_id, std::string_view reason, TimePoint now) override;
  Result<bool> unretire_blog(std::int64_t blog_id) override;
  Result<bool> clear_blog_move(std::int64_t blog_id) override;

  // crawl_save.cpp
  Result<std::vector<StoredArticleKey>> article_keys(std::int64_t blog_id) override;
  Result<std::int64_t> count_recent_articles(std::int64_t blog_id, TimePoint since) override;
  Result<SaveStats> save_crawl(const CrawlRecord& record) override;
  using Store::save_crawls;
  Result<std::vector<Result<SaveStats>>> save_crawls(std::span<const CrawlRecord> records,
                                                     const DecideDuplicates& decide) override;
  Result<void> prepare_crawl(CrawlRecord& record) override;

  // article_store.cpp
  Result<std::optional<ArticleView>> article(std::int64_t id) override;
  Result<std::vector<ArticleView>> articles(const ArticleQuery& query) override;
  Result<ArticlePage> article_page(const ArticleQuery& query) override;
  Result<std::int64_t> count_articles(const ArticleQuery& query) override;
  Result<HotPage> hot_page(const HotPageQuery& query) override;
  Result<std::vector<model::Category>> categories() override;
  Result<std::int64_t> article_count() override;
  Result<std::vector<SimhashEntry>> simhash_index() override;
  Result<std::int64_t> near_duplicate_log_head() override;
  Result<std::vector<ArticleView>> recent_junk(int limit) override;
  Result<std::vector<ArticleView>> near_misses(TimePoint since, int limit) override;

  // search.cpp
  using Store::search;
  Result<std::vector<SearchHit>> search(std::string_view query, int limit, int offset,
                                        const std::optional<ReaderFilter>& reader) override;

  // curation.cpp
  Result<void> mark_duplicates(std::span<const std::pair<std::int64_t, std::int64_t>> marks) override;
  Result<void> set_keep_override(std::int64_t article_id, std::optional<bool> keep) override;
  Result<std::int64_t> set_verdicts(std::span<const VerdictUpdate> updates) override;
  Result<std::int64_t> set_texts(std::span<const TextUpdate> updates) override;
  Result<CompactBatch> compact_bodies(const CompactOptions& options) override;
  Result<std::optional<std::uint32_t>> train_first_body_dictionary() override;

  // database_store.cpp
  Result<SiteStats> site_stats(TimePoint now) override;
  Result<std::int64_t> data_version() override;
  Result<std::int64_t> vacuum() override;
  Result<SearchIndexReport> maintain_search_index(const SearchIndexUpkeep& upkeep) override;

  // reader_store.cpp
  Result<std::int64_t> create_reader(std::string_view email, std::string_view password_hash, TimePoint now,
                                     std::optional<TimePoint> confirmed_at) override;
  Result<std::optional<ReaderAccount>> reader_by_email(std::string_view email) override;
  Result<std::vector<ReaderAccount>> readers() override;
  Result<void> set_reader_password(std::int64_t reader_id, std::string_view password_hash,
                                   std::optional<TimePoint> confirm_at) override;
  Result<void> confirm_reader(std::int64_t reader_id, TimePoint now) override;
  Result<void> delete_reader(std::int64_t reader_id) override;
  Result<int> delete_reader_sessions(std::int64_t reader_id) override;
  Result<void> create_session(const SessionRecord& session) override;
  Result<std::optional<SessionReader>> session_reader(std::string_view token_hash, TimePoint now) override;
  Result<void> delete_session(std::string_view token_hash) override;
  Result<int> delete_expired_sessions(TimePoint now) override;
  Result<void> set_reader_operator(std::string_view email, bool is_operator) override;
  Result<std::int64_t> add_app_password(std::int64_t reader_id, std::string_view name,
                                        std::string_view password_hash, TimePoint now) override;
  Result<std::vector<AppPassword>> app_passwords(std::int64_t reader_id) override;
  Result<void> revoke_app_password(std::int64_t reader_id, std::int64_t app_password_id) override;
  Result<void> add_api_token(const ApiTokenRecord& token) override;
  Result<std::optional<std::int64_t>> api_token_reader(std::string_view token_hash, TimePoint now) override;
  Result<bool> set_blog_muted(std::int64_t reader_id, std::int64_t blog_id, bool muted,
                              TimePoint now) override;
  Result<bool> set_category_muted(std::int64_t reader_id, std::string_view category, bool muted,
                                  TimePoint now) override;
  Result<ReaderMutes> reader_mutes(std::int64_t reader_id) override;
  Result<ReaderPreferences> reader_preferences(std::int64_t reader_id) override;
  Result<void> set_reader_preferences(std::int64_t reader_id, const ReaderPreferences& preferences) override;

  // reader_mark_store.cpp
  Result<VoteState> set_vote(std::int64_t reader_id, std::int64_t article_id, bool vote,
                             TimePoint now) override;
  Result<std::int64_t> age_period_votes(TimePoint now) override;
  Result<ReaderMarks> reader_marks(std::int64_t reader_id,
                                   const std::vector<std::int64_t>& article_ids) override;
  Result<void> set_saved(std::int64_t reader_id, std::int64_t article_id, bool saved, TimePoint now) override;
  Result<void> set_read(std::int64_t reader_id, std::int64_t article_id, bool read, TimePoint now) override;
  Result<std::vector<SavedArticle>> reading_list(std::int64_t reader_id, int limit, int offset) override;
  Result<std::int64_t> reading_list_unread(std::int64_t reader_id) override;
  Result<ImportSummary> import_reading_list(std::int64_t reader_id, const std::vector<ImportedLink>& links,
                                            TimePoint now) override;
  Result<std::vector<SavedLink>> saved_links(std::int64_t reader_id, int limit, int offset) override;
  Result<void> set_saved_link_read(std::int64_t reader_id, std::int64_t link_id, bool read,
                                   TimePoint now) override;
  Result<void> remove_saved_link(std::int64_t reader_id, std::int64_t link_id) override;
  Result<std::optional<std::string>> reading_list_feed_token(std::int64_t reader_id) override;
  Result<void> set_reading_list_feed_token(std::int64_t reader_id, std::optional<std::string> token) override;
  Result<std::optional<std::int64_t>> reader_by_reading_list_feed_token(std::string_view token) override;
  Result<StreamPage> reader_stream(std::int64_t reader_id, const StreamQuery& query) override;
  Result<std::vector<StreamItem>> reader_items(std::int64_t reader_id,
                                               const std::vector<std::int64_t>& article_ids) override;
  Result<int> set_articles_read(std::int64_t reader_id, const std::vector<std::int64_t>& article_ids,
                                bool read, TimePoint now) override;
  Result<void> mark_stream_read(std::int64_t reader_id, std::optional<std::int64_t> blog_id, TimePoint before,
                                TimePoint now) override;

  // newsletter_store.cpp
  Result<Subscriber> add_subscriber(std::string_view email, TimePoint now) override;
  Result<bool> confirm_subscriber(std::string_view email, TimePoint now) override;
  Result<bool> unsubscribe(std::string_view email, TimePoint now) override;
  Result<std::vector<Subscriber>> confirmed_subscribers() override;
  Result<void> record_subscriber_error(std::int64_t subscriber_id, std::string_view error,
                                       TimePoint now) override;
  Result<NewsletterIssue> newsletter_issue(std::string_view key, const std::vector<std::int64_t>& article_ids,
                                           TimePoint now) override;
  Result<bool> claim_delivery(std::int64_t issue_id, std::int64_t subscriber_id, TimePoint now) override;
  Result<void> finish_delivery(std::int64_t issue_id, std::int64_t subscriber_id, DeliveryState state,
                               std::string_view error, TimePoint now) override;
  Result<std::int64_t> count_deliveries(std::int64_t issue_id, DeliveryState state) override;

  // outbox_store.cpp
  Result<std::int64_t> enqueue_mail(const OutboxMail& mail) override;
  Result<std::vector<OutboxMail>> claim_due_mails(TimePoint now, TimePoint lease_until, int limit) override;
  Result<bool> delete_mail(std::int64_t id) override;
  Result<void> mark_mail_failed(std::int64_t id, std::string_view error, TimePoint next_attempt_at) override;
  Result<std::vector<OutboxMail>> drop_expired_mails(TimePoint now) override;
  Result<std::vector<OutboxMail>> outbox_mails() override;
  Result<int> retry_mails(std::optional<std::int64_t> id, TimePoint now) override;
  Result<std::optional<TimePoint>> next_mail_due() override;

  // limit_store.cpp
  Result<std::vector<TimePoint>> recent_attempts(std::string_view key, TimePoint since, int limit) override;
  Result<void> record_attempt(std::string_view key, TimePoint at, TimePoint expires_at, int keep_per_key,
                              std::int64_t max_rows) override;
  Result<void> clear_attempts(std::string_view key) override;
  Result<void> clear_attempts_with_prefix(std::string_view prefix) override;
  Result<bool> claim_mail_slot(std::string_view recipient, std::string_view kind, TimePoint now,
                               std::chrono::seconds gap) override;

  // secret_store.cpp
  Result<std::string> secret(std::string_view name, std::string_view candidate) override;

  // lock_store.cpp
  Result<bool> try_lock(std::string_view name, std::string_view owner, TimePoint now,
                        TimePoint until) override;
  Result<void> unlock(std::string_view name, std::string_view owner) override;

  // audit_store.cpp
  Result<std::int64_t> add_audit_entry(const AuditEntry& entry) override;
  Result<AuditPage> audit_entries(int limit, std::int64_t before) override;

  // similar_store.cpp
  Result<SimilarTermStats> similar_term_frequencies(std::span<const std::uint32_t> buckets) override;
  Result<void> add_similar_terms(std::span<const SimilarTermCount> counts, std::int64_t documents) override;
  Result<std::vector<SimilarPostingRow>> similar_postings(std::span<const std::uint64_t> terms,
                                                          int per_term) override;
  Result<std::vector<SimilarCandidateRow>> similar_candidates(std::span<const std::int64_t> ids) override;
  Result<void> save_similar_all(std::span<const SimilarWrite> writes) override;
  Result<void> index_similar(std::span<const std::uint64_t> terms, int per_term,
                             const SimilarDecision& decide) override;
  Result<std::vector<SimilarArticle>> similar_articles(std::int64_t article_id, int limit) override;
  Result<void> clear_similar() override;
  Result<std::vector<ArticleView>> articles_for_similar(std::int64_t after_id, int limit) override;
  Result<void> queue_similar(std::span<const std::int64_t> ids) override;
  Result<SimilarBacklog> similar_backlog(int limit) override;
  Result<void> unqueue_similar(std::span<const std::int64_t> ids) override;
  Result<std::int64_t> similar_queue_size() override;
  Result<ForYou> for_you(const ForYouQuery& query) override;

  // suggestion_store.cpp
  Result<Suggestion> add_suggestion(const NewSuggestion& suggestion) override;
  Result<std::vector<Suggestion>> claim_suggestions(TimePoint now, TimePoint lease_until, int limit,
                                                    int max_attempts) override;
  Result<void> release_suggestion(std::int64_t id) override;
  Result<void> save_suggestion_finding(std::int64_t id, const SuggestionFinding& finding) override;
  Result<Suggestion> decide_suggestion(std::int64_t id, const SuggestionDecision& decision) override;
  Result<std::optional<Suggestion>> suggestion(std::int64_t id) override;
  Result<std::vector<Suggestion>> reader_suggestions(std::int64_t reader_id, int limit) override;
  Result<std::vector<Suggestion>> suggestions(int limit) override;
  Result<std::optional<TimePoint>> next_suggestion_due() override;

  // moderation_store.cpp
  Result<FlagResult> flag_article(std::int64_t reader_id, std::int64_t article_id, FlagReason reason,
                                  TimePoint now, const FlagRules& rules) override;
  Result<bool> withdraw_flag(std::int64_t reader_id, std::int64_t article_id) override;
  Result<FlagState> flag_state(std::int64_t article_id, std::optional<std::int64_t> reader_id) override;
  Result<std::vector<FlaggedArticle>> flagged_articles(int limit) override;
  Result<void> decide_flags(std::int64_t article_id, FlagDecision decision) override;

 private:
  // save_crawls' transaction, without the parse marks' clearing that comes before it.
  Result<std::vector<Result<SaveStats>>> save_crawls_in_transaction(std::span<const CrawlRecord> records,
                                                                    const DecideDuplicates& decide);

  // Runs `f` on the writer connection, under its lock.
  template <typename F>
  auto with_writer(F&& f) {
    std::lock_guard lock(writer_mutex_);
    return f(*writer_);
  }

  // Runs `body(writer)` in one write transaction on the writer, under its lock (in_transaction). Then, with
  // no transaction open, the WAL is started over when it has grown large (checkpointer.h).
  template <typename Body>
  auto in_write_transaction(std::string_view what, Body&& body) {
    std::lock_guard lock(writer_mutex_);
    auto result = in_transaction(*writer_, what, [&] { return body(*writer_); });
    checkpointer_.restart_if_grown(*writer_);
    return result;
  }

  // Runs `f` on a pooled reader connection.
  template <typename F>
  auto with_reader(F&& f) -> decltype(f(std::declval<Connection&>())) {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    return f(**db);
  }

  // One statement on the writer, with the parameters `bind` sets: whether it changed a row.
  template <typename Bind>
  Result<bool> write_changes(const char* sql, std::string_view what, Bind bind) {
    auto changed = with_writer([&](Connection& db) { return run_changes(db, sql, what, bind); });
    if (!changed) return std::unexpected(changed.error());
    return *changed > 0;
  }

  template <typename Bind>
  Result<void> write_one(const char* sql, std::string_view what, Bind bind) {
    return with_writer([&](Connection& db) { return run(db, sql, what, bind); });
  }

  // The first column of `sql`'s row, read on a pooled reader.
  Result<std::int64_t> read_count(const char* sql, std::string_view what) {
    return with_reader([&](Connection& db) { return read_int64(db, sql, what); });
  }

  std::string path_;
  std::shared_ptr<BodyDictionaries> bodies_;
  std::mutex writer_mutex_;
  std::unique_ptr<Connection> writer_;   // guarded by writer_mutex_
  BackgroundCheckpointer checkpointer_;  // after writer_: stopped before the writer closes
  ReaderPool readers_;
  std::unique_ptr<ParseMarks> marks_;  // crash quarantine's marks, in a file of their own (parse_marks.h)
  std::mutex version_mutex_;
  std::unique_ptr<Connection> version_;  // guarded by version_mutex_; only ever reads PRAGMA data_version
  std::unique_ptr<SearchTokenizer> tokenizer_;  // FTS5's words, for search snippets
};

// Helpers more than one of the role files use.

// Emails are matched case-insensitively (ASCII lower-casing; the local part is case-sensitive by RFC 5321
// in theory but not in practice).
std::string email_key(std::string_view email);
// Adds the category `slug` (named by category_name) unless it exists.
Result<void> ensure_category(Connection& db, std::string_view slug);

}  // namespace longread::storage::sqlite
