#include "storage/search_tokenizer.h"

#include <sqlite3.h>

#include <algorithm>
#include <climits>
#include <type_traits>

namespace longread::storage {
namespace {

// FTS5's unicode61 with the SQLite backend's options (migration 0003's `tokenize`).
constexpr const char* kTokenizerArgs[] = {"remove_diacritics", "2"};

}  // namespace

struct SearchTokenizer::Api {
  fts5_tokenizer tokenizer{};
  void* context = nullptr;

  // Calls `on_word(word, start, end)` for each word of `text`, in order, until it returns false.
  template <typename OnWord>
  void scan(std::string_view text, OnWord&& on_word) const {
    Fts5Tokenizer* instance = nullptr;
    if (tokenizer.xCreate(context, const_cast<const char**>(kTokenizerArgs), 2, &instance) != SQLITE_OK)
      return;
    const int size = static_cast<int>(std::min<std::size_t>(text.size(), INT_MAX));
    using Fn = std::remove_reference_t<OnWord>;
    auto callback = [](void* ctx, int /*flags*/, const char* token, int n, int start, int end) -> int {
      Fn& fn = *static_cast<Fn*>(ctx);
      return fn(std::string_view(token, static_cast<std::size_t>(n)), static_cast<std::size_t>(start),
                static_cast<std::size_t>(end))
                 ? SQLITE_OK
                 : SQLITE_DONE;
    };
    tokenizer.xTokenize(instance, &on_word, FTS5_TOKENIZE_DOCUMENT, text.data(), size, callback);
    tokenizer.xDelete(instance);
  }
};

Result<std::unique_ptr<SearchTokenizer>> SearchTokenizer::open() {
  std::unique_ptr<SearchTokenizer> out(new SearchTokenizer());
  out->api_ = std::make_unique<Api>();
  if (sqlite3_open_v2(":memory:", &out->db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK)
    return fail(ErrorKind::kInternal, "search tokenizer: cannot open an in-memory SQLite database");
  // FTS5 hands out its API as a pointer bound to `SELECT fts5(?1)` (https://sqlite.org/fts5.html, "Extending
  // FTS5").
  fts5_api* api = nullptr;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(out->db_, "SELECT fts5(?1)", -1, &stmt, nullptr) == SQLITE_OK) {
    sqlite3_bind_pointer(stmt, 1, static_cast<void*>(&api), "fts5_api_ptr", nullptr);
    sqlite3_step(stmt);
  }
  sqlite3_finalize(stmt);
  if (api == nullptr || api->iVersion < 2 ||
      api->xFindTokenizer(api, "unicode61", &out->api_->context, &out->api_->tokenizer) != SQLITE_OK)
    return fail(ErrorKind::kInternal, "search tokenizer: this SQLite has no FTS5 unicode61 tokenizer");
  return out;
}

SearchTokenizer::~SearchTokenizer() {
  sqlite3_close(db_);
}

std::vector<std::string> SearchTokenizer::tokens(std::string_view text) const {
  std::vector<std::string> out;
  api_->scan(text, [&](std::string_view word, std::size_t, std::size_t) {
    out.emplace_back(word);
    return true;
  });
  return out;
}

void SearchTokenizer::for_each_token(std::string_view text,
                                     const std::function<bool(std::string_view)>& on_word) const {
  api_->scan(text, [&](std::string_view word, std::size_t, std::size_t) { return on_word(word); });
}

void SearchTokenizer::for_each_word(
    std::string_view text,
    const std::function<void(std::string_view, std::size_t, std::size_t)>& on_word) const {
  api_->scan(text, [&](std::string_view word, std::size_t start, std::size_t end) {
    on_word(word, start, end);
    return true;
  });
}

std::vector<std::vector<std::string>> SearchTokenizer::term_words(
    const std::vector<std::string>& terms) const {
  std::vector<std::vector<std::string>> out;
  for (const std::string& term : terms) {
    std::vector<std::string> words = tokens(term);
    if (!words.empty()) out.push_back(std::move(words));
  }
  return out;
}

}  // namespace longread::storage
