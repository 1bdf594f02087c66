#include "storage/sqlite/article_body.h"

#include <sqlite3.h>
#include <zdict.h>
#include <zstd.h>

#include <map>
#include <mutex>
#include <vector>

#include <fmt/core.h>

namespace longread::storage::sqlite {
namespace {

// The first byte of a frame's content: the layout below. A later layout takes a new value, and unpack()
// keeps reading this one.
constexpr unsigned char kBodyFormat = 1;
// zstd's own advice for a dictionary's size (zdict.h: "~100 KB"); larger gains little on pages of a few KB.
constexpr std::size_t kDictionaryCapacity = 112640;
// Below this many sample bodies ZDICT has too little to learn from (it wants ~100x the dictionary's size in
// samples) and fails or learns noise.
constexpr int kMinDictionarySamples = 1000;

// Its id only: a compression needs the dictionary itself once, when its context is made.
constexpr const char* kSelectNewestDictionary =
    "SELECT dict_id, NULL FROM body_dictionaries ORDER BY seq DESC LIMIT 1";
constexpr const char* kSelectDictionary = "SELECT dict FROM body_dictionaries WHERE dict_id = ?1";
constexpr const char* kInsertDictionary =
    "INSERT INTO body_dictionaries (dict_id, created_at, samples, dict) VALUES (?1, ?2, ?3, ?4)";
// The newest articles' bodies, whichever form they are stored in (decoded here, so that one unreadable
// body is skipped instead of failing the training).
constexpr const char* kSelectSamples =
    "SELECT body, summary_html, content_html, text, excerpt FROM articles ORDER BY id DESC LIMIT ?1";

std::unexpected<Error> body_error(std::string_view what) {
  return fail(ErrorKind::kStorage, fmt::format("store: {}", what));
}

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

bool get_varint(std::string_view& in, std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && !in.empty(); shift += 7) {
    const auto byte = static_cast<unsigned char>(in.front());
    in.remove_prefix(1);
    v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

std::string layout(ArticleBodyView body) {
  std::string raw;
  raw.reserve(body.summary_html.size() + body.content_html.size() + body.text.size() + body.excerpt.size() +
              16);
  raw += static_cast<char>(kBodyFormat);
  put_varint(raw, body.summary_html.size());
  put_varint(raw, body.content_html.size());
  put_varint(raw, body.text.size());
  raw += body.summary_html;
  raw += body.content_html;
  raw += body.text;
  raw += body.excerpt;
  return raw;
}

Result<ArticleBody> parse_layout(std::string_view raw) {
  if (raw.empty() || static_cast<unsigned char>(raw.front()) != kBodyFormat)
    return body_error("article body has an unknown format");
  raw.remove_prefix(1);
  std::uint64_t summary = 0, content = 0, text = 0;
  if (!get_varint(raw, summary) || !get_varint(raw, content) || !get_varint(raw, text) ||
      summary > raw.size() || content > raw.size() - summary || text > raw.size() - summary - content)
    return body_error("article body is truncated");
  ArticleBody body;
  body.summary_html = std::string(raw.substr(0, summary));
  body.content_html = std::string(raw.substr(summary, content));
  body.text = std::string(raw.substr(summary + content, text));
  body.excerpt = std::string(raw.substr(summary + content + text));
  return body;
}

struct CDictFree {
  void operator()(ZSTD_CDict* d) const { ZSTD_freeCDict(d); }
};
struct DDictFree {
  void operator()(ZSTD_DDict* d) const { ZSTD_freeDDict(d); }
};
struct CCtxFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DCtxFree {
  void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};

// Reads one blob column of a one-row query; nullopt when there is no row.
Result<std::optional<std::pair<std::uint32_t, std::string>>> read_dictionary(sqlite3* db, const char* sql,
                                                                             std::uint32_t id) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK)
    return body_error(fmt::format("cannot read body dictionary: {}", sqlite3_errmsg(db)));
  std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> guard(stmt, &sqlite3_finalize);
  if (sqlite3_bind_parameter_count(stmt) > 0) sqlite3_bind_int64(stmt, 1, id);
  const int rc = sqlite3_step(stmt);
  if (rc == SQLITE_DONE) return std::optional<std::pair<std::uint32_t, std::string>>{};
  if (rc != SQLITE_ROW) return body_error(fmt::format("cannot read body dictionary: {}", sqlite3_errmsg(db)));
  const int blob_column = sqlite3_column_count(stmt) - 1;
  const std::uint32_t found =
      blob_column > 0 ? static_cast<std::uint32_t>(sqlite3_column_int64(stmt, 0)) : id;
  const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt, blob_column));
  std::string dict(bytes ? bytes : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, blob_column)));
  return std::optional<std::pair<std::uint32_t, std::string>>{std::pair{found, std::move(dict)}};
}

}  // namespace

