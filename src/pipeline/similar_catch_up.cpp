#include "pipeline/similar_catch_up.h"

#include <vector>

#include "pipeline/crawler.h"
#include "pipeline/similar.h"
#include "storage/roles/lock_store.h"
#include "storage/roles/similar_store.h"

namespace longread::pipeline {

Result<CatchUpResult> catch_up_similar(SimilarIndexer& indexer, storage::SimilarStore& store,
                                       storage::LockStore& locks, const CatchUpOptions& options,
                                       const std::function<bool()>& keep_going) {
  const auto now = [&] { return options.clock ? options.clock() : now_seconds(); };
  const std::string owner = options.owner.empty() ? parsing_owner() : options.owner;
  CatchUpResult out;
  auto finish = [&](Result<CatchUpResult> result) -> Result<CatchUpResult> {
    // Its term counts are written before it returns: a catch-up that emptied the queue counted every article.
    if (auto written = indexer.flush(); !written && result) result = std::unexpected(written.error());
    if (auto released = locks.unlock(kSimilarCatchUpLock, owner); !released && result)
      return std::unexpected(released.error());
    return result;
  };
  for (;;) {
    if (keep_going && !keep_going()) return finish(out);
    // Taken (or renewed) before every batch, so a lease far shorter than the whole queue stays held.
    auto held = locks.try_lock(kSimilarCatchUpLock, owner, now(), now() + options.lease);
    if (!held) return finish(std::unexpected(held.error()));
    if (!*held) {
      out.busy = true;
      return out;  // never ours: nothing to give back
    }
    auto backlog = store.similar_backlog(options.batch);
    if (!backlog) return finish(std::unexpected(backlog.error()));
    if (backlog->queued.empty()) {
      out.finished = true;
      return finish(out);
    }
    std::vector<SimilarSource> sources;
    sources.reserve(backlog->articles.size());
    for (const auto& view : backlog->articles) {
      const auto& a = view.article;
      sources.push_back(
          {.id = a.id, .blog_id = a.blog_id, .simhash = a.simhash, .title = a.title, .text = a.text});
    }
    if (!sources.empty()) {
      if (auto picked = indexer.add_all(sources); !picked) return finish(std::unexpected(picked.error()));
    }
    if (auto taken = store.unqueue_similar(backlog->queued); !taken)
      return finish(std::unexpected(taken.error()));
    out.indexed += static_cast<std::int64_t>(sources.size());
    out.dropped += static_cast<std::int64_t>(backlog->queued.size() - sources.size());
  }
}

}  // namespace longread::pipeline
