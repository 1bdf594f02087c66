// The SQLite side of ArticleStore's curation writes: verdicts, texts, duplicates, keep overrides and body
// compaction.
#include "storage/sqlite/sqlite_store.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include "storage/sqlite/article_body.h"
#include "storage/sqlite/duplicate_log.h"
#include "storage/sqlite/query_helpers.h"

namespace longread::storage::sqlite {
namespace {

// An override is also the operator's decision on readers' flags (migration 0023): it lifts a hold, and a
// flagged article records it so that later flags never hold it again. Clearing the override leaves the
// flags as they are.
constexpr const char* kSetKeepOverride =
    "UPDATE articles SET keep_override = :keep,"
    " flag_decision = CASE WHEN :keep IS NULL OR NOT EXISTS (SELECT 1 FROM article_flags f"
    "  WHERE f.article_id = articles.id) THEN flag_decision WHEN :keep = 1 THEN 'keep' ELSE 'junk' END,"
    " held = CASE WHEN :keep IS NULL THEN held ELSE 0 END,"
    " hold_threshold = CASE WHEN :keep IS NULL THEN hold_threshold ELSE 0 END,"
    " visible = CASE WHEN :keep IS NOT NULL THEN :keep WHEN held = 1 THEN 0 ELSE 1 - junk END WHERE id = :id";

// set_verdicts: only a changed verdict is written, so the update trigger (search index, counts) runs only
// for articles that move; duplicates keep their mark.
constexpr const char* kSetVerdict =
    "UPDATE articles SET junk = :junk, junk_reason = :reason,"
    " visible = CASE WHEN held = 1 THEN 0 WHEN keep_override IS NULL THEN 1 - :junk ELSE keep_override END"
    " WHERE id = :id AND duplicate_of IS NULL AND (junk <> :junk OR junk_reason <> :reason)";

// set_texts: only an article whose derived text differs is written, so the update trigger rewrites the
// search entries of just those.
constexpr const char* kSetText =
    "UPDATE articles SET summary_html = '', content_html = '', text = '', excerpt = '',"
    " body = longread_body_pack(" LONGREAD_STORED_SUMMARY ", " LONGREAD_STORED_CONTENT
    ", :text, :excerpt),"
    " word_count = :word_count,"
    " reading_minutes = :reading_minutes, simhash = :simhash"
    " WHERE id = :id AND (" LONGREAD_STORED_TEXT " <> :text OR " LONGREAD_STORED_EXCERPT
    " <> :excerpt OR word_count <> :word_count"
    " OR reading_minutes <> :reading_minutes OR simhash <> :simhash)";

// The body converter (migration 0021, `longread db compact`): the next articles, in id order, whose body is
// still in the old columns, or compressed with another dictionary than the newest (:dictionary, 0 for
// none). Rows emptied by pruning have nothing to convert.
constexpr const char* kSelectUncompacted =
    "SELECT id FROM articles WHERE id > :after AND ((body IS NULL"
    " AND (summary_html <> '' OR content_html <> '' OR text <> '' OR excerpt <> ''))"
    " OR (body IS NOT NULL AND longread_body_dictionary(body) <> :dictionary)) ORDER BY id LIMIT :batch";
// Whether the site holds at least :least articles, without counting them all.
constexpr const char* kHasArticles = "SELECT count(*) >= :least FROM (SELECT 1 FROM articles LIMIT :least)";
// The search index's update trigger compares the derived text, which is unchanged, so it writes nothing.
constexpr const char* kCompactArticle =
    "UPDATE articles SET body = longread_body_pack(" LONGREAD_STORED_SUMMARY ", " LONGREAD_STORED_CONTENT
    ", " LONGREAD_STORED_TEXT ", " LONGREAD_STORED_EXCERPT
    "), summary_html = '', content_html = '', text = '', excerpt = '' WHERE id = :id";

}  // namespace

Result<void> SqliteStore::mark_duplicates(std::span<const std::pair<std::int64_t, std::int64_t>> marks) {
  if (marks.empty()) return {};
  constexpr std::string_view kFailed = "cannot mark duplicate";
  return in_write_transaction(kFailed, [&](Connection& db) { return write_duplicate_marks(db, marks); });
}

Result<void> SqliteStore::set_keep_override(std::int64_t article_id, std::optional<bool> keep) {
  auto changed = write_changes(kSetKeepOverride, "cannot set keep override",
                               [&](Query& q) { q.bind(":keep", keep).bind(":id", article_id); });
  if (!changed) return std::unexpected(changed.error());
  if (!*changed) return fail(ErrorKind::kNotFound, fmt::format("store: no article {}", article_id));
  return {};
}

Result<std::int64_t> SqliteStore::set_verdicts(std::span<const VerdictUpdate> updates) {
  constexpr std::string_view kFailed = "cannot set verdicts";
  return in_write_transaction(kFailed, [&](Connection& db) {
    return run_each(db, kSetVerdict, kFailed, updates, [](Query& q, const VerdictUpdate& update) {
      q.bind(":junk", update.junk ? 1 : 0).bind(":reason", update.junk ? update.reason : std::string());
      q.bind(":id", update.article_id);
    });
  });
}

Result<std::int64_t> SqliteStore::set_texts(std::span<const TextUpdate> updates) {
  constexpr std::string_view kFailed = "cannot set texts";
  return in_write_transaction(kFailed, [&](Connection& db) {
    return run_each(db, kSetText, kFailed, updates, [](Query& q, const TextUpdate& update) {
      q.bind(":text", update.text).bind(":excerpt", update.excerpt);
      q.bind(":word_count", static_cast<std::int64_t>(update.word_count));
      q.bind(":reading_minutes", static_cast<std::int64_t>(update.reading_minutes));
      q.bind(":simhash", std::bit_cast<std::int64_t>(update.simhash)).bind(":id", update.article_id);
    });
  });
}

Result<CompactBatch> SqliteStore::compact_bodies(const CompactOptions& options) {
  std::lock_guard lock(writer_mutex_);
  Connection& db = *writer_;
  CompactBatch out;
  out.last_id = options.after_id;
  if (options.after_id == 0) {
    auto current = bodies_->current_id(sqlite::SqliteBodyDictionaries(db.raw()));
    if (!current) return std::unexpected(current.error());
    if (*current == 0 || options.retrain) {
      auto trained = in_transaction(db, "cannot train body dictionary", [&] {
        return sqlite::train_body_dictionary(
            db.raw(), *bodies_, kBodyDictionarySamples,
            to_unix(std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now())));
      });
      if (!trained) return std::unexpected(trained.error());
      out.trained_dictionary = *trained;
    }
  }
  auto current = bodies_->current_id(sqlite::SqliteBodyDictionaries(db.raw()));
  if (!current) return std::unexpected(current.error());
  constexpr std::string_view kFailed = "cannot compact articles";
  auto ids = in_transaction(db, kFailed, [&]() -> Result<std::vector<std::int64_t>> {
    auto batch = read_rows(
        db, kSelectUncompacted, kFailed,
        [&](Query& q) {
          q.bind(":after", options.after_id)
              .bind(":dictionary", static_cast<std::int64_t>(*current))
              .bind(":batch", std::max(options.batch, 1));
        },
        [](const Query& q) { return q.int64(0); });
    if (!batch) return batch;
    for (const std::int64_t id : *batch) {
      // A body that cannot be read fails its own statement only (SQLite rolls back just that statement):
      // the row stays as it is, and is reported.
      if (auto ok = run(db, kCompactArticle, kFailed, [&](Query& q) { q.bind(":id", id); }); !ok) {
        out.unreadable.push_back(id);
        continue;
      }
      ++out.converted;
    }
    if (options.hold_before_commit.count() > 0) std::this_thread::sleep_for(options.hold_before_commit);
    return batch;
  });
  if (!ids) return std::unexpected(ids.error());
  if (!ids->empty()) out.last_id = ids->back();
  out.done = ids->size() < static_cast<std::size_t>(std::max(options.batch, 1));
  return out;
}

