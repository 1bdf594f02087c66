#include "storage/search_snippet.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace longread::storage {
namespace {

// Each step below is FTS5's own (SQLite's ext/fts5/fts5_aux.c: fts5SnippetFunction, fts5SnippetScore,
// fts5SentenceFinderCb, fts5CInstIterNext, fts5HighlightCb), so that both backends choose the same words;
// the test holds this to SQLite's snippet() on the same texts.

struct Word {
  std::size_t start;  // its bytes in the text: [start, end)
  std::size_t end;
  int query_word;  // which of the query's distinct words it is, or -1
};

// A phrase found at a word position; kept in FTS5's order: by position, then by the phrase's place in the
// query.
struct Instance {
  std::int64_t position;
  std::size_t phrase;
};

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

class SnippetMaker {
 public:
  SnippetMaker(const std::vector<std::vector<std::string>>& phrases, std::string_view text) : text_(text) {
    for (const auto& phrase : phrases) {
      std::vector<int>& ids = phrase_ids_.emplace_back();
      for (const std::string& w : phrase) {
        const auto found = std::ranges::find(distinct_, std::string_view(w));
        ids.push_back(static_cast<int>(found - distinct_.begin()));
        if (found == distinct_.end()) distinct_.emplace_back(w);
      }
    }
  }

  // One word of the text, in order.
  void add(std::string_view word, std::size_t start, std::size_t end) {
    int id = -1;
    for (std::size_t i = 0; i < distinct_.size(); ++i) {
      if (distinct_[i] == word) {
        id = static_cast<int>(i);
        break;
      }
    }
    // A sentence starts at the first word, and at a word that follows white space after '.' or ':'.
    if (words_.empty()) {
      sentence_starts_.push_back(0);
    } else {
      std::size_t i = start;
      while (i > 0 && is_space(text_[i - 1])) --i;
      if (i < start && i > 0 && (text_[i - 1] == '.' || text_[i - 1] == ':'))
        sentence_starts_.push_back(std::ssize(words_));
    }
    words_.push_back({start, end, id});
  }

  std::string snippet() {
    find_instances();
    const auto doc_size = std::ssize(words_);
    std::int64_t best_score = 0;
    std::int64_t best_start = 0;
    for (const Instance& instance : instances_) {
      const std::int64_t at = instance.position;
      std::int64_t adjusted = 0;
      std::int64_t score = score_window(at, &adjusted);
      if (score > best_score) {
        best_score = score;
        best_start = adjusted;
      }
      if (!sentence_starts_.empty() && doc_size > kSnippetWords) {
        // The last sentence start at or before the match: a window from there, if it starts earlier,
        // gets a bonus (more for the text's start).
        std::size_t jj = 0;
        while (jj + 1 < sentence_starts_.size() && sentence_starts_[jj + 1] <= at) ++jj;
        const std::int64_t sentence = sentence_starts_[jj];
        if (sentence < at) {
          score = score_window(sentence, nullptr) + (sentence == 0 ? 120 : 100);
          if (score > best_score) {
            best_score = score;
            best_start = sentence;
          }
        }
      }
    }
    return highlight(best_start, doc_size);
  }

 private:
  void find_instances() {
    const auto n = words_.size();
    for (std::size_t at = 0; at < n; ++at) {
      if (words_[at].query_word < 0) continue;
      for (std::size_t p = 0; p < phrase_ids_.size(); ++p) {
        const std::vector<int>& ids = phrase_ids_[p];
        if (ids.empty() || at + ids.size() > n) continue;
        bool match = true;
        for (std::size_t k = 0; k < ids.size() && match; ++k) match = words_[at + k].query_word == ids[k];
        if (match) instances_.push_back({static_cast<std::int64_t>(at), p});
      }
    }
  }

