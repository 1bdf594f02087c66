// The compressed form of an article's body (docs/storage.md, "Article bodies"): summary HTML, content HTML,
// plain text and excerpt packed into one zstd frame (RFC 8878), optionally with a dictionary trained on the
// site's own articles and kept in the database. Both backends store bodies this way; where a backend keeps
// its dictionaries is behind BodyDictionarySource.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"

namespace longread::storage {

// The four parts of a body to be packed, read where they lie (an article of a crawl, a row's columns).
struct ArticleBodyView {
  std::string_view summary_html;
  std::string_view content_html;
  std::string_view text;
  std::string_view excerpt;

  // Nothing to keep: such an article is stored with no body at all (a NULL body with empty plain columns
  // reads as empty).
  [[nodiscard]] bool empty() const {
    return summary_html.empty() && content_html.empty() && text.empty() && excerpt.empty();
  }
};

// The big parts of an article: the page reads the HTML, the search index the text, listings the excerpt.
struct ArticleBody {
  std::string summary_html;
  std::string content_html;
  std::string text;
  std::string excerpt;

  [[nodiscard]] ArticleBodyView view() const { return {summary_html, content_html, text, excerpt}; }
};

// zstd's level for new bodies: 3, zstd's own default. The crawl's writer compresses every new body, and at
// level 9 that was a fifth of SQLite's writer thread; level 3 compresses about six times faster for frames
// about 7 % larger (docs/perf.md, "Compact store" and "Crawling Kagi Small Web").
inline constexpr int kBodyCompressionLevel = 3;
// A frame that claims more than this is refused before anything is allocated: no stored article comes
// near it (fetch caps a response well below), so such a header is corrupt or hostile.
inline constexpr std::uint64_t kMaxBodyBytes = 64ull * 1024 * 1024;

// How many of the newest articles `db compact` trains a dictionary on: zstd advises ~100x the dictionary's
// size in samples, and 4,000 articles of a few KB each give that.
inline constexpr int kBodyDictionarySamples = 4000;
// Below this many sample bodies ZDICT has too little to learn from (it wants ~100x the dictionary's size in
// samples) and fails or learns noise: no dictionary is trained for a smaller site.
inline constexpr int kMinBodyDictionarySamples = 1000;

// A body's frame holds a format byte, the lengths of the first three parts as LEB128 varints, then the four
// parts back to back, compressed as one frame so that the text, which repeats the content HTML's words, and
// the excerpt, which repeats the text's beginning, cost little beside it. A dictionary is named by its id in
// the frame header (RFC 8878, 3.1.1.1.3 Dictionary_ID), so every row says which dictionary it needs and a
// newer one can replace it for new rows.

// Where a database keeps its dictionaries. Implemented per backend over the connection at hand.
class BodyDictionarySource {
 public:
  virtual ~BodyDictionarySource() = default;
  // The id of the newest dictionary (0: none). Errors begin "store: ".
  [[nodiscard]] virtual Result<std::uint32_t> newest_id() const = 0;
  // Dictionary `id`'s bytes; nullopt when it is not stored.
  [[nodiscard]] virtual Result<std::optional<std::string>> dictionary(std::uint32_t id) const = 0;
};

// The dictionaries of one database, shared by the store's connections: compression and decompression
// contexts are built once per dictionary. Thread-safe.
class BodyDictionaries {
 public:
  BodyDictionaries();
  ~BodyDictionaries();
  BodyDictionaries(const BodyDictionaries&) = delete;
  BodyDictionaries& operator=(const BodyDictionaries&) = delete;

  // Compresses with the database's newest dictionary (none yet: plain zstd). Errors begin "store: ".
  [[nodiscard]] Result<std::string> pack(const BodyDictionarySource& source, ArticleBodyView body);
  // Compresses with dictionary `dictionary_id` as read by current_id (0: plain zstd), for a caller packing
  // many bodies at once.
  [[nodiscard]] Result<std::string> pack(const BodyDictionarySource& source, std::uint32_t dictionary_id,
                                         ArticleBodyView body);
  // Decompresses a frame written by pack(), with whichever dictionary its header names.
  [[nodiscard]] Result<ArticleBody> unpack(const BodyDictionarySource& source, std::string_view frame);
  // The id of the newest dictionary (0: none).
  [[nodiscard]] Result<std::uint32_t> current_id(const BodyDictionarySource& source);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The dictionary id a frame's header names (0: none or unreadable).
std::uint32_t body_dictionary_id(std::string_view frame);
// True when the frame's header is readable (its dictionary id means something).
bool body_frame_header_readable(std::string_view frame);

// Collects sample bodies, in the layout that is compressed, and trains a dictionary on them (zstd's
// ZDICT_trainFromBuffer).
// The crawl trains on what blogs wrote, so a training reads a bounded amount whatever the newest bodies
// hold: each sample is cut at kMaxDictionarySampleBytes (a dictionary learns what bodies share, which a
// body's first 16 KB show; most articles are shorter), and samples past kMaxDictionaryTrainingBytes in all
// are left out, room for kBodyDictionarySamples cut samples (zstd advises ~100x the dictionary's ~110 KB).
inline constexpr std::size_t kMaxDictionarySampleBytes = 16 * 1024;
inline constexpr std::size_t kMaxDictionaryTrainingBytes = 64 * 1024 * 1024;
static_assert(kBodyDictionarySamples * kMaxDictionarySampleBytes <= kMaxDictionaryTrainingBytes);

class BodyDictionaryTrainer {
 public:
  void add(ArticleBodyView body);
  [[nodiscard]] std::size_t samples() const { return sizes_.size(); }
  // The samples' bytes held, at most kMaxDictionaryTrainingBytes.
  [[nodiscard]] std::size_t bytes() const { return buffer_.size(); }
  // The dictionary's id and bytes; nullopt when there are too few samples to learn from.
  [[nodiscard]] Result<std::optional<std::pair<std::uint32_t, std::string>>> train() const;

 private:
  std::string buffer_;
  std::vector<std::size_t> sizes_;
};

}  // namespace longread::storage
