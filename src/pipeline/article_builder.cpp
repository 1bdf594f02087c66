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

namespace {

// An identity longer than this is kept as a hash of it. The stores index each blog's identities, and a
// PostgreSQL B-tree entry holds at most about 2.7 KB: a feed's 10 KB guid failed its blog's whole save on
// every crawl, the plain entries beside it included. Real guids and links are a few hundred bytes.
constexpr std::size_t kMaxIdentityBytes = 1024;

std::string bounded_identity(std::string identity) {
  if (identity.size() <= kMaxIdentityBytes) return identity;
  return "hash:" + stable_hash_hex(identity);
}

}  // namespace

std::string entry_identity(const feed::Entry& entry) {
  const auto id = trim(entry.id);
  if (!id.empty()) return bounded_identity(std::string(id));
  if (!entry.link.empty()) {
    if (auto canonical = normalize_url(entry.link)) return bounded_identity(std::move(*canonical));
  }
  return "hash:" + stable_hash_hex(entry.title + "\x1f" + entry.published_raw + "\x1f" + entry.updated_raw);
}

namespace {

// Excerpt, counts and SimHash from article.text.
void derive_from_text(model::Article& article) {
  article.excerpt = html::make_excerpt(without_title_heading(article.text, article.title), kExcerptChars);
  article.word_count = static_cast<int>(count_words(article.text));
  article.reading_minutes = html::reading_minutes(static_cast<std::size_t>(article.word_count));
  article.simhash = curate::simhash(article.text);
}

// Category and verdict from the text.
void judge_article(model::Article& article, const model::Blog& blog, const CurationContext& context) {
  article.category =
      curate::choose_category(context.classifier, article.text, blog.category, context.category_threshold);
  const curate::JunkOptions defaults;
  const auto verdict = curate::judge(article, blog, context.junk_options ? *context.junk_options : defaults);
  article.junk = verdict.junk;
  article.junk_reason = verdict.reason;
}

// The text without the template, then what a template removal may have exposed at its new end ("Read
// more" before a footer).
std::string without_template(const std::string& text, const html::FeedTemplate& feed_template) {
  std::string stripped = html::strip_feed_template(text, feed_template);
  if (stripped.size() == text.size()) return stripped;
  return html::strip_boilerplate(stripped);
}

}  // namespace

const std::string& article_body(const model::Article& article) {
  return article.content_html.size() >= article.summary_html.size() ? article.content_html
                                                                    : article.summary_html;
}

std::string untemplated_text(const model::Article& article) {
  return html::strip_boilerplate(html::html_to_text(article_body(article)));
}

std::string untemplated_text(const feed::Entry& entry) {
  return html::strip_boilerplate(
      html::html_to_text(entry.content.size() >= entry.summary.size() ? entry.content : entry.summary));
}

namespace {

// Sets the text (the body's text, boilerplate already removed) less the blog's template, and derives the
// excerpt, counts and SimHash from it.
void set_text(model::Article& article, std::string untemplated, const html::FeedTemplate* feed_template) {
  article.text = std::move(untemplated);
  if (feed_template) article.text = without_template(article.text, *feed_template);
  derive_from_text(article);
}

}  // namespace

void rebuild_text(model::Article& article, const html::FeedTemplate* feed_template) {
  set_text(article, untemplated_text(article), feed_template);
}

void curate_article(model::Article& article, const model::Blog& blog, const CurationContext& context) {
  rebuild_text(article, context.feed_template);
  judge_article(article, blog, context);
}

void apply_feed_template(model::Article& article, const model::Blog& blog, const CurationContext& context) {
  if (!context.feed_template || context.feed_template->empty()) return;
  std::string text = without_template(article.text, *context.feed_template);
  if (text == article.text) return;
  article.text = std::move(text);
  derive_from_text(article);
  judge_article(article, blog, context);
}

model::Article build_article(const feed::Entry& entry, const model::Blog& blog, TimePoint now,
                             const CurationContext& context) {
  return build_article_with_signs(entry, blog, now, context).article;
}

BuiltArticle build_article_with_signs(const feed::Entry& entry, const model::Blog& blog, TimePoint now,
                                      const CurationContext& context) {
  BuiltArticle built;
  model::Article& a = built.article;
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
  const std::string body_text = html::html_to_text(article_body(a));
  built.body_text_ends_with_marker = html::ends_with_truncation_marker(body_text);
  set_text(a, html::strip_boilerplate(body_text), context.feed_template);
  judge_article(a, blog, context);
  if (a.title.empty()) a.title = html::make_excerpt(a.text, 80);
  if (a.title.empty()) a.title = "Untitled";
  return built;
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
  if (!context.feed_template) {
    std::vector<std::string> texts;
    texts.reserve(out.size());
    for (const auto& a : out) texts.push_back(a.text);
    const html::FeedTemplate learned = html::learn_feed_template(texts);
    CurationContext with_template = context;
    with_template.feed_template = &learned;
    for (auto& a : out) apply_feed_template(a, blog, with_template);
  }
  return out;
}

}  // namespace longread::pipeline
