#include "storage/postgres/search_vectors.h"

#include "storage/postgres/common_words.h"
#include "storage/postgres/key_set.h"
#include "storage/postgres/phrase_filter.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace longread::storage::postgres {
namespace {

// PostgreSQL's limits on a tsvector (src/include/tsearch/ts_type.h), which to_tsvector keeps by
// dropping or clamping and which the binary form must keep too, or the server refuses the whole row:
// a lexeme of at most 2,047 bytes (to_tsvector skips longer words), positions up to 16,383 (later ones
// are clamped to it), and a megabyte of lexemes in all. A lexeme keeps its first 255 positions in each
// to_tsvector and at most 256 once the title's and the text's vectors are joined (||). (kMaxLexemeBytes is
// in the header.)
constexpr std::uint16_t kMaxPosition = 16383;
constexpr std::size_t kMaxPositionsPerPart = 255;
constexpr std::size_t kMaxPositions = 256;
constexpr std::size_t kMaxLexemeTotal = (std::size_t{1} << 20) - std::size_t{64} * 1024;
// A position's high bit marks weight A (the title) here; the rest are weight D (binary() writes PostgreSQL's
// own bits).
constexpr std::uint16_t kWeightA = 0x8000;

// Looks words up without copying them into a std::string first.
struct WordHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view word) const noexcept { return std::hash<std::string_view>{}(word); }
};

// The title's words with their positions, as a tsvector is built from them (the rank vector). A lexeme's
// positions are a list threaded through one shared array, so a word costs one hash lookup and no allocation
// of its own.
class VectorBuilder {
 public:
  VectorBuilder() { index_.reserve(64); }

  void add(std::string_view word, bool title) {
    // No word holds a NUL, which would end the lexeme early in the binary form: the tokenizer splits
    // words at it, as at any control character (a test sends one).
    if (word.empty() || word.size() > kMaxLexemeBytes) return;
    if (position_ < kMaxPosition) ++position_;
    auto it = index_.find(word);
    if (it == index_.end()) {
      if (bytes_ + word.size() > kMaxLexemeTotal) return;
      bytes_ += word.size();
      it = index_.emplace(std::string(word), static_cast<std::uint32_t>(lexemes_.size())).first;
      lexemes_.push_back(Lexeme{&it->first});
    }
    Lexeme& lexeme = lexemes_[it->second];
    // Words past the last position all land on it: it is kept once, as the server keeps it.
    if (lexeme.count > 0 && (positions_[lexeme.last].value & ~kWeightA) == position_) return;
    std::uint16_t& in_part = title ? lexeme.in_title : lexeme.in_text;
    if (in_part >= kMaxPositionsPerPart || lexeme.count >= kMaxPositions) return;
    ++in_part;
    const auto at = static_cast<std::uint32_t>(positions_.size());
    positions_.push_back({title ? static_cast<std::uint16_t>(position_ | kWeightA) : position_, kNone});
    if (lexeme.count++ == 0) {
      lexeme.first = at;
    } else {
      positions_[lexeme.last].next = at;
    }
    lexeme.last = at;
  }

  // The vector in tsvector's binary form, as PostgreSQL's tsvectorrecv reads it: the number of lexemes
  // (int32), then each lexeme's bytes and a NUL, its number of positions (uint16) and each position
  // (uint16: the weight in the two high bits, A = 3, D = 0), all big-endian. Lexemes go in byte order,
  // the order the server keeps them in, so it has nothing to sort or deduplicate.
  [[nodiscard]] std::string binary() {
    std::ranges::sort(lexemes_, [](const Lexeme& a, const Lexeme& b) { return *a.word < *b.word; });
    std::string out;
    out.reserve(4 + bytes_ + lexemes_.size() * 3 + positions_.size() * 2);
    append_be(out, static_cast<std::uint32_t>(lexemes_.size()), 4);
    for (const Lexeme& lexeme : lexemes_) {
      out += *lexeme.word;
      out += '\0';
      append_be(out, lexeme.count, 2);
      for (std::uint32_t at = lexeme.first; at != kNone; at = positions_[at].next) {
        const std::uint16_t value = positions_[at].value;
        const auto weight = static_cast<std::uint16_t>((value & kWeightA) != 0 ? 0xC000 : 0);
        append_be(out, static_cast<std::uint16_t>(weight | (value & ~kWeightA)), 2);
      }
    }
    return out;
  }