struct BodyDictionaries::State {
  std::mutex mutex;
  std::map<std::uint32_t, std::unique_ptr<ZSTD_CDict, CDictFree>> cdicts;
  // Compression contexts not in use: a context keeps its work space from one body to the next.
  std::vector<std::unique_ptr<ZSTD_CCtx, CCtxFree>> idle_cctxs;
  std::map<std::uint32_t, std::unique_ptr<ZSTD_DDict, DDictFree>> ddicts;
};

BodyDictionaries::BodyDictionaries() : state_(std::make_unique<State>()) {}
BodyDictionaries::~BodyDictionaries() = default;

Result<std::uint32_t> BodyDictionaries::current_id(sqlite3* db) {
  auto row = read_dictionary(db, kSelectNewestDictionary, 0);
  if (!row) return std::unexpected(row.error());
  return *row ? (*row)->first : 0u;
}

Result<std::string> BodyDictionaries::pack(sqlite3* db, ArticleBodyView body) {
  // The newest dictionary's id is read on each write (one indexed row): a dictionary trained by another
  // process (`longread db compact`) is used from its commit on.
  auto newest = current_id(db);
  if (!newest) return std::unexpected(newest.error());
  return pack(db, *newest, body);
}

Result<std::string> BodyDictionaries::pack(sqlite3* db, std::uint32_t dictionary_id, ArticleBodyView body) {
  const std::string raw = layout(body);
  std::unique_ptr<ZSTD_CCtx, CCtxFree> cctx;
  const ZSTD_CDict* cdict = nullptr;
  {
    std::lock_guard lock(state_->mutex);
    if (!state_->idle_cctxs.empty()) {
      cctx = std::move(state_->idle_cctxs.back());
      state_->idle_cctxs.pop_back();
    }
    if (dictionary_id != 0) cdict = state_->cdicts[dictionary_id].get();
  }
  if (!cctx) cctx.reset(ZSTD_createCCtx());
  if (!cctx) return body_error("cannot compress article body: out of memory");
  if (dictionary_id != 0 && cdict == nullptr) {
    auto dict = read_dictionary(db, kSelectDictionary, dictionary_id);
    if (!dict) return std::unexpected(dict.error());
    if (!*dict)
      return body_error(fmt::format("cannot compress article body: dictionary {} is gone", dictionary_id));
    std::unique_ptr<ZSTD_CDict, CDictFree> made(
        ZSTD_createCDict((*dict)->second.data(), (*dict)->second.size(), kBodyCompressionLevel));
    std::lock_guard lock(state_->mutex);
    auto& slot = state_->cdicts[dictionary_id];
    if (!slot) slot = std::move(made);
    cdict = slot.get();
    if (cdict == nullptr) return body_error("cannot compress article body: the dictionary is unusable");
  }
  std::string out(ZSTD_compressBound(raw.size()), '\0');
  std::size_t n = 0;
  if (cdict != nullptr) {
    n = ZSTD_compress_usingCDict(cctx.get(), out.data(), out.size(), raw.data(), raw.size(), cdict);
  } else {
    n = ZSTD_compressCCtx(cctx.get(), out.data(), out.size(), raw.data(), raw.size(), kBodyCompressionLevel);
  }
  {
    std::lock_guard lock(state_->mutex);
    state_->idle_cctxs.push_back(std::move(cctx));
  }
  if (ZSTD_isError(n))
    return body_error(fmt::format("cannot compress article body: zstd: {}", ZSTD_getErrorName(n)));
  out.resize(n);
  return out;
}

