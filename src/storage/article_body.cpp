#include "storage/article_body.h"

#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

#include <fmt/core.h>

namespace longread::storage {
namespace {

// The first byte of a frame's content: the layout below. A later layout takes a new value, and unpack()
// keeps reading this one.
constexpr unsigned char kBodyFormat = 1;
// zstd's own advice for a dictionary's size (zdict.h: "~100 KB"); larger gains little on pages of a few KB.
constexpr std::size_t kDictionaryCapacity = 112640;

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

// The body in the layout that is compressed, cut at `limit` bytes (a dictionary's sample): only what is
// kept is copied, however long the body.
std::string layout(ArticleBodyView body, std::size_t limit = std::string::npos) {
  std::string raw;
  raw.reserve(std::min(limit, body.summary_html.size() + body.content_html.size() + body.text.size() +
                                  body.excerpt.size() + 16));
  raw += static_cast<char>(kBodyFormat);
  put_varint(raw, body.summary_html.size());
  put_varint(raw, body.content_html.size());
  put_varint(raw, body.text.size());
  for (const std::string_view part : {body.summary_html, body.content_html, body.text, body.excerpt}) {
    if (raw.size() >= limit) break;
    raw += part.substr(0, limit - raw.size());
  }
  if (raw.size() > limit) raw.resize(limit);
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

Result<std::uint32_t> BodyDictionaries::current_id(const BodyDictionarySource& source) {
  return source.newest_id();
}

Result<std::string> BodyDictionaries::pack(const BodyDictionarySource& source, ArticleBodyView body) {
  // The newest dictionary's id is read on each write (one indexed row): a dictionary trained by another
  // process (`longread db compact`) is used from its commit on.
  auto newest = current_id(source);
  if (!newest) return std::unexpected(newest.error());
  return pack(source, *newest, body);
}

Result<std::string> BodyDictionaries::pack(const BodyDictionarySource& source, std::uint32_t dictionary_id,
                                           ArticleBodyView body) {
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
    auto dict = source.dictionary(dictionary_id);
    if (!dict) return std::unexpected(dict.error());
    if (!*dict)
      return body_error(fmt::format("cannot compress article body: dictionary {} is gone", dictionary_id));
    std::unique_ptr<ZSTD_CDict, CDictFree> made(
        ZSTD_createCDict((*dict)->data(), (*dict)->size(), kBodyCompressionLevel));
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

Result<ArticleBody> BodyDictionaries::unpack(const BodyDictionarySource& source, std::string_view frame) {
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
      auto dict = source.dictionary(id);
      if (!dict) return std::unexpected(dict.error());
      if (!*dict) return body_error(fmt::format("article body needs dictionary {}, which is not stored", id));
      std::unique_ptr<ZSTD_DDict, DDictFree> made(ZSTD_createDDict((*dict)->data(), (*dict)->size()));
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

bool body_frame_header_readable(std::string_view frame) {
  return ZSTD_getFrameContentSize(frame.data(), frame.size()) != ZSTD_CONTENTSIZE_ERROR;
}

void BodyDictionaryTrainer::add(ArticleBodyView body) {
  // Samples in the exact layout that is compressed, so the dictionary holds what frames begin with.
  const std::string raw = layout(body, kMaxDictionarySampleBytes);
  if (buffer_.size() + raw.size() > kMaxDictionaryTrainingBytes) return;
  buffer_ += raw;
  sizes_.push_back(raw.size());
}

Result<std::optional<std::pair<std::uint32_t, std::string>>> BodyDictionaryTrainer::train() const {
  using Trained = std::optional<std::pair<std::uint32_t, std::string>>;
  if (sizes_.size() < static_cast<std::size_t>(kMinBodyDictionarySamples)) return Trained{};
  std::string dict(kDictionaryCapacity, '\0');
  const std::size_t n = ZDICT_trainFromBuffer(dict.data(), dict.size(), buffer_.data(), sizes_.data(),
                                              static_cast<unsigned>(sizes_.size()));
  if (ZDICT_isError(n))
    return body_error(fmt::format("cannot train body dictionary: zstd: {}", ZDICT_getErrorName(n)));
  dict.resize(n);
  // ZDICT derives the id from a hash of the dictionary, within the range RFC 8878 (5. Dictionary Format)
  // leaves unregistered. Two dictionaries of one database with one id would make frames ambiguous, so each
  // backend's table refuses a clash.
  const std::uint32_t id = ZDICT_getDictID(dict.data(), dict.size());
  if (id == 0) return body_error("cannot train body dictionary: zstd gave no dictionary id");
  return Trained{std::pair{id, std::move(dict)}};
}

}  // namespace longread::storage
