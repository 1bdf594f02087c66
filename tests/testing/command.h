// Runs a shell command for whole-binary tests, with its stdout and stderr apart.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace longread::testing {

struct CommandOutcome {
  int status = -1;  // exit status; -1 when the command could not run or did not exit
  std::string out;  // stdout
  std::string err;  // stderr
};

// `command` runs under /bin/sh; its stderr goes through `stderr_file`, which is overwritten.
inline CommandOutcome run_command(const std::string& command, const std::filesystem::path& stderr_file) {
  CommandOutcome r;
  FILE* pipe = popen((command + " 2>" + stderr_file.string()).c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe)) r.out += buf;
  const int status = pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(stderr_file);
  r.err.assign(std::istreambuf_iterator<char>(err), {});
  return r;
}

}  // namespace longread::testing
