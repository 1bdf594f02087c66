#include "fixture_server/fixture_server.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

extern char** environ;

namespace longread::testing {

namespace {

// A file descriptor closed once, on every path.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  [[nodiscard]] int get() const noexcept { return fd_; }
  int release() noexcept { return std::exchange(fd_, -1); }
  void reset() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

struct FileActions {
  posix_spawn_file_actions_t actions{};
  FileActions() { posix_spawn_file_actions_init(&actions); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
};

struct EasyDeleter {
  void operator()(CURL* easy) const noexcept { curl_easy_cleanup(easy); }
};

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

// Reads the child's first stdout line ("listening on PORT"), waiting at most `limit` for it.
Result<int> read_port(int fd, std::chrono::milliseconds limit) {
  std::string line;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (line.find('\n') == std::string::npos) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      return fail(ErrorKind::kTimeout, "fixture: server did not report its port in time");
    pollfd pfd{fd, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char buffer[256];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail(ErrorKind::kInternal, "fixture: server exited before listening: " + line);
    line.append(buffer, static_cast<std::size_t>(n));
  }
  constexpr std::string_view kPrefix = "listening on ";
  if (line.rfind(kPrefix, 0) != 0) return fail(ErrorKind::kInternal, "fixture: unexpected output: " + line);
  return std::stoi(line.substr(kPrefix.size()));
}

}  // namespace

Result<FixtureServer> FixtureServer::start(const std::filesystem::path& root, const std::string& host) {
  return spawn(root, host, false);
}

Result<FixtureServer> FixtureServer::start_tls(const std::filesystem::path& root, const std::string& host) {
  return spawn(root, host, true);
}

std::string FixtureServer::tls_certificate_path() {
  return LONGREAD_FIXTURE_SERVER_DIR "/tls/cert.pem";
}

Result<FixtureServer> FixtureServer::spawn(const std::filesystem::path& root, const std::string& host,
                                           bool tls) {
  if (!std::filesystem::is_directory(root)) {
    return fail(ErrorKind::kNotFound, "fixture: no such directory " + root.string());
  }
  int in_pipe[2];
  int out_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0) return fail(ErrorKind::kInternal, "fixture: pipe failed");
  Fd child_stdin(in_pipe[0]), parent_stdin(in_pipe[1]);
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return fail(ErrorKind::kInternal, "fixture: pipe failed");
  Fd parent_stdout(out_pipe[0]), child_stdout(out_pipe[1]);

  FileActions files;
  // dup2 onto 0/1 clears O_CLOEXEC for the child only; every other pipe end stays closed in it.
  posix_spawn_file_actions_adddup2(&files.actions, child_stdin.get(), STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&files.actions, child_stdout.get(), STDOUT_FILENO);

  std::vector<std::string> args = {
      LONGREAD_PYTHON3,     LONGREAD_FIXTURE_SERVER_SCRIPT, root.string(), "--host", host, "--port", "0",
      "--exit-on-stdin-eof"};
  if (tls) {
    args.insert(args.end(), {"--tls-cert", tls_certificate_path(), "--tls-key",
                             LONGREAD_FIXTURE_SERVER_DIR "/tls/key.pem"});
  }
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, argv[0], &files.actions, nullptr, argv.data(), environ);
  if (rc != 0) {
    return fail(ErrorKind::kInternal,
                fmt::format("fixture: cannot start {}: {}", argv[0], std::strerror(rc)));
  }
  child_stdin.reset();
  child_stdout.reset();

  FixtureServer server;
  server.pid_ = pid;
  server.stdin_fd_ = parent_stdin.release();
  server.host_ = host;
  server.scheme_ = tls ? "https" : "http";
  auto port = read_port(parent_stdout.get(), std::chrono::seconds{30});
  if (!port) return std::unexpected(port.error());  // server's destructor stops the child
  server.port_ = *port;
  return server;
}

FixtureServer::~FixtureServer() {
  stop();
}

FixtureServer::FixtureServer(FixtureServer&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      stdin_fd_(std::exchange(other.stdin_fd_, -1)),
      port_(other.port_),
      host_(std::move(other.host_)),
      scheme_(std::move(other.scheme_)) {}

FixtureServer& FixtureServer::operator=(FixtureServer&& other) noexcept {
  if (this != &other) {
    stop();
    pid_ = std::exchange(other.pid_, -1);
    stdin_fd_ = std::exchange(other.stdin_fd_, -1);
    port_ = other.port_;
    host_ = std::move(other.host_);
    scheme_ = std::move(other.scheme_);
  }
  return *this;
}

void FixtureServer::stop() noexcept {
  if (stdin_fd_ >= 0) ::close(stdin_fd_);
  stdin_fd_ = -1;
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  pid_ = -1;
}

std::string FixtureServer::base_url() const {
  if (host_.find(':') != std::string::npos) return fmt::format("{}://[{}]:{}", scheme_, host_, port_);
  return fmt::format("{}://{}:{}", scheme_, host_, port_);
}

std::string FixtureServer::url(std::string_view path) const {
  return base_url() + std::string(path);
}

std::string FixtureServer::url_with_host(std::string_view host, std::string_view path) const {
  return fmt::format("{}://{}:{}{}", scheme_, host, port_, path);
}

Result<std::string> FixtureServer::get(std::string_view path) const {
  std::unique_ptr<CURL, EasyDeleter> easy(curl_easy_init());
  if (!easy) return fail(ErrorKind::kInternal, "fixture: curl_easy_init failed");
  const std::string target = url(path);
  std::string body;
  curl_easy_setopt(easy.get(), CURLOPT_URL, target.c_str());
  curl_easy_setopt(easy.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy.get(), CURLOPT_TIMEOUT, 30L);
  if (scheme_ == "https")
    curl_easy_setopt(easy.get(), CURLOPT_CAINFO, LONGREAD_FIXTURE_SERVER_DIR "/tls/cert.pem");
  curl_easy_setopt(easy.get(), CURLOPT_WRITEFUNCTION, &append_body);
  curl_easy_setopt(easy.get(), CURLOPT_WRITEDATA, static_cast<void*>(&body));
  const CURLcode rc = curl_easy_perform(easy.get());
  if (rc != CURLE_OK) {
    return fail(ErrorKind::kNetwork,
                fmt::format("fixture: GET {} failed: {}", target, curl_easy_strerror(rc)));
  }
  return body;
}

std::string FixtureServer::requests_json() const {
  return get("/_requests").value_or("[]");
}
std::string FixtureServer::stats_json() const {
  return get("/_stats").value_or("{}");
}
void FixtureServer::reset() const {
  (void)get("/_reset");
}

}  // namespace longread::testing
