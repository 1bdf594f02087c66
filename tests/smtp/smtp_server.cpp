#include "smtp/smtp_server.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

extern char** environ;  // POSIX

namespace longread::testing {
namespace {

namespace fs = std::filesystem;

// Debian's python3-aiosmtpd is installed for the system interpreter, whatever python3 comes first on PATH.
constexpr const char* kPython = "/usr/bin/python3";

int exit_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

bool aiosmtpd_available() {
  return std::system("/usr/bin/python3 -c 'import aiosmtpd' >/dev/null 2>&1") == 0;
}

Child::Child(std::vector<std::string> argv) : Child(std::move(argv), Options{}) {}

Child::Child(std::vector<std::string> argv, const Options& options) {
  // Everything the child needs is built before fork(): between fork and exec only async-signal-safe calls.
  std::vector<std::string> env_strings;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry(*e);
    if (!options.environment.contains(entry.substr(0, entry.find('=')))) env_strings.push_back(entry);
  }
  for (const auto& [name, value] : options.environment) env_strings.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);

  int output_fd = -1;
  if (options.output) {
    output_fd = open(options.output->c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (output_fd < 0) return;
  }
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    if (output_fd >= 0) close(output_fd);
    return;
  }
  pid_ = fork();
  if (pid_ == 0) {
    if (output_fd >= 0) {
      dup2(output_fd, STDOUT_FILENO);
      dup2(output_fd, STDERR_FILENO);
    } else {
      dup2(out[1], STDOUT_FILENO);
    }
    execve(args[0], args.data(), envp.data());
    _exit(127);
  }
  if (output_fd >= 0) close(output_fd);
  close(out[1]);
  stdout_ = fdopen(out[0], "r");
}

Child::~Child() {
  kill_now(SIGKILL);
  if (stdout_ != nullptr) fclose(stdout_);
}

std::string Child::read_line() {
  char buffer[4096];
  if (stdout_ == nullptr || fgets(buffer, sizeof buffer, stdout_) == nullptr) return {};
  return buffer;
}

std::string Child::read_all() {
  std::string all;
  for (std::string line = read_line(); !line.empty(); line = read_line()) all += line;
  return all;
}

void Child::kill_now(int signal) {
  if (pid_ <= 0) return;
  ::kill(pid_, signal);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

void Child::send_signal(int signal) {
  if (pid_ > 0) ::kill(pid_, signal);
}

int Child::wait_exit() {
  int status = 0;
  if (pid_ <= 0 || waitpid(pid_, &status, 0) != pid_) return -1;
  pid_ = -1;
  return exit_code(status);
}

std::optional<int> Child::wait_exit_for(std::chrono::milliseconds timeout) {
  if (pid_ <= 0) return -1;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      pid_ = -1;
      return exit_code(status);
    }
    if (done < 0) return -1;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

SmtpServer::SmtpServer(const fs::path& maildir, std::vector<std::string> extra) : maildir_(maildir) {
  std::vector<std::string> argv{kPython, LONGREAD_SMTP_SERVER_SCRIPT, "--maildir", maildir.string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  child_ = std::make_unique<Child>(argv);
  const std::string line = child_->read_line();
  if (line.starts_with("listening ")) port_ = std::stoi(line.substr(10));
}

std::string SmtpServer::url() const {
  return "smtp://127.0.0.1:" + std::to_string(port_);
}

std::map<std::string, std::string> SmtpServer::messages() const {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(maildir_, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(".")) continue;  // still being written (the script renames when done)
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    out[name] = ss.str();
  }
  return out;
}

std::vector<std::string> SmtpServer::messages_to(const std::string& rcpt) const {
  std::vector<std::string> out;
  for (const auto& [name, text] : messages()) {  // NNNNNN-<rcpt>.eml: sorted by arrival
    if (name.size() > 7 && name.substr(7) == rcpt + ".eml") out.push_back(text);
  }
  return out;
}

std::vector<int> SmtpServer::rcpt_replies(const std::string& rcpt) const {
  std::vector<int> out;
  std::ifstream in(maildir_ / ".rcpt-log");
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() > 4 && line.substr(4) == rcpt) out.push_back(std::stoi(line.substr(0, 3)));
  }
  return out;
}

bool SmtpServer::wait_for(std::size_t n, std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (messages().size() >= n) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

std::string header_value(const std::string& message, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(message, m, std::regex("\r\n" + name + ": ([^\r]*(\r\n [^\r]*)*)\r\n"))) return {};
  return m[1];
}

}  // namespace longread::testing
