// The driver of the AFL++ build (AFL++'s GCC plugin does not load on Debian 12's gcc, and its classic
// afl-gcc mode has no libFuzzer driver): reads one input from the file named by argv[1], or from stdin, and
// calls the harness's LLVMFuzzerTestOneInput once. afl-fuzz's fork server runs it per input.
#include <cstdint>
#include <cstdio>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  std::FILE* in = argc > 1 ? std::fopen(argv[1], "rb") : stdin;
  if (in == nullptr) {
    std::perror(argv[1]);
    return 2;
  }
  std::vector<std::uint8_t> bytes;
  std::uint8_t buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, in)) > 0;)
    bytes.insert(bytes.end(), buffer, buffer + n);
  if (in != stdin) std::fclose(in);
  return LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
}