  static void append_be(std::string& out, std::uint32_t value, int bytes) {
    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8)
      out += static_cast<char>((value >> shift) & 0xFF);
  }

  static void append_quoted(std::string& out, std::string_view lexeme) {
    out += '\'';
    for (const char c : lexeme) {
      if (c == '\'' || c == '\\') out += '\\';
      out += c;
    }
    out += '\'';
  }

 private:
  static constexpr std::uint32_t kNone = 0xFFFFFFFF;
  struct Lexeme {
    const std::string* word;  // the key in index_, which never moves it
    std::uint32_t first = kNone;
    std::uint32_t last = kNone;
    std::uint16_t count = 0;
    std::uint16_t in_title = 0;
    std::uint16_t in_text = 0;
  };
  struct Position {
    std::uint16_t value;
    std::uint32_t next;
  };
  std::unordered_map<std::string, std::uint32_t, WordHash, std::equal_to<>> index_;
  std::vector<Lexeme> lexemes_;
  std::vector<Position> positions_;
  std::uint16_t position_ = 0;
  std::size_t bytes_ = 0;
};

// The distinct words of title and text as the search index keeps them: the ids of the indexed ones and the
// bitmap of the common ones (CommonWords). Every word of every article passes through add() on a crawler's
// thread, so a word costs its keyed hash, which its id is cut from anyway, and a probe of a flat table of
// those hashes: no copy of the word and no allocation. Two words are one here only when their 64-bit keyed
// hashes are equal, which a blog cannot arrange without the database's key (by chance, about once in 10^19
// pairs of words); the key likewise keeps a blog from crowding its words into one run of the table.
class IndexedWords {
 public:
  explicit IndexedWords(const CommonWords& common) : common_(common), bitmap_(common.bitmap_bytes(), '\0') {}

  // `fixed_hash` is the word's phrase_word_hash(), which the phrase filter needs anyway: most of a text's
  // words were seen before in it, and that hash tells so without computing the keyed one. (Two words of one
  // text with the same fixed hash count as one, the second left out of that text's index: by chance about
  // once in 10^14 articles; a blog that writes such a pair only hides its own word.)
  void add(std::string_view word, std::uint64_t fixed_hash) {
    if (word.empty() || word.size() > kMaxLexemeBytes) return;
    if (!by_fixed_hash_.insert(fixed_hash)) return;
    const std::uint64_t hash = common_.word_hash(word);
    if (seen_.contains(hash)) return;
    // The word's first occurrence. A common word goes to the bitmap instead of the ids.
    if (const std::optional<int> bit = common_.bit(word, hash)) {
      set_bitmap_bit(bitmap_, *bit);
      seen_.insert(hash);
      return;
    }
    // Past PostgreSQL's megabyte of lexemes, a new word is left out, as to_tsvector leaves it out; it is not
    // remembered, so a later occurrence is left out the same way.
    if (bytes_ + word.size() > kMaxLexemeTotal) return;
    bytes_ += word.size();
    ids_.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(hash)));
    seen_.insert(hash);
  }

  // The indexed words' ids (CommonWords::word_id), in int4[]'s binary form (int4_array_binary).
  [[nodiscard]] std::string word_ids() { return int4_array_binary(std::move(ids_)); }
  // The bits of the common words the article holds.
  [[nodiscard]] std::string common_bitmap() { return std::move(bitmap_); }

 private:
  const CommonWords& common_;
  std::string bitmap_;
  KeySet seen_;                                // keyed hashes: no seed needed
  KeySet by_fixed_hash_{512, key_set_seed()};  // fixed hashes, which a text can choose: placed by a seed
  std::vector<std::int32_t> ids_;
  std::size_t bytes_ = 0;
};

// The phrase filter of the words the search vector numbers, fed as VectorBuilder::add numbers them: a word
// it skips has no position, so its neighbours are each other's.
struct PositionedPairs {
  PhraseFilterBuilder filter;
  std::size_t positioned = 0;