Result<ArticleBody> BodyDictionaries::unpack(sqlite3* db, std::string_view frame) {
  // The frame header states the content size (zstd writes it for one-shot compression); a frame without
  // it, or one past kMaxBodyBytes, is not ours.
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > kMaxBodyBytes)
    return body_error("article body is corrupt (not a zstd frame of a known size)");
  const std::uint32_t id = body_dictionary_id(frame);
  const ZSTD_DDict* ddict = nullptr;
  if (id != 0) {
    {
      std::lock_guard lock(state_->mutex);
      if (auto it = state_->ddicts.find(id); it != state_->ddicts.end()) ddict = it->second.get();
    }
    if (ddict == nullptr) {
      auto row = read_dictionary(db, kSelectDictionary, id);
      if (!row) return std::unexpected(row.error());
      if (!*row) return body_error(fmt::format("article body needs dictionary {}, which is not stored", id));
      std::unique_ptr<ZSTD_DDict, DDictFree> made(
          ZSTD_createDDict((*row)->second.data(), (*row)->second.size()));
      if (!made) return body_error(fmt::format("body dictionary {} is unusable", id));
      std::lock_guard lock(state_->mutex);
      auto& slot = state_->ddicts[id];
      if (!slot) slot = std::move(made);
      ddict = slot.get();
    }
  }
  std::unique_ptr<ZSTD_DCtx, DCtxFree> dctx(ZSTD_createDCtx());
  if (!dctx) return body_error("cannot read article body: out of memory");
  std::string raw(static_cast<std::size_t>(size), '\0');
  const std::size_t n =
      ddict != nullptr
          ? ZSTD_decompress_usingDDict(dctx.get(), raw.data(), raw.size(), frame.data(), frame.size(), ddict)
          : ZSTD_decompressDCtx(dctx.get(), raw.data(), raw.size(), frame.data(), frame.size());
  if (ZSTD_isError(n))
    return body_error(fmt::format("article body is corrupt (zstd: {})", ZSTD_getErrorName(n)));
  if (n != raw.size()) return body_error("article body is corrupt (shorter than its header says)");
  return parse_layout(raw);
}

std::uint32_t body_dictionary_id(std::string_view frame) {
  return ZSTD_getDictID_fromFrame(frame.data(), frame.size());
}

