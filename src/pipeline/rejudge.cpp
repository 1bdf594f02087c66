#include "pipeline/rejudge.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "curate/curate.h"
#include "html/html.h"
#include "pipeline/article_builder.h"
#include "storage/store.h"

namespace longread::pipeline {
namespace {

constexpr std::size_t kTextBatch = 200;
// With texts rebuilt, a blog's template is learned from runs of this many of its stored articles (by date,
// as a feed would carry them), each the sample for its own articles; a short last run joins the one before.
constexpr std::size_t kTemplateWindow = 30;

bool visible(bool junk, std::optional<bool> keep_override) {
  return keep_override.value_or(!junk);
}

}  // namespace

std::int64_t RejudgeSummary::hidden() const {
  return std::count_if(changes.begin(), changes.end(),
                       [](const VerdictChange& c) { return c.visible_before && !c.visible_after; });
}

std::int64_t RejudgeSummary::shown() const {
  return std::count_if(changes.begin(), changes.end(),
                       [](const VerdictChange& c) { return !c.visible_before && c.visible_after; });
}

Result<RejudgeSummary> rejudge(storage::BlogStore& blog_store, storage::ArticleStore& article_store,
                               const curate::JunkOptions& options, std::optional<std::int64_t> blog_id,
                               bool dry_run, bool rebuild_texts) {
  // The ids first, a page at a time (listings leave out the text), then each article whole.
  std::vector<std::int64_t> ids;
  std::unordered_map<std::int64_t, std::vector<std::int64_t>> ids_by_blog;  // newest first
  constexpr int kPage = 500;
  for (int offset = 0;; offset += kPage) {
    auto page =
        article_store.articles({.blog_id = blog_id, .include_junk = true, .limit = kPage, .offset = offset});
    if (!page) return std::unexpected(page.error());
    for (const auto& view : *page) {
      ids.push_back(view.article.id);
      if (rebuild_texts) ids_by_blog[view.article.blog_id].push_back(view.article.id);
    }
    if (static_cast<int>(page->size()) < kPage) break;
  }

  // Each article's blog template, learned as a crawl learns it from a feed: from the untemplated texts of a
  // run of the blog's articles around it.
  std::unordered_map<std::int64_t, std::shared_ptr<const html::FeedTemplate>> templates;
  for (const auto& [blog, blog_ids] : ids_by_blog) {
    for (std::size_t start = 0; start < blog_ids.size();) {
      std::size_t end = std::min(start + kTemplateWindow, blog_ids.size());
      if (blog_ids.size() - end < kTemplateWindow / 2) end = blog_ids.size();
      std::vector<std::string> sample;
      for (std::size_t k = start; k < end; ++k) {
        auto view = article_store.article(blog_ids[k]);
        if (!view) return std::unexpected(view.error());
        if (*view) sample.push_back(untemplated_text((*view)->article));
      }
      auto learned = std::make_shared<const html::FeedTemplate>(html::learn_feed_template(sample));
      for (std::size_t k = start; k < end; ++k) templates.emplace(blog_ids[k], learned);
      start = end;
    }
  }

  RejudgeSummary summary;
  std::vector<storage::VerdictUpdate> updates;
  std::vector<storage::TextUpdate> texts;
  std::unordered_map<std::int64_t, model::Blog> blogs;
  for (const std::int64_t id : ids) {
    auto view = article_store.article(id);
    if (!view) return std::unexpected(view.error());
    if (!*view) continue;  // removed meanwhile (a blog deleted by another process)
    model::Article& article = (*view)->article;
    if (rebuild_texts) {
      model::Article rebuilt = article;
      const auto learned = templates.find(article.id);
      rebuild_text(rebuilt, learned == templates.end() ? nullptr : learned->second.get());
      if (rebuilt.text != article.text || rebuilt.excerpt != article.excerpt ||
          rebuilt.word_count != article.word_count || rebuilt.reading_minutes != article.reading_minutes ||
          rebuilt.simhash != article.simhash) {
        ++summary.texts_rebuilt;
        if (!dry_run)
          texts.push_back({.article_id = article.id,
                           .text = rebuilt.text,
                           .excerpt = rebuilt.excerpt,
                           .word_count = rebuilt.word_count,
                           .reading_minutes = rebuilt.reading_minutes,
                           .simhash = rebuilt.simhash});
        article.text = std::move(rebuilt.text);
        article.excerpt = std::move(rebuilt.excerpt);
        article.word_count = rebuilt.word_count;
        article.reading_minutes = rebuilt.reading_minutes;
        article.simhash = rebuilt.simhash;
      }
      // Saved as they come, a batch at a time, so a large database is not held in memory.
      if (!dry_run && texts.size() >= kTextBatch) {
        auto saved = article_store.set_texts(texts);
        if (!saved) return std::unexpected(saved.error());
        texts.clear();
      }
    }
    // A copy keeps its mark, also when its original was removed (the store keeps such a copy hidden).
    if (article.duplicate_of || (article.junk && article.junk_reason.starts_with("duplicate of"))) continue;
    auto known = blogs.find(article.blog_id);
    if (known == blogs.end()) {
      auto blog = blog_store.blog(article.blog_id);
      if (!blog) return std::unexpected(blog.error());
      if (!*blog) continue;
      known = blogs.emplace(article.blog_id, std::move(**blog)).first;
    }
    ++summary.judged;
    const curate::Verdict verdict = curate::judge(article, known->second, options);
    const std::string new_reason = verdict.junk ? verdict.reason : std::string();
    if (verdict.junk == article.junk && new_reason == article.junk_reason) continue;
    summary.changes.push_back({.article_id = article.id,
                               .blog_id = article.blog_id,
                               .title = article.title,
                               .old_reason = article.junk ? article.junk_reason : std::string(),
                               .new_reason = new_reason,
                               .visible_before = visible(article.junk, article.keep_override),
                               .visible_after = visible(verdict.junk, article.keep_override)});
    updates.push_back({.article_id = article.id, .junk = verdict.junk, .reason = new_reason});
  }
  if (!dry_run && !texts.empty()) {
    auto saved = article_store.set_texts(texts);
    if (!saved) return std::unexpected(saved.error());
    texts.clear();
  }
  if (!dry_run && !updates.empty()) {
    auto saved = article_store.set_verdicts(updates);
    if (!saved) return std::unexpected(saved.error());
  }
  return summary;
}

}  // namespace longread::pipeline