  void add(std::string_view word, std::uint64_t fixed_hash) {
    if (word.empty() || word.size() > kMaxLexemeBytes) return;
    if (++positioned > kMaxPosition) {
      filter.give_up();
    } else {
      filter.add_hash(fixed_hash);
    }
  }
};

// The first `n` characters of UTF-8 `text` (a continuation byte never starts a character).
std::string_view first_characters(std::string_view text, std::size_t n) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && chars++ == n) return text.substr(0, i);
  }
  return text;
}

}  // namespace

SearchVectors search_vectors(const SearchTokenizer& tokenizer, const CommonWords& common,
                             std::string_view title, std::string_view text) {
  IndexedWords search(common);
  VectorBuilder rank;
  PositionedPairs pairs;
  LeadFilterBuilder lead;
  tokenizer.for_each_token(title, [&](std::string_view word) {
    const std::uint64_t fixed_hash = phrase_word_hash(word);
    search.add(word, fixed_hash);
    rank.add(word, true);
    pairs.add(word, fixed_hash);
    return true;
  });
  tokenizer.for_each_token(text, [&](std::string_view word) {
    const std::uint64_t fixed_hash = phrase_word_hash(word);
    search.add(word, fixed_hash);
    pairs.add(word, fixed_hash);
    return true;
  });
  tokenizer.for_each_token(first_characters(text, kLeadCharacters), [&](std::string_view word) {
    if (!word.empty() && word.size() <= kMaxLexemeBytes) lead.add(word);
    return true;
  });
  return {search.word_ids(), rank.binary(), pairs.filter.bytes(), search.common_bitmap(), lead.bytes()};
}

std::string int4_array_binary(std::vector<std::int32_t> ids) {
  std::ranges::sort(ids);
  ids.erase(std::ranges::unique(ids).begin(), ids.end());
  constexpr std::uint32_t kInt4Oid = 23;
  // Written in place, four bytes at a time: an article has a few hundred ids, and this runs for each one.
  std::string out(ids.empty() ? 12 : 20 + ids.size() * 8, '\0');
  char* at = out.data();
  const auto put = [&at](std::uint32_t value) {
    for (int shift = 24; shift >= 0; shift -= 8) *at++ = static_cast<char>((value >> shift) & 0xFF);
  };
  put(ids.empty() ? 0 : 1);  // dimensions
  put(0);                    // no NULL element
  put(kInt4Oid);
  if (!ids.empty()) {
    put(static_cast<std::uint32_t>(ids.size()));
    put(1);  // the lower bound
  }
  for (const std::int32_t id : ids) {
    put(4);
    put(static_cast<std::uint32_t>(id));
  }
  return out;
}

std::string search_words(const SearchTokenizer& tokenizer, const std::vector<std::string>& terms) {
  std::string out;
  for (const std::string& term : terms) {
    tokenizer.for_each_token(term, [&](std::string_view word) {
      if (word.size() > kMaxLexemeBytes) return true;
      if (!out.empty()) out += " & ";
      VectorBuilder::append_quoted(out, word);
      return true;
    });
  }
  return out;
}

SplitSearchWords split_search_words(const SearchTokenizer& tokenizer, const CommonWords& common,
                                    const std::vector<std::string>& terms) {
  SplitSearchWords out;
  std::vector<std::int32_t> ids;
  for (const std::string& term : terms) {
    tokenizer.for_each_token(term, [&](std::string_view word) {
      if (word.size() > kMaxLexemeBytes) return true;
      if (const std::optional<int> bit = common.bit(word)) {
        if (std::ranges::find(out.common_bits, *bit) == out.common_bits.end())
          out.common_bits.push_back(*bit);
        return true;
      }
      if (!out.indexed.empty()) out.indexed += " & ";
      VectorBuilder::append_quoted(out.indexed, word);
      ids.push_back(common.word_id(word));
      return true;
    });
  }
  std::ranges::sort(ids);
  ids.erase(std::ranges::unique(ids).begin(), ids.end());
  if (!ids.empty()) out.indexed_ids = fmt::format("{{{}}}", fmt::join(ids, ","));
  return out;
}

std::vector<std::uint32_t> query_phrase_probes(const std::vector<std::vector<std::string>>& phrases) {
  std::vector<std::uint32_t> out;
  for (const std::vector<std::string>& words : phrases) {
    const std::vector<std::uint32_t> probes = phrase_probes(words);
    out.insert(out.end(), probes.begin(), probes.end());
  }
  return out;
}