Result<std::optional<std::uint32_t>> SqliteStore::train_first_body_dictionary() {
  std::lock_guard lock(writer_mutex_);
  Connection& db = *writer_;
  constexpr std::string_view kFailed = "cannot train body dictionary";
  auto current = bodies_->current_id(sqlite::SqliteBodyDictionaries(db.raw()));
  if (!current) return std::unexpected(current.error());
  if (*current != 0) return std::optional<std::uint32_t>{};
  auto enough = read_one(
      db, kHasArticles, kFailed, [](Query& q) { q.bind(":least", kMinBodyDictionarySamples); },
      [](const Query& q) { return q.int64(0) != 0; });
  if (!enough) return std::unexpected(enough.error());
  if (!*enough) return std::optional<std::uint32_t>{};
  // BEGIN IMMEDIATE waits for another process's write; one that trained meanwhile is found here.
  return in_transaction(db, kFailed, [&]() -> Result<std::optional<std::uint32_t>> {
    auto newest = bodies_->current_id(sqlite::SqliteBodyDictionaries(db.raw()));
    if (!newest) return std::unexpected(newest.error());
    if (*newest != 0) return std::optional<std::uint32_t>{};
    return sqlite::train_body_dictionary(
        db.raw(), *bodies_, kBodyDictionarySamples,
        to_unix(std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now())));
  });
}

}  // namespace longread::storage::sqlite
