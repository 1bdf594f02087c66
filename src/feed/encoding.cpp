#include "feed/encoding.h"

#include <iconv.h>

#include <cerrno>
#include <memory>

#include "core/strings.h"

namespace longread::feed {
namespace {

struct IconvHandle {
  iconv_t cd = reinterpret_cast<iconv_t>(-1);
  explicit IconvHandle(const char* to, const char* from) : cd(iconv_open(to, from)) {}
  ~IconvHandle() {
    if (valid()) iconv_close(cd);
  }
  IconvHandle(const IconvHandle&) = delete;
  IconvHandle& operator=(const IconvHandle&) = delete;
  [[nodiscard]] bool valid() const { return cd != reinterpret_cast<iconv_t>(-1); }
};

// windows-1252 0x80..0x9F; the rest of the upper half is latin-1 (identical code points).
constexpr char32_t kCp1252High[32] = {0x20AC, 0xFFFD, 0x201A, 0x0192, 0x2026, 0x2020, 0x2021, 0x02C6,
                                      0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD, 0xFFFD,
                                      0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                      0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178};

char32_t cp1252(unsigned char c) {
  return (c >= 0x80 && c < 0xA0) ? kCp1252High[c - 0x80] : c;
}

std::size_t utf8_length(std::string_view s, std::size_t i) {
  // is_valid_utf8 on a short window: the sequence at i, at most 4 bytes.
  const auto c0 = static_cast<unsigned char>(s[i]);
  const std::size_t len = c0 < 0x80             ? 1
                          : (c0 & 0xE0) == 0xC0 ? 2
                          : (c0 & 0xF0) == 0xE0 ? 3
                          : (c0 & 0xF8) == 0xF0 ? 4
                                                : 0;
  if (len == 0 || i + len > s.size()) return 0;
  return is_valid_utf8(s.substr(i, len)) ? len : 0;
}

std::string lower_charset(std::string_view s) {
  std::string out = to_lower_ascii(trim(s));
  if (out.size() >= 2 && (out.front() == '"' || out.front() == '\'')) out = out.substr(1, out.size() - 2);
  return out;
}

// charset parameter of a Content-Type (RFC 9110 section 8.3), or empty.
std::string charset_of(std::string_view content_type) {
  const std::string lower = to_lower_ascii(content_type);
  const auto params = split(lower, ';');
  for (std::size_t i = 1; i < params.size(); ++i) {
    const auto eq = params[i].find('=');
    if (eq == std::string_view::npos || trim(params[i].substr(0, eq)) != "charset") continue;
    return lower_charset(params[i].substr(eq + 1));
  }
  return {};
}

// The decoder to use for a label: browsers read latin-1 labels as windows-1252 (WHATWG Encoding Standard,
// section 4.2) and gb2312 as its superset gb18030.
std::string decoder_for(const std::string& label) {
  if (label == "iso-8859-1" || label == "latin1" || label == "latin-1" || label == "l1" ||
      label == "iso8859-1" || label == "cp819" || label == "ibm819")
    return "windows-1252";
  if (label == "gb2312" || label == "gbk" || label == "x-gbk") return "gb18030";
  return label;
}

// encoding="..." of an XML declaration at the start of ASCII-compatible text, or empty.
std::string declared_encoding(std::string_view text) {
  if (!text.starts_with("<?xml")) return {};
  const auto end = text.find("?>");
  const std::string_view decl = text.substr(0, end == std::string_view::npos ? 200 : end);
  const auto pos = decl.find("encoding");
  if (pos == std::string_view::npos) return {};
  const auto quote = decl.find_first_of("\"'", pos);
  if (quote == std::string_view::npos) return {};
  const auto close = decl.find(decl[quote], quote + 1);
  if (close == std::string_view::npos) return {};
  return lower_charset(decl.substr(quote + 1, close - quote - 1));
}

bool is_utf8_name(std::string_view e) {
  return e.empty() || e == "utf-8" || e == "utf8" || e == "us-ascii" || e == "ascii" ||
         e == "iso-10646-utf-8";
}

// Converts with iconv; false when the encoding is unknown or the bytes are invalid in it.
bool convert(std::string_view bytes, const std::string& from, std::string& out) {
  IconvHandle cd("UTF-8", from.c_str());
  if (!cd.valid()) return false;
  out.clear();
  out.resize(bytes.size() * 2 + 16);
  char* in = const_cast<char*>(bytes.data());
  std::size_t in_left = bytes.size();
  std::size_t written = 0;
  while (in_left > 0) {
    char* dst = out.data() + written;
    std::size_t out_left = out.size() - written;
    const std::size_t rc = iconv(cd.cd, &in, &in_left, &dst, &out_left);
    written = out.size() - out_left;
    if (rc != static_cast<std::size_t>(-1)) break;
    if (errno == E2BIG) {
      out.resize(out.size() * 2);
      continue;
    }
    // EILSEQ / EINVAL: an invalid or truncated sequence. A truncated tail is dropped; otherwise give up.
    if (errno == EINVAL) break;
    return false;
  }
  out.resize(written);
  return true;
}
}  // namespace

void demoronize(std::string& text) {
  if (text.find('\xC2') == std::string::npos) return;
  std::string out;
  out.reserve(text.size() + 8);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (c == 0xC2 && next >= 0x80 && next < 0xA0) {
      append_utf8(out, cp1252(next));
      ++i;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  text = std::move(out);
}

std::string repair_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 8);
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t len = utf8_length(bytes, i);
    if (len == 0) {
      append_utf8(out, cp1252(static_cast<unsigned char>(bytes[i])));
      ++i;
    } else {
      out.append(bytes.substr(i, len));
      i += len;
    }
  }
  return out;
}

