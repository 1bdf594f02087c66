// The ctest fixture `postgres`: `postgres_ctl start` before the tests that use the build folder's throwaway
// PostgreSQL (tests/testing/postgres_server.h), `postgres_ctl stop` after the last of them.
#include <cstdio>
#include <cstring>

#include "testing/postgres_server.h"

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "start") == 0) {
    const auto server = longread::testing::shared_postgres();
    if (!server.error.empty()) {
      std::fprintf(stderr, "postgres_ctl: %s\n", server.error.c_str());
      return 1;
    }
    std::printf("postgres_ctl: running, socket in %s\n", server.socket.c_str());
    return 0;
  }
  if (argc == 2 && std::strcmp(argv[1], "stop") == 0) return longread::testing::stop_shared_postgres();
  std::fprintf(stderr, "usage: postgres_ctl start|stop\n");
  return 2;
}
