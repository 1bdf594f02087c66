#include "pipeline/article_builder.h"

#include <algorithm>
#include <unordered_set>

#include "core/strings.h"
#include "core/url.h"
#include "curate/curate.h"
#include "feed/feed.h"
#include "html/html.h"

namespace longread::pipeline {
namespace {
constexpr std::size_t kExcerptChars = 2000;
}

std::string entry_identity(const feed::Entry& entry) {
  const auto id = trim(entry.id);
  if (!id.empty()) return std::string(id);
  if (!entry.link.empty()) {
    if (auto canonical = normalize_url(entry.link)) return *canonical;
  }
  return "hash:" + stable_hash_hex(entry.title + "\x1f" + entry.published_raw + "\x1f" + entry.updated_raw);
}

void rebuild_text(model::Article& article) {
  const std::string& body = article.content_html.size() >= article.summary_html.size() ? article.content_html
                                                                                       : article.summary_html;
  article.text = html::strip_boilerplate(html::html_to_text(body));
  article.excerpt = html::make_excerpt(without_title_heading(article.text, article.title), kExcerptChars);
  article.word_count = static_cast<int>(count_words(article.text));
  article.reading_minutes = html::reading_minutes(static_cast<std::size_t>(article.word_count));
  article.simhash = curate::simhash(article.text);
}

void curate_article(model::Article& article, const model::Blog& blog, const CurationContext& context) {
  rebuild_text(article);
  article.category =
      curate::choose_category(context.classifier, article.text, blog.category, context.category_threshold);
  const curate::JunkOptions defaults;
  const auto verdict = curate::judge(article, blog, context.junk_options ? *context.junk_options : defaults);
  article.junk = verdict.junk;
  article.junk_reason = verdict.reason;
}

model::Article build_article(const feed::Entry& entry, const model::Blog& blog, TimePoint now,
                             const CurationContext& context) {
  model::Article a;
  a.blog_id = blog.id;
  a.guid = entry_identity(entry);
  a.link = is_http_url(entry.link) ? entry.link : std::string();
  a.author = entry.author.empty() ? blog.author : entry.author;
  a.summary_html = entry.summary;
  a.content_html = entry.content;
  a.first_seen = now;

  // A feed's date is trusted only when plausible; Hugo drafts carry year 0001 and some feeds put
  // scheduled posts far in the future. Such articles take the time they were first seen.
  const auto published = entry.published ? entry.published : entry.updated;
  if (published && is_plausible_feed_date(*published, now)) {
    a.published = published;
  } else {
    a.undated = true;
  }
  if (entry.updated && is_plausible_feed_date(*entry.updated, now)) a.updated = entry.updated;

  a.title = std::string(trim(entry.title));
  curate_article(a, blog, context);
  if (a.title.empty()) a.title = html::make_excerpt(a.text, 80);
  if (a.title.empty()) a.title = "Untitled";
  return a;
}

std::vector<model::Article> build_articles(const feed::Feed& feed, const model::Blog& blog, TimePoint now,
                                           const CurationContext& context) {
  std::vector<model::Article> out;
  out.reserve(feed.entries.size());
  std::unordered_set<std::string> seen;
  for (const auto& entry : feed.entries) {
    auto article = build_article(entry, blog, now, context);
    if (!seen.insert(article.guid).second) continue;
    out.push_back(std::move(article));
  }
  return out;
}

}  // namespace longread::pipeline