DecodedText decode_to_utf8(std::string_view bytes, std::string_view content_type) {
  DecodedText result;
  auto with_bom = [&](std::size_t bom, const char* name) {
    result.encoding = name;
    const std::string_view body = bytes.substr(bom);
    result.use_converted = true;
    if (!convert(body, name, result.converted)) {
      result.repaired = true;
      result.message = std::string("document is not valid ") + name;
      result.converted = repair_utf8(body);
    }
    return result;
  };
  const auto b = [&](std::size_t i) {
    return i < bytes.size() ? static_cast<unsigned char>(bytes[i]) : 0x100u;
  };
  // XML 1.0 appendix F: byte order marks, then the first bytes of "<?xml" in each encoding.
  if (b(0) == 0x00 && b(1) == 0x00 && b(2) == 0xFE && b(3) == 0xFF) return with_bom(4, "utf-32be");
  if (b(0) == 0xFF && b(1) == 0xFE && b(2) == 0x00 && b(3) == 0x00) return with_bom(4, "utf-32le");
  if (b(0) == 0xFE && b(1) == 0xFF) return with_bom(2, "utf-16be");
  if (b(0) == 0xFF && b(1) == 0xFE) return with_bom(2, "utf-16le");
  if (b(0) == 0x00 && b(1) == 0x00 && b(2) == 0x00 && b(3) == 0x3C) return with_bom(0, "utf-32be");
  if (b(0) == 0x3C && b(1) == 0x00 && b(2) == 0x00 && b(3) == 0x00) return with_bom(0, "utf-32le");
  if (b(0) == 0x00 && b(1) == 0x3C) return with_bom(0, "utf-16be");
  if (b(0) == 0x3C && b(1) == 0x00) return with_bom(0, "utf-16le");

  std::string_view body = bytes;
  bool bom = false;
  if (body.starts_with("\xEF\xBB\xBF")) {
    body.remove_prefix(3);
    bom = true;
  }
  // RFC 7303 section 3: the HTTP charset wins over the XML declaration; a UTF-8 BOM wins over both.
  std::string encoding = bom ? "utf-8" : charset_of(content_type);
  if (encoding.empty()) encoding = declared_encoding(body);
  if (encoding == "utf-16" || encoding == "utf-32" || encoding.starts_with("ucs-") ||
      encoding.starts_with("utf-16") || encoding.starts_with("utf-32"))
    encoding.clear();  // declared as UTF-16 but the bytes are ASCII-compatible: the declaration is wrong
  result.encoding = encoding.empty() || encoding == "utf8" ? "utf-8" : encoding;

  if (!is_utf8_name(encoding)) {
    const std::string decoder = decoder_for(encoding);
    if (decoder == "gb18030") result.encoding = decoder;
    // windows-1252 leaves five bytes undefined; plain latin-1 takes those.
    if (convert(body, decoder, result.converted) ||
        (decoder != encoding && convert(body, encoding, result.converted))) {
      result.use_converted = true;
      return result;
    }
    result.repaired = true;
    result.message = "document is not valid " + encoding + "; read as UTF-8";
  }
  if (is_valid_utf8(body)) {
    result.original = body;
    return result;
  }
  result.repaired = true;
  if (result.message.empty())
    result.message = "document declared as " + result.encoding + " has invalid bytes";
  result.converted = repair_utf8(body);
  result.use_converted = true;
  return result;
}

}  // namespace longread::feed
