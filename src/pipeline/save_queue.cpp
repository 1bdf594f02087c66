#include "pipeline/save_queue.h"

#include <spdlog/spdlog.h>

#include <iterator>
#include <memory>
#include <utility>

#include "pipeline/crawler.h"
#include "pipeline/duplicates.h"
#include "pipeline/similar.h"

namespace longread::pipeline {

namespace {

// What a record holds in memory, roughly: its articles' strings, prepared bodies and search vectors (the rest
// is small).
std::size_t record_bytes(const storage::CrawlRecord& record) {
  std::size_t bytes = sizeof(record);
  for (const model::Article& a : record.articles) {
    bytes += sizeof(a) + a.guid.size() + a.title.size() + a.link.size() + a.author.size() +
             a.summary_html.size() + a.content_html.size() + a.text.size() + a.excerpt.size();
  }
  for (const std::string& body : record.prepared_bodies) bytes += body.size();
  for (const auto& vectors : record.prepared_search) bytes += vectors.words.size() + vectors.rank.size();
  for (const std::string& guid : record.feed_guids) bytes += guid.size();
  return bytes;
}

}  // namespace

SaveQueue::SaveQueue(DuplicateIndex& duplicates, SimilarIndexer* similar, OnSaved on_saved,
                     std::optional<TimePoint> fresh_since, std::size_t max_queued_bytes)
    : duplicates_(duplicates),
      similar_(similar),
      on_saved_(std::move(on_saved)),
      fresh_since_(fresh_since),
      max_queued_bytes_(max_queued_bytes) {}

void SaveQueue::push(storage::CrawlRecord record, BlogResult result, Clock::time_point started,
                     bool first_crawl) {
  const std::size_t bytes = record_bytes(record);
  {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return held_bytes_ == 0 || held_bytes_ < max_queued_bytes_; });
    held_bytes_ += bytes;
    queue_.push_back({std::move(record), std::move(result), started, first_crawl, bytes});
  }
  writer_.submit([this] { save_queued(); });
}

void SaveQueue::wait_idle() {
  // The writer hands its groups over before it is idle, so nothing reaches the similar thread after this.
  writer_.wait_idle();
  similar_thread_.wait_idle();
}

void SaveQueue::hand_over_similar(SimilarWork work) {
  const std::size_t bytes = work.bytes;
  {
    std::unique_lock lock(mutex_);
    similar_room_.wait(lock, [&] { return similar_bytes_ == 0 || similar_bytes_ < kMaxSimilarQueuedBytes; });
    similar_bytes_ += bytes;
  }
  similar_thread_.submit([this, work = std::make_shared<SimilarWork>(std::move(work))] {
    index_similar(*work);
    {
      std::lock_guard lock(mutex_);
      similar_bytes_ -= work->bytes;
    }
    similar_room_.notify_all();
  });
}

void SaveQueue::index_similar(const SimilarWork& work) {
  std::vector<SimilarSource> sources;
  sources.reserve(work.now.size());
  for (const auto& a : work.now)
    sources.push_back(
        {.id = a.id, .blog_id = a.blog_id, .simhash = a.simhash, .title = a.title, .text = a.text});
  try {
    if (!sources.empty()) {
      if (auto picked = similar_->add_all(sources); !picked)
        spdlog::warn("crawl: no similar articles for {} new articles: {}", sources.size(),
                     picked.error().message);
    }
    if (!work.later.empty()) {
      if (auto queued = similar_->defer(work.later); !queued)
        spdlog::warn("crawl: {} older articles not queued for similar articles: {}", work.later.size(),
                     queued.error().message);
    }
  } catch (...) {
    spdlog::warn("crawl: no similar articles for {} new articles: {}", sources.size() + work.later.size(),
                 exception_error("similar articles", std::current_exception()).message);
  }
}

void SaveQueue::save_queued() {
  std::vector<Job> jobs;
  {
    // At most kMaxSaveGroup blogs per transaction; every queued record has its own run of this task, so
    // none is left behind.
    std::lock_guard lock(mutex_);
    const auto n = std::min(queue_.size(), kMaxSaveGroup);
    jobs.assign(std::make_move_iterator(queue_.begin()),
                std::make_move_iterator(queue_.begin() + static_cast<std::ptrdiff_t>(n)));
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
  }
  if (jobs.empty()) return;  // an earlier run took them
  // The group's bytes are released once it is saved and reported, or whatever leaves this early, so a push
  // waiting for room never waits for a group that is gone.
  std::size_t group_bytes = 0;
  for (const Job& job : jobs) group_bytes += job.bytes;
  struct Release {
    SaveQueue& queue;
    std::size_t bytes;
    ~Release() {
      {
        std::lock_guard lock(queue.mutex_);
        queue.held_bytes_ -= bytes;
      }
      queue.room_.notify_all();
    }
  } release{*this, group_bytes};
  std::vector<storage::CrawlRecord> records;
  records.reserve(jobs.size());
  for (auto& job : jobs) records.push_back(std::move(job.record));
  std::vector<Result<storage::SaveStats>> saved;
  std::vector<SavedOriginal> originals;
  try {
    saved = duplicates_.save_all(records, similar_ ? &originals : nullptr);
  } catch (...) {
    // Nothing of the group was committed (the transaction rolls back as the exception leaves it).
    const Error error = exception_error("saving", std::current_exception());
    saved.assign(jobs.size(), std::unexpected(error));
    originals.clear();
  }
  // Each new fresh original gets its similar articles once, so the article page only reads them
  // (docs/similar.md): the group's in one batch, oldest first as saved, on the similar thread. An older one,
  // and every article of a blog's first crawl (its back catalogue, recent posts included), is queued for the
  // catch-up, which the index would otherwise hold the crawl up for: a third of the writer's time in a list's
  // first crawl. The records are not read after this, so their titles and texts move over.
  if (!originals.empty()) {
    SimilarWork work;
    for (const auto& original : originals) {
      auto& article = records[original.record].articles[original.article];
      if (fresh_since_ &&
          (jobs[original.record].first_crawl || (article.published && *article.published < *fresh_since_))) {
        work.later.push_back(original.id);
        continue;
      }
      work.bytes += sizeof(SimilarWork::Article) + article.title.size() + article.text.size();
      work.now.push_back({.id = original.id,
                          .blog_id = records[original.record].blog_id,
                          .simhash = article.simhash,
                          .title = std::move(article.title),
                          .text = std::move(article.text)});
    }
    work.bytes += work.later.size() * sizeof(std::int64_t);
    hand_over_similar(std::move(work));
  }
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    BlogResult& result = jobs[i].result;
    if (!saved[i]) {
      result.outcome = PollOutcome::kFailed;
      result.status = "not saved: " + saved[i].error().message;
      result.error_kind = saved[i].error().kind;
      spdlog::error("crawl: cannot save blog_id={} feed_url={}: {}", result.blog_id, result.feed_url,
                    saved[i].error().message);
    } else {
      result.new_articles = saved[i]->inserted;
      result.updated_articles = saved[i]->updated;
      result.articles_deleted = saved[i]->deleted;
    }
    result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - jobs[i].started);
    on_saved_(result);
  }
}

}  // namespace longread::pipeline
