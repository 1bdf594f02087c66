#include "web/gzip.h"

#include <zlib.h>

namespace longread::web {
namespace {

// 15 window bits plus 16 selects the gzip wrapper instead of zlib's own (zlib manual, deflateInit2).
constexpr int kGzipWindowBits = 15 + 16;

// Owns a z_stream set up for deflate or inflate; ends it exactly once.
class ZStream {
 public:
  enum class Mode { kDeflate, kInflate };
  explicit ZStream(Mode mode, int level = Z_DEFAULT_COMPRESSION) : mode_(mode) {
    const int rc = mode == Mode::kDeflate
                       ? deflateInit2(&stream_, level, Z_DEFLATED, kGzipWindowBits, 8, Z_DEFAULT_STRATEGY)
                       : inflateInit2(&stream_, kGzipWindowBits);
    ok_ = rc == Z_OK;
  }
  ~ZStream() {
    if (!ok_) return;
    if (mode_ == Mode::kDeflate) {
      deflateEnd(&stream_);
    } else {
      inflateEnd(&stream_);
    }
  }
  ZStream(const ZStream&) = delete;
  ZStream& operator=(const ZStream&) = delete;

  [[nodiscard]] bool ok() const { return ok_; }
  z_stream* get() { return &stream_; }

 private:
  Mode mode_;
  z_stream stream_{};
  bool ok_ = false;
};

}  // namespace

Result<std::string> gzip_compress(std::string_view data, int level) {
  ZStream z(ZStream::Mode::kDeflate, level);
  if (!z.ok()) return fail(ErrorKind::kInternal, "web: deflateInit2 failed");
  z_stream* s = z.get();
  std::string out;
  out.resize(deflateBound(s, static_cast<uLong>(data.size())));
  s->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  s->avail_in = static_cast<uInt>(data.size());
  s->next_out = reinterpret_cast<Bytef*>(out.data());
  s->avail_out = static_cast<uInt>(out.size());
  if (deflate(s, Z_FINISH) != Z_STREAM_END) return fail(ErrorKind::kInternal, "web: deflate did not finish");
  out.resize(s->total_out);
  return out;
}

Result<std::string> gzip_decompress(std::string_view data, std::size_t max_bytes) {
  ZStream z(ZStream::Mode::kInflate);
  if (!z.ok()) return fail(ErrorKind::kInternal, "web: inflateInit2 failed");
  z_stream* s = z.get();
  s->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  s->avail_in = static_cast<uInt>(data.size());
  std::string out;
  char chunk[16384];
  for (;;) {
    s->next_out = reinterpret_cast<Bytef*>(chunk);
    s->avail_out = sizeof chunk;
    const int rc = inflate(s, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) return fail(ErrorKind::kParse, "web: corrupt gzip data");
    out.append(chunk, sizeof chunk - s->avail_out);
    if (out.size() > max_bytes) return fail(ErrorKind::kTooLarge, "web: gzip output over limit");
    if (rc == Z_STREAM_END) return out;
    if (s->avail_in == 0 && s->avail_out != 0) return fail(ErrorKind::kParse, "web: truncated gzip data");
  }
}

}  // namespace longread::web
