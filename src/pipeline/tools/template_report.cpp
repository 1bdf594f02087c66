// longread-template-report: what per-blog template detection and the junk rules do to a directory of feed
// files, each file read as one blog's feed (as a crawl with full-text fetching off would store it). For
// every entry the article is built twice, without and with the template learned from the feed's entries,
// and the two are compared: texts changed, words removed, verdicts changed. Used for the figures in
// docs/curate.md.
//
//   longread-template-report [--corpus DIR] [--min-words 150] [--list]
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/strings.h"
#include "curate/curate.h"
#include "feed/feed.h"
#include "html/html.h"
#include "pipeline/article_builder.h"

namespace fs = std::filesystem;
using namespace longread;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool is_feed_file(const fs::path& p) {
  const std::string name = p.filename().string();
  if (name.ends_with(".serde.json") || name == "SOURCES.md" || name.starts_with("LICENSE")) return false;
  return p.parent_path().filename() != "opml";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"per-blog template detection and junk rules on a directory of feeds"};
  std::string corpus = std::string(LONGREAD_CORPUS_DIR) + "/real-feeds";
  int min_words = 150;
  bool list = false;
  bool keys = false;
  app.add_option("--corpus", corpus, "directory of feed files, searched recursively");
  app.add_option("--min-words", min_words, "curate.min_words");
  app.add_flag("--list", list, "print every changed entry and every entry the thread/page rules flag");
  app.add_flag("--keys", keys, "print each blog's template (its normalised paragraphs and lines)");
  CLI11_PARSE(app, argc, argv);

  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(corpus))
    if (e.is_regular_file() && is_feed_file(e.path())) files.push_back(e.path());
  std::sort(files.begin(), files.end());

  const curate::JunkOptions junk{.languages = {"en"}, .min_words = min_words};
  const TimePoint now = now_seconds();
  int feeds = 0, entries = 0, blogs_with_template = 0, blogs_changed = 0, texts_changed = 0,
      excerpts_changed = 0;
  int newly_short = 0, kept_before = 0, kept_after = 0;
  long words_removed = 0;
  std::map<std::string, int> reasons;  // verdicts of the thread and page rules, with the template
  for (const auto& path : files) {
    auto parsed = feed::parse_feed(read_file(path), {.base_url = "file://" + path.string()});
    if (!parsed || parsed->entries.empty()) continue;
    ++feeds;
    model::Blog blog;
    blog.feed_url = "file://" + path.string();
    blog.category = "programming";
    blog.title = parsed->title;
    blog.author = parsed->author;
    const pipeline::CurationContext plain{.junk_options = &junk};
    std::vector<model::Article> before;
    std::vector<std::string> sample;
    for (const auto& entry : parsed->entries) {
      before.push_back(pipeline::build_article(entry, blog, now, plain));
      sample.push_back(before.back().text);
    }
    const html::FeedTemplate learned = html::learn_feed_template(sample);
    if (!learned.empty()) ++blogs_with_template;
    if (keys && !learned.empty()) {
      fmt::print("template {} ({} of {} entries distinct):\n", fs::relative(path, corpus).string(),
                 learned.sample, sample.size());
      for (const auto& key : learned.keys) fmt::print("    {:.160}\n", key);
    }
    pipeline::CurationContext with_template = plain;
    with_template.feed_template = &learned;
    bool blog_changed = false;
    const std::string rel = fs::relative(path, corpus).string();
    for (const auto& b : before) {
      ++entries;
      model::Article a = b;
      pipeline::apply_feed_template(a, blog, with_template);
      if (!b.junk) ++kept_before;
      if (!a.junk) ++kept_after;
      if (a.text != b.text) {
        ++texts_changed;
        blog_changed = true;
        words_removed += b.word_count - a.word_count;
        if (a.excerpt != b.excerpt) ++excerpts_changed;
        const bool now_short = a.junk && a.junk_reason.starts_with("too short") && !b.junk;
        if (now_short) ++newly_short;
        if (list)
          fmt::print("changed  {:<48.48} {:<40.40} {} -> {} words{}\n", rel, b.title, b.word_count,
                     a.word_count,
                     now_short ? "  NOW TOO SHORT" : (a.junk != b.junk ? "  verdict: " + a.junk_reason : ""));
      }
      const std::string& r = a.junk_reason;
      if (r == "forum thread" || r == "aggregator story" || r == "not an article: uses page" ||
          r == "not an article: about page" || r == "not an article: CV" || r == "not an article: now page") {
        ++reasons[r];
        if (list) fmt::print("flagged  {:<48.48} {:<40.40} {}  <{}>\n", rel, b.title, r, b.link);
      }
    }
    if (blog_changed) ++blogs_changed;
  }
  fmt::print("{} feeds, {} entries; a template learned for {} blogs\n", feeds, entries, blogs_with_template);
  fmt::print("texts changed: {} entries of {} blogs ({} excerpts), {} words removed\n", texts_changed,
             blogs_changed, excerpts_changed, words_removed);
  fmt::print("kept by the rules before: {}, after: {}; under the length rule as a result: {}\n", kept_before,
             kept_after, newly_short);
  for (const auto& [reason, n] : reasons) fmt::print("  {}: {}\n", reason, n);
  return 0;
}
