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

// The search index's update trigger compares the derived text, which is unchanged, so it writes nothing.
constexpr const char* kCompactArticle =
    "UPDATE articles SET body = longread_body_pack(" LONGREAD_STORED_SUMMARY ", " LONGREAD_STORED_CONTENT
    ", " LONGREAD_STORED_TEXT ", " LONGREAD_STORED_EXCERPT
    "), summary_html = '', content_html = '', text = '', excerpt = '' WHERE id = :id";

// How many samples a dictionary is trained on: zstd advises ~100x the dictionary's size in samples, and
// 4,000 articles of a few KB each give that.
constexpr int kDictionarySamples = 4000;

constexpr const char* kMarkDuplicate =
    "UPDATE articles SET duplicate_of = :original, junk = 1, junk_reason = :reason,"
    " visible = CASE WHEN held = 1 THEN 0 WHEN keep_override IS NULL THEN 0 ELSE keep_override END"
    " WHERE id = :id";

}  // namespace

Result<void> SqliteStore::mark_duplicates(std::span<const std::pair<std::int64_t, std::int64_t>> marks) {
  if (marks.empty()) return {};
  std::lock_guard lock(writer_mutex_);
  auto tx = Transaction::begin(*writer_);
  if (!tx) return db_error("cannot mark duplicate", tx.error());
  for (const auto& [article_id, original_id] : marks) {
    auto q = writer_->query(kMarkDuplicate);
    if (!q) return db_error("cannot mark duplicate", q.error());
    q->bind(":id", article_id).bind(":original", original_id);
    q->bind(":reason", fmt::format("duplicate of article {}", original_id));
    if (auto ok = q->run(); !ok) return db_error("cannot mark duplicate", ok.error());
  }
  if (auto ok = tx->commit(); !ok) return db_error("cannot mark duplicate", ok.error());
  return {};
}

Result<void> SqliteStore::set_keep_override(std::int64_t article_id, std::optional<bool> keep) {
  std::lock_guard lock(writer_mutex_);
  auto q = writer_->query(kSetKeepOverride);
  if (!q) return db_error("cannot set keep override", q.error());
  q->bind(":keep", keep).bind(":id", article_id);
  if (auto ok = q->run(); !ok) return db_error("cannot set keep override", ok.error());
  if (writer_->changes() == 0) {
    return fail(ErrorKind::kNotFound, fmt::format("store: no article {}", article_id));
  }
  return {};
}

Result<std::int64_t> SqliteStore::set_verdicts(std::span<const VerdictUpdate> updates) {
  std::lock_guard lock(writer_mutex_);
  auto tx = Transaction::begin(*writer_);
  if (!tx) return db_error("cannot set verdicts", tx.error());
  std::int64_t changed = 0;
  for (const auto& update : updates) {
    auto q = writer_->query(kSetVerdict);
    if (!q) return db_error("cannot set verdicts", q.error());
    q->bind(":junk", update.junk ? 1 : 0).bind(":reason", update.junk ? update.reason : std::string());
    q->bind(":id", update.article_id);
    if (auto ok = q->run(); !ok) return db_error("cannot set verdicts", ok.error());
    changed += writer_->changes();
  }
  if (auto ok = tx->commit(); !ok) return db_error("cannot set verdicts", ok.error());
  return changed;
}

Result<std::int64_t> SqliteStore::set_texts(std::span<const TextUpdate> updates) {
  std::lock_guard lock(writer_mutex_);
  auto tx = Transaction::begin(*writer_);
  if (!tx) return db_error("cannot set texts", tx.error());
  std::int64_t changed = 0;
  for (const auto& update : updates) {
    auto q = writer_->query(kSetText);
    if (!q) return db_error("cannot set texts", q.error());
    q->bind(":text", update.text).bind(":excerpt", update.excerpt);
    q->bind(":word_count", static_cast<std::int64_t>(update.word_count));
    q->bind(":reading_minutes", static_cast<std::int64_t>(update.reading_minutes));
    q->bind(":simhash", std::bit_cast<std::int64_t>(update.simhash)).bind(":id", update.article_id);
    if (auto ok = q->run(); !ok) return db_error("cannot set texts", ok.error());
    changed += writer_->changes();
  }
  if (auto ok = tx->commit(); !ok) return db_error("cannot set texts", ok.error());
  return changed;
}

Result<CompactBatch> SqliteStore::compact_bodies(const CompactOptions& options) {
  std::lock_guard lock(writer_mutex_);
  CompactBatch out;
  out.last_id = options.after_id;
  if (options.after_id == 0) {
    auto current = bodies_->current_id(writer_->raw());
    if (!current) return std::unexpected(current.error());
    if (*current == 0 || options.retrain) {
      auto tx = Transaction::begin(*writer_);
      if (!tx) return db_error("cannot train body dictionary", tx.error());
      auto trained = sqlite::train_body_dictionary(
          writer_->raw(), *bodies_, kDictionarySamples,
          to_unix(std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now())));
      if (!trained) return std::unexpected(trained.error());
      if (auto ok = tx->commit(); !ok) return db_error("cannot train body dictionary", ok.error());
      out.trained_dictionary = *trained;
    }
  }
  auto current = bodies_->current_id(writer_->raw());
  if (!current) return std::unexpected(current.error());
  auto tx = Transaction::begin(*writer_);
  if (!tx) return db_error("cannot compact articles", tx.error());
  std::vector<std::int64_t> ids;
  {
    auto q = writer_->query(kSelectUncompacted);
    if (!q) return db_error("cannot compact articles", q.error());
    q->bind(":after", options.after_id)
        .bind(":dictionary", static_cast<std::int64_t>(*current))
        .bind(":batch", std::max(options.batch, 1));
    for (;;) {
      auto row = q->step();
      if (!row) return db_error("cannot compact articles", row.error());
      if (!*row) break;
      ids.push_back(q->int64(0));
    }
  }
  for (const std::int64_t id : ids) {
    auto q = writer_->query(kCompactArticle);
    if (!q) return db_error("cannot compact articles", q.error());
    q->bind(":id", id);
    // A body that cannot be read fails its own statement only (SQLite rolls back just that statement):
    // the row stays as it is, and is reported.
    if (auto ok = q->run(); !ok) {
      out.unreadable.push_back(id);
      continue;
    }
    ++out.converted;
  }
  if (options.hold_before_commit.count() > 0) std::this_thread::sleep_for(options.hold_before_commit);
  if (auto ok = tx->commit(); !ok) return db_error("cannot compact articles", ok.error());
  if (!ids.empty()) out.last_id = ids.back();
  out.done = ids.size() < static_cast<std::size_t>(std::max(options.batch, 1));
  return out;
}

}  // namespace longread::storage::sqlite