namespace {

// Per connection: the shared dictionaries, and the last body decoded, because one statement usually asks
// for several parts of the same row (the article page reads all three, an update compares two).
struct ConnectionBodies {
  std::shared_ptr<BodyDictionaries> dictionaries;
  std::string last_frame;
  ArticleBody last_body;
};

std::string_view value_bytes(sqlite3_value* v) {
  const auto* bytes = static_cast<const char*>(sqlite3_value_blob(v));
  return {bytes ? bytes : "", static_cast<std::size_t>(sqlite3_value_bytes(v))};
}

// Part argv[1] of the body argv[0] (argv[2], the plain column, for a row not yet converted). A body that
// cannot be read is an SQL error, or "" when `empty_on_error`.
void result_body_part(sqlite3_context* context, sqlite3_value** argv, const char* function,
                      bool empty_on_error) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_value(context, argv[2]);
    return;
  }
  const sqlite3_int64 part = sqlite3_value_int64(argv[1]);
  if (part < 0 || part > 3) {
    const std::string message = fmt::format("store: {}: the part is 0, 1, 2 or 3", function);
    sqlite3_result_error(context, message.c_str(), -1);
    return;
  }
  auto* bodies = static_cast<ConnectionBodies*>(sqlite3_user_data(context));
  const std::string_view frame = value_bytes(argv[0]);
  if (frame != bodies->last_frame || bodies->last_frame.empty()) {
    auto body = bodies->dictionaries->unpack(sqlite3_context_db_handle(context), frame);
    if (!body) {
      bodies->last_frame.clear();
      if (empty_on_error) {
        sqlite3_result_text(context, "", 0, SQLITE_STATIC);
      } else {
        sqlite3_result_error(context, body.error().message.c_str(), -1);
      }
      return;
    }
    bodies->last_frame = std::string(frame);
    bodies->last_body = std::move(*body);
  }
  const std::string& out = part == 0   ? bodies->last_body.summary_html
                           : part == 1 ? bodies->last_body.content_html
                           : part == 2 ? bodies->last_body.text
                                       : bodies->last_body.excerpt;
  sqlite3_result_text64(context, out.data(), out.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

void body_part(sqlite3_context* context, int /*argc*/, sqlite3_value** argv) {
  result_body_part(context, argv, "longread_body_part", false);
}

// The same as body_part, but "" for a body that cannot be read: for listings (the excerpt) and the search
// index's view (snippets), where one bad row must not fail a whole page. The article's own page, the
// triggers and the converter use body_part and report the error.
void body_part_or_empty(sqlite3_context* context, int /*argc*/, sqlite3_value** argv) {
  result_body_part(context, argv, "longread_body_part_or_empty", true);
}

void body_pack(sqlite3_context* context, int /*argc*/, sqlite3_value** argv) {
  auto text = [&](int i) {
    const auto* bytes = reinterpret_cast<const char*>(sqlite3_value_text(argv[i]));
    return std::string_view(bytes ? bytes : "", static_cast<std::size_t>(sqlite3_value_bytes(argv[i])));
  };
  const ArticleBodyView body{
      .summary_html = text(0), .content_html = text(1), .text = text(2), .excerpt = text(3)};
  if (body.empty()) {
    sqlite3_result_null(context);
    return;
  }
  auto* bodies = static_cast<ConnectionBodies*>(sqlite3_user_data(context));
  auto frame = bodies->dictionaries->pack(sqlite3_context_db_handle(context), body);
  if (!frame) {
    sqlite3_result_error(context, frame.error().message.c_str(), -1);
    return;
  }
  sqlite3_result_blob64(context, frame->data(), frame->size(), SQLITE_TRANSIENT);
}

void body_dictionary(sqlite3_context* context, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(context);
    return;
  }
  // -1 for a frame whose header is unreadable: never the newest dictionary's id, so the converter tries it
  // (and reports it) instead of passing it by as up to date.
  const std::string_view frame = value_bytes(argv[0]);
  if (ZSTD_getFrameContentSize(frame.data(), frame.size()) == ZSTD_CONTENTSIZE_ERROR) {
    sqlite3_result_int64(context, -1);
    return;
  }
  sqlite3_result_int64(context, body_dictionary_id(frame));
}

}  // namespace

std::string register_body_functions(sqlite3* db, std::shared_ptr<BodyDictionaries> dictionaries) {
  auto* bodies =
      new ConnectionBodies{.dictionaries = std::move(dictionaries), .last_frame = {}, .last_body = {}};
  // longread_body_part is deterministic and innocuous (it reads only its arguments and the dictionary table),
  // which SQLite requires of functions used in views and triggers when trusted_schema is off
  // (https://sqlite.org/c3ref/c_deterministic.html). The destructor runs when the connection closes.
  if (sqlite3_create_function_v2(db, "longread_body_part", 3,
                                 SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, bodies, body_part,
                                 nullptr, nullptr,
                                 [](void* p) { delete static_cast<ConnectionBodies*>(p); }) != SQLITE_OK)
    return sqlite3_errmsg(db);
  if (sqlite3_create_function_v2(db, "longread_body_part_or_empty", 3,
                                 SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, bodies,
                                 body_part_or_empty, nullptr, nullptr, nullptr) != SQLITE_OK)
    return sqlite3_errmsg(db);
  if (sqlite3_create_function_v2(db, "longread_body_pack", 4, SQLITE_UTF8, bodies, body_pack, nullptr,
                                 nullptr, nullptr) != SQLITE_OK)
    return sqlite3_errmsg(db);
  if (sqlite3_create_function_v2(db, "longread_body_dictionary", 1,
                                 SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nullptr,
                                 body_dictionary, nullptr, nullptr, nullptr) != SQLITE_OK)
    return sqlite3_errmsg(db);
  return "";
}

