// Shared pieces of the fuzz harnesses: the harness table the replay test walks, an invariant check that traps
// (so AFL++ and libFuzzer both record a crash), and a reader that splits one fuzz input into several
// arguments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace longread::fuzz {

// One harness: the body of its LLVMFuzzerTestOneInput, callable without the extern "C" entry point so that
// the replay test can link every harness into one binary.
using HarnessFn = int (*)(const std::uint8_t* data, std::size_t size);
struct Harness {
  std::string_view name;  // also the folder name under fuzz/regressions/ and fuzz/seeds/
  HarnessFn run;
};

int feed_harness(const std::uint8_t* data, std::size_t size);
int opml_harness(const std::uint8_t* data, std::size_t size);
int html_text_harness(const std::uint8_t* data, std::size_t size);
int extract_harness(const std::uint8_t* data, std::size_t size);
int date_harness(const std::uint8_t* data, std::size_t size);
int url_harness(const std::uint8_t* data, std::size_t size);
int web_request_harness(const std::uint8_t* data, std::size_t size);
int ui_markup_harness(const std::uint8_t* data, std::size_t size);
int discover_harness(const std::uint8_t* data, std::size_t size);
int config_harness(const std::uint8_t* data, std::size_t size);

inline constexpr Harness kHarnesses[] = {
    {"feed", feed_harness},
    {"opml", opml_harness},
    {"html_text", html_text_harness},
    {"extract", extract_harness},
    {"date", date_harness},
    {"url", url_harness},
    {"web_request", web_request_harness},
    {"ui_markup", ui_markup_harness},
    {"discover", discover_harness},
    {"config", config_harness},
};

// An invariant the code promises. A violation is a bug: trap, so the fuzzer saves the input as a crash.
inline void require(bool condition) {
  if (!condition) __builtin_trap();
}

// Splits a fuzz input into a selector byte and fields separated by a byte that rarely matters to the
// parsers ('\n' by default): "0https://a/\nbody" -> selector '0', fields "https://a/" and "body".
class FuzzInput {
 public:
  FuzzInput(const std::uint8_t* data, std::size_t size) : rest_(reinterpret_cast<const char*>(data), size) {}

  // The first byte (0 when the input is empty), consumed.
  unsigned char selector() {
    if (rest_.empty()) return 0;
    const auto c = static_cast<unsigned char>(rest_.front());
    rest_.remove_prefix(1);
    return c;
  }
  // Up to the next `sep` (consumed), or everything left.
  std::string_view field(char sep = '\n') {
    const auto pos = rest_.find(sep);
    const std::string_view out = rest_.substr(0, pos);
    rest_ = pos == std::string_view::npos ? std::string_view() : rest_.substr(pos + 1);
    return out;
  }
  // Everything not consumed yet.
  std::string_view rest() {
    const std::string_view out = rest_;
    rest_ = {};
    return out;
  }

 private:
  std::string_view rest_;
};

}  // namespace longread::fuzz

// Each harness file ends with LONGREAD_FUZZ_ENTRY(its function): the libFuzzer/AFL++ entry point in a fuzz
// build, nothing in the replay test (which links all harnesses together).
#ifdef LONGREAD_FUZZ_REPLAY
#define LONGREAD_FUZZ_ENTRY(fn)
#else
#define LONGREAD_FUZZ_ENTRY(fn)                                                       \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
    return fn(data, size);                                                            \
  }
#endif