  // The window of kSnippetWords words from `start`: 1,000 for each phrase found in it, 1 for each further
  // match of one. `adjusted`, when asked for, is where the window should start to centre its matches.
  std::int64_t score_window(std::int64_t start, std::int64_t* adjusted) {
    seen_.assign(phrase_ids_.size(), false);
    const std::int64_t end = start + kSnippetWords;
    std::int64_t score = 0;
    std::int64_t first = -1;
    std::int64_t last = 0;
    // FTS5 walks every match for every window, which a long text full of one word makes quadratic (a
    // text of 40,000 matches took SQLite 7 s). The matches are in position order, so only those inside
    // the window are walked: the same result, at most kSnippetWords times the phrases per window.
    const auto from = std::ranges::lower_bound(instances_, start, {}, &Instance::position);
    for (auto it = from; it != instances_.end() && it->position < end; ++it) {
      const Instance& instance = *it;
      score += seen_[instance.phrase] ? 1 : 1000;
      seen_[instance.phrase] = true;
      if (first < 0) first = instance.position;
      last = instance.position + std::ssize(phrase_ids_[instance.phrase]);
    }
    if (adjusted != nullptr) {
      // C's division, which truncates toward zero, as FTS5 computes it.
      std::int64_t at = first - (kSnippetWords - (last - first)) / 2;
      if (at + kSnippetWords > std::ssize(words_)) at = std::ssize(words_) - kSnippetWords;
      *adjusted = std::max<std::int64_t>(at, 0);
    }
    return score;
  }

  // The next run of overlapping matches, as word positions [run_start_, run_end_]; -1 when none is left.
  void next_run() {
    run_start_ = -1;
    run_end_ = -1;
    for (; next_instance_ < instances_.size(); ++next_instance_) {
      const Instance& instance = instances_[next_instance_];
      const std::int64_t end = instance.position - 1 + std::ssize(phrase_ids_[instance.phrase]);
      if (run_start_ < 0) {
        run_start_ = instance.position;
        run_end_ = end;
      } else if (instance.position <= run_end_) {
        run_end_ = std::max(run_end_, end);
      } else {
        break;
      }
    }
  }

  void append(std::string& out, std::size_t from, std::size_t to) const {
    if (to > from) out.append(text_.substr(from, to - from));
  }

  std::string highlight(std::int64_t range_start, std::int64_t doc_size) {
    const std::int64_t range_end = range_start + kSnippetWords - 1;
    std::string out;
    if (range_start > 0) out += "\u2026";
    next_instance_ = 0;
    next_run();
    while (run_start_ >= 0 && run_start_ < range_start) next_run();
    std::size_t off = 0;
    for (std::int64_t at = range_start; at <= range_end && at < doc_size; ++at) {
      const Word& w = words_[static_cast<std::size_t>(at)];
      if (range_start > 0 && at == range_start) off = w.start;
      if (at == run_start_) {
        append(out, off, w.start);
        out += '\x01';
        off = w.start;
      }
      if (at == run_end_) {
        append(out, off, w.end);
        out += '\x02';
        off = w.end;
        next_run();
      }
      if (at == range_end) {
        append(out, off, w.end);
        off = w.end;
        if (at >= run_start_ && at < run_end_) out += '\x02';
      }
    }
    if (range_end >= doc_size - 1) {
      append(out, off, text_.size());
    } else {
      out += "\u2026";
    }
    return out;
  }

  std::string_view text_;
  std::vector<std::string_view> distinct_;
  std::vector<std::vector<int>> phrase_ids_;
  std::vector<Word> words_;
  std::vector<std::int64_t> sentence_starts_;
  std::vector<Instance> instances_;
  std::vector<bool> seen_;
  std::size_t next_instance_ = 0;
  std::int64_t run_start_ = -1;
  std::int64_t run_end_ = -1;
};

}  // namespace

std::string search_snippet(const SearchTokenizer& tokenizer,
                           const std::vector<std::vector<std::string>>& phrases, std::string_view text) {
  SnippetMaker maker(phrases, text);
  tokenizer.for_each_word(
      text, [&](std::string_view word, std::size_t start, std::size_t end) { maker.add(word, start, end); });
  return maker.snippet();
}

}  // namespace longread::storage