std::vector<std::uint32_t> query_lead_probes(const SearchTokenizer& tokenizer,
                                             const std::vector<std::string>& terms) {
  std::vector<std::string> words;
  for (const std::string& term : terms) {
    tokenizer.for_each_token(term, [&](std::string_view word) {
      if (words.size() < kRankedLeadWords && word.size() <= kMaxLexemeBytes &&
          std::ranges::find(words, word) == words.end())
        words.emplace_back(word);
      return true;
    });
  }
  std::vector<std::uint32_t> out;
  for (const std::string& word : words) {
    const std::vector<std::uint32_t> probes = lead_word_probes(word);
    out.insert(out.end(), probes.begin(), probes.end());
  }
  return out;
}

std::vector<std::vector<std::string>> query_phrases(const SearchTokenizer& tokenizer,
                                                    const std::vector<std::string>& terms) {
  std::vector<std::vector<std::string>> out;
  for (const std::string& term : terms) {
    std::vector<std::string> words;
    tokenizer.for_each_token(term, [&](std::string_view word) {
      if (word.size() <= kMaxLexemeBytes) words.emplace_back(word);
      return true;
    });
    if (words.size() > 1) out.push_back(std::move(words));
  }
  return out;
}

namespace {

// One phrase looked for in a stream of words, Knuth-Morris-Pratt over words: each word of the article is
// compared once or a few times, without copying it, and a partial match that fails falls back to the
// longest one it still holds ("a a b" in "a a a b").
class PhraseMatcher {
 public:
  explicit PhraseMatcher(const std::vector<std::string>& words) : words_(words), fallback_(words.size(), 0) {
    for (std::size_t i = 1, k = 0; i < words_.size(); ++i) {
      while (k > 0 && words_[i] != words_[k]) k = fallback_[k - 1];
      if (words_[i] == words_[k]) ++k;
      fallback_[i] = k;
    }
  }
  // Takes the next word; true once the whole phrase has been seen.
  bool next(std::string_view word) {
    if (found_) return true;
    while (matched_ > 0 && word != words_[matched_]) matched_ = fallback_[matched_ - 1];
    if (word == words_[matched_]) ++matched_;
    found_ = matched_ == words_.size();
    return found_;
  }
  // A new column: a phrase never runs from one into the next.
  void restart() { matched_ = 0; }
  [[nodiscard]] bool found() const { return found_; }

 private:
  const std::vector<std::string>& words_;
  std::vector<std::size_t> fallback_;  // fallback_[i]: the longest proper border of words_[0..i]
  std::size_t matched_ = 0;
  bool found_ = false;
};

}  // namespace

bool holds_phrases(const SearchTokenizer& tokenizer, const std::vector<std::vector<std::string>>& phrases,
                   std::string_view title, std::string_view text) {
  std::vector<PhraseMatcher> matchers;
  matchers.reserve(phrases.size());
  for (const auto& phrase : phrases)
    if (!phrase.empty()) matchers.emplace_back(phrase);
  std::size_t missing = matchers.size();
  for (const std::string_view part : {title, text}) {
    if (missing == 0) break;
    for (PhraseMatcher& m : matchers) m.restart();
    tokenizer.for_each_token(part, [&](std::string_view word) {
      if (word.empty() || word.size() > kMaxLexemeBytes) return true;
      for (PhraseMatcher& m : matchers)
        if (!m.found() && m.next(word)) --missing;
      return missing > 0;
    });
  }
  return missing == 0;
}

std::string search_query(const SearchTokenizer& tokenizer, const std::vector<std::string>& terms) {
  std::string out;
  for (const std::string& term : terms) {
    std::string phrase;
    int words = 0;
    tokenizer.for_each_token(term, [&](std::string_view word) {
      if (word.size() > kMaxLexemeBytes) return true;
      if (words++ > 0) phrase += " <-> ";
      VectorBuilder::append_quoted(phrase, word);
      return true;
    });
    if (words == 0) continue;
    if (!out.empty()) out += " & ";
    out += words > 1 ? "(" + phrase + ")" : phrase;
  }
  return out;
}

}  // namespace longread::storage::postgres
