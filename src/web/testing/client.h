// A small blocking HTTP/1.1 client over real sockets for tests (Beast underneath, kept out of this header).
// Every operation has a deadline so a misbehaving server fails a test instead of hanging it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "web/http.h"

namespace longread::web::testing {

struct ClientResponse {
  int status = 0;
  Fields headers;
  std::string body;  // as received (still gzip-compressed if the server compressed it)
  bool keep_alive = false;
  [[nodiscard]] std::optional<std::string_view> header(std::string_view name) const;
};

// One connection to 127.0.0.1:port that can carry several requests (keep-alive). `from` is the local
// address it connects from: any 127.x.y.z stands for another client on the loopback interface.
class Client {
 public:
  [[nodiscard]] static Result<Client> connect(std::uint16_t port,
                                              std::chrono::milliseconds timeout = std::chrono::seconds(10),
                                              std::string_view from = "127.0.0.1");
  Client(Client&&) noexcept;
  Client& operator=(Client&&) noexcept;
  ~Client();

  [[nodiscard]] Result<ClientResponse> request(std::string_view method, std::string_view target,
                                               const Fields& headers = {}, std::string body = {});

 private:
  struct Impl;
  explicit Client(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// One GET on a fresh connection.
[[nodiscard]] Result<ClientResponse> http_get(std::uint16_t port, std::string_view target,
                                              const Fields& headers = {});
// Sends raw bytes, then reads until the server closes the connection (or the timeout passes).
[[nodiscard]] Result<std::string> raw_exchange(std::uint16_t port, std::string_view bytes,
                                               std::chrono::milliseconds timeout = std::chrono::seconds(10),
                                               std::string_view from = "127.0.0.1");

}  // namespace longread::web::testing