Result<std::optional<std::uint32_t>> train_body_dictionary(sqlite3* db, BodyDictionaries& dictionaries,
                                                           int samples, std::int64_t now) {
  std::string buffer;
  std::vector<std::size_t> sizes;
  {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, kSelectSamples, -1, &stmt, nullptr) != SQLITE_OK)
      return body_error(fmt::format("cannot train body dictionary: {}", sqlite3_errmsg(db)));
    std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> guard(stmt, &sqlite3_finalize);
    sqlite3_bind_int(stmt, 1, samples);
    int rc = SQLITE_OK;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      auto col = [&](int i) {
        const auto* bytes = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
        return std::string(bytes ? bytes : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, i)));
      };
      ArticleBody body{.summary_html = col(1), .content_html = col(2), .text = col(3), .excerpt = col(4)};
      if (sqlite3_column_type(stmt, 0) != SQLITE_NULL) {
        const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt, 0));
        auto unpacked = dictionaries.unpack(
            db,
            std::string_view(bytes ? bytes : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, 0))));
        if (!unpacked) continue;
        body = std::move(*unpacked);
      }
      if (body.content_html.empty() && body.text.empty()) continue;  // pruned
      // Samples in the exact layout that is compressed, so the dictionary holds what frames begin with.
      const std::string raw = layout(body.view());
      buffer += raw;
      sizes.push_back(raw.size());
    }
    if (rc != SQLITE_DONE)
      return body_error(fmt::format("cannot train body dictionary: {}", sqlite3_errmsg(db)));
  }
  if (sizes.size() < static_cast<std::size_t>(kMinDictionarySamples)) return std::optional<std::uint32_t>{};
  std::string dict(kDictionaryCapacity, '\0');
  const std::size_t n = ZDICT_trainFromBuffer(dict.data(), dict.size(), buffer.data(), sizes.data(),
                                              static_cast<unsigned>(sizes.size()));
  if (ZDICT_isError(n))
    return body_error(fmt::format("cannot train body dictionary: zstd: {}", ZDICT_getErrorName(n)));
  dict.resize(n);
  // ZDICT derives the id from a hash of the dictionary, within the range RFC 8878 (5. Dictionary Format)
  // leaves unregistered. Two dictionaries of one database with one id would make frames ambiguous, so a
  // clash is refused by the UNIQUE column.
  const std::uint32_t id = ZDICT_getDictID(dict.data(), dict.size());
  if (id == 0) return body_error("cannot train body dictionary: zstd gave no dictionary id");
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, kInsertDictionary, -1, &stmt, nullptr) != SQLITE_OK)
    return body_error(fmt::format("cannot store body dictionary: {}", sqlite3_errmsg(db)));
  std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> guard(stmt, &sqlite3_finalize);
  sqlite3_bind_int64(stmt, 1, id);
  sqlite3_bind_int64(stmt, 2, now);
  sqlite3_bind_int64(stmt, 3, static_cast<sqlite3_int64>(sizes.size()));
  sqlite3_bind_blob64(stmt, 4, dict.data(), dict.size(), SQLITE_TRANSIENT);
  if (sqlite3_step(stmt) != SQLITE_DONE)
    return body_error(fmt::format("cannot store body dictionary: {}", sqlite3_errmsg(db)));
  return std::optional<std::uint32_t>{id};
}

}  // namespace longread::storage::sqlite
