// A real SMTP server on 127.0.0.1 for tests (tests/smtp/smtp_server.py on Debian's python3-aiosmtpd), and
// the small child-process helper that runs it and the binaries under test.
//
//   #include "smtp/smtp_server.h"   (link longread_test_smtp)
//   if (!longread::testing::aiosmtpd_available()) GTEST_SKIP() << "skipped: no python3-aiosmtpd";
//   longread::testing::SmtpServer smtp(dir / "mail");
//   ... send to smtp.url() ...
//   ASSERT_TRUE(smtp.wait_for(1));   // the send may be asynchronous
//   auto mails = smtp.messages_to("kim@example.org");
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace longread::testing {

// Whether /usr/bin/python3 can import aiosmtpd (Debian's python3-aiosmtpd); tests skip without it.
[[nodiscard]] bool aiosmtpd_available();

// A child process (fork + execve) whose stdout is a pipe read line by line, or a file; killed (SIGKILL) on
// destruction unless it has been waited for.
class Child {
 public:
  struct Options {
    std::map<std::string, std::string> environment;  // set or replaced in the child's environment
    std::optional<std::filesystem::path> output;     // stdout and stderr to this file instead of the pipe
  };
  explicit Child(std::vector<std::string> argv);
  Child(std::vector<std::string> argv, const Options& options);
  ~Child();
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  [[nodiscard]] pid_t pid() const noexcept { return pid_; }
  // The next stdout line (with its newline); empty at end of output.
  std::string read_line();
  // Everything until the child closes stdout.
  std::string read_all();
  // Sends `signal` and reaps the child.
  void kill_now(int signal);
  // Sends `signal` without waiting.
  void send_signal(int signal);
  // Waits for the exit: the exit code, or 128 + the signal that ended it.
  int wait_exit();
  // The same, or nullopt if the child is still running after `timeout`.
  std::optional<int> wait_exit_for(std::chrono::milliseconds timeout);

 private:
  pid_t pid_ = -1;
  FILE* stdout_ = nullptr;
};

// One running smtp_server.py; every accepted message is a file NNNNNN-<rcpt>.eml in `maildir`, starting
// with an "X-Envelope-From:" line. `extra` are the script's options (--reject ADDR=CODE,
// --tempfail-once ADDR, --delay SECONDS). port() is 0 if the server did not start.
class SmtpServer {
 public:
  explicit SmtpServer(const std::filesystem::path& maildir, std::vector<std::string> extra = {});

  [[nodiscard]] int port() const noexcept { return port_; }
  // "smtp://127.0.0.1:PORT".
  [[nodiscard]] std::string url() const;
  // Received messages: file name -> content.
  [[nodiscard]] std::map<std::string, std::string> messages() const;
  // The messages to one recipient, in the order they arrived.
  [[nodiscard]] std::vector<std::string> messages_to(const std::string& rcpt) const;
  // The reply code of every RCPT TO for `rcpt` so far, in order (250, 451, 550, ...): how often a sender
  // tried the address, whether or not a message was accepted.
  [[nodiscard]] std::vector<int> rcpt_replies(const std::string& rcpt) const;
  // Waits (polling, up to `timeout`) until at least `n` messages have arrived.
  [[nodiscard]] bool wait_for(std::size_t n,
                              std::chrono::milliseconds timeout = std::chrono::seconds(20)) const;

 private:
  std::filesystem::path maildir_;
  std::unique_ptr<Child> child_;
  int port_ = 0;
};

// The value of a header of a raw RFC 5322 message (unfolded lines joined as sent), or "" if absent.
[[nodiscard]] std::string header_value(const std::string& message, const std::string& name);

}  // namespace longread::testing
