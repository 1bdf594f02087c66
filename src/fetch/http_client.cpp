#include "fetch/http_client.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstring>
#include <deque>
#include <new>
#include <thread>
#include <unordered_map>
#include <utility>

#include "core/strings.h"
#include "core/url.h"
#include "fetch/curl_handle.h"
#include "fetch/freshness.h"

namespace longread::fetch {

namespace {

using Clock = std::chrono::steady_clock;

// "8 MiB", "64 KiB", "1000 bytes": the cap as the operator configured it.
std::string format_size(std::size_t bytes) {
  constexpr std::size_t kKiB = 1024;
  constexpr std::size_t kMiB = 1024 * kKiB;
  if (bytes >= kMiB && bytes % kMiB == 0) return fmt::format("{} MiB", bytes / kMiB);
  if (bytes >= kKiB && bytes % kKiB == 0) return fmt::format("{} KiB", bytes / kKiB);
  return fmt::format("{} bytes", bytes);
}

// Scheme, host and the politeness key "scheme://host:port" of an absolute URL, parsed by curl_url.
struct UrlParts {
  std::string scheme;
  std::string host;
  std::string port;
  std::string key;
};

std::optional<std::string> url_part(CURLU* url, CURLUPart part, unsigned flags) {
  char* text = nullptr;
  if (curl_url_get(url, part, &text, flags) != CURLUE_OK || text == nullptr) return std::nullopt;
  std::string out(text);
  curl_free(text);
  return out;
}

std::optional<UrlParts> parse_url(const std::string& url) {
  UrlHandle handle(curl_url());
  if (!handle || curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) return std::nullopt;
  UrlParts parts;
  parts.scheme = to_lower_ascii(url_part(handle.get(), CURLUPART_SCHEME, 0).value_or(""));
  if (parts.scheme == "file") {
    parts.key = "file://";
    return parts;
  }
  auto host = url_part(handle.get(), CURLUPART_HOST, 0);
  auto port = url_part(handle.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT);
  if (!host || !port) return std::nullopt;
  parts.host = to_lower_ascii(*host);
  parts.port = *port;
  parts.key = fmt::format("{}://{}:{}", parts.scheme, parts.host, *port);
  return parts;
}

bool is_allowed_scheme(std::string_view scheme) {
  return scheme == "http" || scheme == "https" || scheme == "file";
}

// A header value we put on the wire must not smuggle in another header (CR/LF) or a NUL.
bool is_safe_header_value(std::string_view value) {
  return value.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos;
}

// Retry-After is either delay-seconds or an HTTP-date (RFC 9110 10.2.3); curl_getdate reads the
// date forms of RFC 9110 5.6.7 (IMF-fixdate and the obsolete RFC 850 / asctime ones).
std::optional<TimePoint> parse_retry_after(std::string_view value, TimePoint now) {
  value = trim(value);
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c) != 0; })) {
    if (value.size() > 9) return std::nullopt;  // more than 30 years: nonsense
    return now + std::chrono::seconds{std::stoll(std::string(value))};
  }
  const std::string text(value);
  const time_t t = curl_getdate(text.c_str(), nullptr);
  if (t == -1) return std::nullopt;
  return from_unix(static_cast<std::int64_t>(t));
}

std::optional<std::string> response_header(CURL* easy, const char* name) {
  curl_header* header = nullptr;
  // request -1: the last response of this transfer (after any 1xx).
  if (curl_easy_header(easy, name, 0, CURLH_HEADER, -1, &header) != CURLHE_OK || header == nullptr) {
    return std::nullopt;
  }
  return std::string(trim(header->value));
}

// Every field line of a list-valued header joined with ", ", which is what several lines mean
// (RFC 9110 5.3).
std::string joined_header(CURL* easy, const char* name) {
  std::string out;
  curl_header* header = nullptr;
  if (curl_easy_header(easy, name, 0, CURLH_HEADER, -1, &header) != CURLHE_OK || header == nullptr)
    return out;
  const std::size_t amount = header->amount;
  for (std::size_t i = 0; i < amount; ++i) {
    if (curl_easy_header(easy, name, i, CURLH_HEADER, -1, &header) != CURLHE_OK || header == nullptr) break;
    if (!out.empty()) out += ", ";
    out += trim(header->value);
  }
  return out;
}

bool is_tls_error(CURLcode rc) {
  switch (rc) {
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CLIENTCERT:
    case CURLE_USE_SSL_FAILED:
      return true;
    default:
      return false;
  }
}

constexpr std::string_view kCancelledMessage = "fetch: cancelled";
// How soon a batch's `more` is asked again after it answered "none for now".
constexpr std::chrono::milliseconds kAskAgain{20};
constexpr std::string_view kRefusedPrefix = "fetch: refused: ";

Error refused_error(std::string_view reason) {
  return Error{ErrorKind::kForbidden, fmt::format("{}{}", kRefusedPrefix, reason),
               "longread's outbound request policy refused this address."};
}

// nullopt when `host` may be fetched under `site`, else the refusal.
std::optional<Error> site_refusal(const SiteRestriction& site, std::string_view raw_host) {
  const std::string host = canonical_host(raw_host);
  const std::string host_site = site_of_host(host);
  const bool allowed = std::any_of(site.sites.begin(), site.sites.end(), [&](const std::string& s) {
    return !s.empty() && (s == host || s == host_site);
  });
  if (allowed) return std::nullopt;
  std::string reason =
      fmt::format("{} is not on {} ({})", host.empty() ? "(no host)" : host, site.owner,
                  site.sites.empty() ? std::string("none") : fmt::format("{}", fmt::join(site.sites, ", ")));
  if (!site.allow_command.empty())
    reason += fmt::format(" (allow it with `{} {}`)", site.allow_command, host);
  return refused_error(reason);
}

Error cancelled_error() {
  return Error{ErrorKind::kTimeout, std::string(kCancelledMessage),
               "The fetch was stopped because longread is shutting down."};
}

// One request in flight: its hop-by-hop state and the Response being filled.
struct Transfer {
  Request request;
  std::string current_url;
  UrlParts parts;
  int hops = 0;
  bool all_permanent = true;
  bool started = false;
  Clock::time_point start_time{};
  std::chrono::milliseconds hop_budget{0};
  std::size_t max_body_bytes = 0;
  bool too_large = false;
  const AddressPolicy* address_policy = nullptr;
  std::optional<std::string> refused;  // this hop's first address the policy refused, and why
  bool opened_socket = false;          // this hop connected (or tried) to an allowed address
  EasyHandle easy;
  HeaderList headers;
  std::string body;
  std::array<char, CURL_ERROR_SIZE> error_buffer{};
  Response response;

  void finish_error(Error error) { response.error = std::move(error); }
};

// CURLOPT_WRITEFUNCTION: keeps decoded bytes up to the cap; returning short aborts the transfer at once
// with CURLE_WRITE_ERROR, so an oversized body (or a decompression bomb) is never read to its end.
std::size_t write_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::size_t length = size * count;
  if (transfer->body.size() + length > transfer->max_body_bytes) {
    transfer->too_large = true;
    return 0;
  }
  transfer->body.append(data, length);
  return length;
}

// CURLOPT_OPENSOCKETFUNCTION: libcurl calls it with the resolved address of every connection it is about
// to open (every hop, every address of a name, each attempt of happy eyeballs), after DNS and before
// connect(), so what is checked is what is connected to: a name that resolves to loopback, or that resolves
// differently the second time (DNS rebinding), is caught as well as an address literal. CURL_SOCKET_BAD
// makes libcurl try the next address or end with CURLE_COULDNT_CONNECT; the reason is kept on the transfer
// for the Response.
curl_socket_t open_socket(void* user, curlsocktype purpose, curl_sockaddr* address) {
  auto* transfer = static_cast<Transfer*>(user);
  if (purpose == CURLSOCKTYPE_IPCXN && transfer->address_policy != nullptr) {
    std::optional<std::string> why;
    if (auto ip = IpAddress::from_sockaddr(&address->addr, address->addrlen)) {
      why = refusal(*transfer->address_policy, *ip);
    } else {
      why = fmt::format("address family {} is not IP", address->family);
    }
    if (why) {
      if (!transfer->refused) transfer->refused = std::move(why);
      return CURL_SOCKET_BAD;
    }
  }
  transfer->opened_socket = true;
  return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

}  // namespace

struct HttpClient::Impl {
  ClientOptions options;
  MultiHandle multi;
  HeaderList connect_to;  // options.connect_to as libcurl's list, made once
  std::atomic<bool> cancelled{false};

  explicit Impl(ClientOptions opts) : options(std::move(opts)) {
    ensure_curl_global_init();
    options.max_concurrent = std::max(1, options.max_concurrent);
    options.max_per_host = std::max(1, options.max_per_host);
    options.max_redirects = std::max(0, options.max_redirects);
    multi.reset(curl_multi_init());
    if (!multi) throw std::runtime_error("fetch: curl_multi_init failed");
    for (const auto& entry : options.connect_to) {
      if (!connect_to.append(entry)) throw std::bad_alloc();
    }
    // HTTP/2 multiplexing lets several transfers to one host share a connection; curl also queues a
    // transfer that would exceed the per-host connection cap instead of opening more connections.
    curl_multi_setopt(multi.get(), CURLMOPT_PIPELINING, static_cast<long>(CURLPIPE_MULTIPLEX));
    // libcurl counts a host's connections by the host it connects to: under connect_to that is one host for
    // every blog, and its cap would hold all of them to max_per_host at once. start_ready's own cap, by the
    // URL's host, stays.
    if (options.connect_to.empty()) {
      curl_multi_setopt(multi.get(), CURLMOPT_MAX_HOST_CONNECTIONS, static_cast<long>(options.max_per_host));
    }
    curl_multi_setopt(multi.get(), CURLMOPT_MAX_TOTAL_CONNECTIONS, static_cast<long>(options.max_concurrent));
  }

  // Sets up the easy handle for the transfer's current hop. Returns an error when it cannot start.
  std::optional<Error> configure(Transfer& t) {
    t.easy.reset(curl_easy_init());
    if (!t.easy) return Error{ErrorKind::kInternal, "fetch: curl_easy_init failed"};
    t.body.clear();
    t.too_large = false;
    t.error_buffer[0] = '\0';
    const auto now = Clock::now();
    if (!t.started) {
      t.started = true;
      t.start_time = now;
    }
    // The total timeout covers every hop of a request, so each hop gets what is left of it.
    const auto total = std::chrono::duration_cast<std::chrono::milliseconds>(options.total_timeout);
    const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(now - t.start_time);
    t.hop_budget = std::max(std::chrono::milliseconds{1}, total - spent);
    if (spent >= total) {
      return Error{ErrorKind::kTimeout,
                   fmt::format("fetch: timed out after {} s", options.total_timeout.count())};
    }

    CURL* e = t.easy.get();
    curl_easy_setopt(e, CURLOPT_URL, t.current_url.c_str());
    curl_easy_setopt(e, CURLOPT_PRIVATE, static_cast<void*>(&t));
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &write_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, static_cast<void*>(&t));
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t.error_buffer.data());
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    // Redirects are followed here, hop by hop, to see each hop's status (301/308 vs 302/303/307).
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https,file");
    curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    // Every connection passes the address policy (open_socket). A proxy from the environment
    // (http_proxy, ALL_PROXY) would hide the real destination from that check, so none is used.
    t.refused.reset();
    t.opened_socket = false;
    t.address_policy = &options.address_policy;
    curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, &open_socket);
    curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, static_cast<void*>(&t));
    curl_easy_setopt(e, CURLOPT_PROXY, "");
    if (connect_to.get() != nullptr) curl_easy_setopt(e, CURLOPT_CONNECT_TO, connect_to.get());
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
    curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");  // every encoding this libcurl decodes
    curl_easy_setopt(e, CURLOPT_USERAGENT, options.user_agent.c_str());
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(std::chrono::milliseconds(options.connect_timeout).count()));
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(t.hop_budget.count()));
    // Refuses at once a body whose declared length is over the cap; write_body catches the rest.
    curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(t.max_body_bytes));
    if (!options.ca_file.empty()) curl_easy_setopt(e, CURLOPT_CAINFO, options.ca_file.c_str());
    if (t.parts.scheme == "file") curl_easy_setopt(e, CURLOPT_FILETIME, 1L);
    if (t.headers.get() != nullptr) curl_easy_setopt(e, CURLOPT_HTTPHEADER, t.headers.get());
    return std::nullopt;
  }

  Error error_for(const Transfer& t, CURLcode rc) const {
    const std::string detail =
        t.error_buffer[0] != '\0' ? std::string(t.error_buffer.data()) : std::string(curl_easy_strerror(rc));
    switch (rc) {
      case CURLE_OPERATION_TIMEDOUT: {
        curl_off_t connect_us = 0;
        curl_easy_getinfo(t.easy.get(), CURLINFO_CONNECT_TIME_T, &connect_us);
        if (connect_us == 0 && t.parts.scheme != "file" && t.hop_budget > options.connect_timeout) {
          return Error{ErrorKind::kTimeout,
                       fmt::format("fetch: could not connect within {} s", options.connect_timeout.count()),
                       "The site did not accept a connection in time."};
        }
        return Error{
            ErrorKind::kTimeout, fmt::format("fetch: timed out after {} s", options.total_timeout.count()),
            fmt::format("The site did not answer within {} seconds.", options.total_timeout.count())};
      }
      case CURLE_COULDNT_RESOLVE_HOST:
        return Error{ErrorKind::kNetwork, fmt::format("fetch: could not resolve host {}", t.parts.host),
                     "The site's name does not resolve (DNS)."};
      case CURLE_COULDNT_CONNECT: {
        long os_errno = 0;
        curl_easy_getinfo(t.easy.get(), CURLINFO_OS_ERRNO, &os_errno);
        const std::string reason =
            os_errno != 0 ? std::string(std::strerror(static_cast<int>(os_errno))) : detail;
        return Error{
            ErrorKind::kNetwork,
            fmt::format("fetch: could not connect: {} port {}: {}", t.parts.host, t.parts.port, reason),
            "The site refused the connection or is unreachable."};
      }
      case CURLE_WRITE_ERROR:
      case CURLE_FILESIZE_EXCEEDED:
        if (rc == CURLE_FILESIZE_EXCEEDED || t.too_large) {
          return Error{ErrorKind::kTooLarge,
                       fmt::format("fetch: body over {}", format_size(t.max_body_bytes)),
                       "The page or feed is too large."};
        }
        break;
      case CURLE_FILE_COULDNT_READ_FILE:
        return Error{ErrorKind::kNotFound, fmt::format("fetch: cannot read file: {}", detail)};
      case CURLE_UNSUPPORTED_PROTOCOL:
      case CURLE_URL_MALFORMAT:
        return Error{ErrorKind::kInvalidInput, fmt::format("fetch: bad URL {}: {}", t.current_url, detail)};
      case CURLE_ABORTED_BY_CALLBACK:
        return cancelled_error();
      default:
        if (is_tls_error(rc)) {
          return Error{ErrorKind::kNetwork, fmt::format("fetch: TLS error: {}", detail),
                       "The site's secure connection (TLS) failed."};
        }
        break;
    }
    return Error{ErrorKind::kNetwork, fmt::format("fetch: {}", detail)};
  }

  enum class HopOutcome { kDone, kRedirect };

  // Reads the result of one hop into the transfer's Response; on a redirect, points it at the next URL.
  HopOutcome finish_hop(Transfer& t, CURLcode rc) {
    Response& r = t.response;
    CURL* e = t.easy.get();
    long status = 0;
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
    r.status = status;
    if (const char* effective = nullptr;
        curl_easy_getinfo(e, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK && effective != nullptr) {
      r.final_url = effective;
    }
    if (rc != CURLE_OK) {
      // Refused only when no address was left to try: if another address of the name was allowed, its own
      // failure (refused connection, timeout, TLS) is the one to report.
      const bool refused = t.refused && !t.opened_socket;
      t.finish_error(refused ? refused_error(*t.refused) : error_for(t, rc));
      return HopOutcome::kDone;
    }
    if (t.parts.scheme == "file") {
      r.status = 200;
      curl_off_t filetime = -1;
      if (curl_easy_getinfo(e, CURLINFO_FILETIME_T, &filetime) == CURLE_OK && filetime >= 0) {
        r.last_modified = format_http_date(from_unix(static_cast<std::int64_t>(filetime)));
      }
      r.body = std::move(t.body);
      return HopOutcome::kDone;
    }

    if (status >= 300 && status < 400 && status != 304) {
      const char* location = nullptr;
      curl_easy_getinfo(e, CURLINFO_REDIRECT_URL, &location);
      if (location == nullptr) {
        t.finish_error(Error{ErrorKind::kHttpStatus, fmt::format("fetch: HTTP {} without Location", status)});
        return HopOutcome::kDone;
      }
      if (t.hops >= options.max_redirects) {
        t.finish_error(Error{ErrorKind::kHttpStatus,
                             fmt::format("fetch: too many redirects (more than {})", options.max_redirects),
                             "The site redirects in a loop."});
        return HopOutcome::kDone;
      }
      std::string next(location);
      auto parts = parse_url(next);
      // Only http(s) may be redirected to: a feed must never send us to file:// (RFC 9110 15.4 leaves
      // the choice to the client; curl's default also refuses it).
      if (!parts) {
        t.finish_error(Error{ErrorKind::kInvalidInput, fmt::format("fetch: bad redirect to {}", next)});
        return HopOutcome::kDone;
      }
      if (parts->scheme != "http" && parts->scheme != "https") {
        t.finish_error(refused_error(fmt::format("redirect to {} (only http and https are followed)", next)));
        return HopOutcome::kDone;
      }
      // A page limited to its blog's site stays there on every hop, not only the first.
      if (t.request.site) {
        if (auto refused = site_refusal(*t.request.site, parts->host)) {
          t.finish_error(std::move(*refused));
          return HopOutcome::kDone;
        }
      }
      ++t.hops;
      // RFC 9110 15.4.2 / 15.4.9: only 301 and 308 say "update your stored link".
      t.all_permanent = t.all_permanent && (status == 301 || status == 308);
      t.current_url = std::move(next);
      t.parts = std::move(*parts);
      return HopOutcome::kRedirect;
    }

    if (auto type = response_header(e, "Content-Type")) r.content_type = *type;
    r.content_language = joined_header(e, "Content-Language");
    r.etag = response_header(e, "ETag").value_or("");
    r.last_modified = response_header(e, "Last-Modified").value_or("");
    if (status == 304) {
      // RFC 9111 4.3.4: validators the 304 repeats replace the stored ones; absent ones stay.
      if (r.etag.empty()) r.etag = t.request.etag;
      if (r.last_modified.empty()) r.last_modified = t.request.last_modified;
    }
    if (t.hops > 0 && t.all_permanent) r.permanent_redirect = r.final_url;
    if (status == 429 || status == 503) {
      if (auto after = response_header(e, "Retry-After"))
        r.retry_at = parse_retry_after(*after, now_seconds());
    }
    // A 304 carries the same Cache-Control and Expires a 200 would (RFC 9110 15.4.5), so both count.
    if ((status >= 200 && status < 300) || status == 304) {
      const std::string cache_control = joined_header(e, "Cache-Control");
      const std::string expires = response_header(e, "Expires").value_or("");
      const std::string date = response_header(e, "Date").value_or("");
      const std::string age = response_header(e, "Age").value_or("");
      r.fresh_for = fresh_for({.cache_control = cache_control, .expires = expires, .date = date, .age = age},
                              now_seconds());
    }
    r.body = std::move(t.body);
    if (status >= 400) {
      t.finish_error(Error{ErrorKind::kHttpStatus, fmt::format("fetch: HTTP {}", status),
                           fmt::format("The site answered HTTP {}.", status)});
    } else if (status < 200) {
      t.finish_error(Error{ErrorKind::kHttpStatus, fmt::format("fetch: HTTP {}", status)});
    }
    return HopOutcome::kDone;
  }

  // Transfers currently added to the multi handle. Its destructor removes them from the multi handle
  // before their easy handles are freed, on every exit path (an on_done that throws included).
  struct Running {
    CURLM* multi;
    std::unordered_map<CURL*, std::unique_ptr<Transfer>> transfers;
    explicit Running(CURLM* m) : multi(m) {}
    Running(const Running&) = delete;
    Running& operator=(const Running&) = delete;
    ~Running() {
      for (auto& [easy, transfer] : transfers) curl_multi_remove_handle(multi, easy);
    }
    std::unique_ptr<Transfer> take(CURL* easy) {
      auto node = transfers.extract(easy);
      curl_multi_remove_handle(multi, easy);
      return std::move(node.mapped());
    }
  };

  void finish(Transfer& t, const std::function<void(Response)>& on_done) {
    t.response.elapsed =
        t.started ? std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t.start_time)
                  : std::chrono::milliseconds{0};
    if (t.response.final_url.empty()) t.response.final_url = t.current_url;
    on_done(std::move(t.response));
  }

  std::unique_ptr<Transfer> make_transfer(Request request) {
    auto t = std::make_unique<Transfer>();
    t->response.tag = request.tag;
    t->response.url = request.url;
    t->current_url = request.url;
    t->max_body_bytes = options.max_body_bytes;
    auto parts = parse_url(request.url);
    if (!parts || !is_allowed_scheme(parts->scheme)) {
      t->finish_error(Error{ErrorKind::kInvalidInput,
                            fmt::format("fetch: not an http(s) or file URL: {}", request.url),
                            "The address is not a valid web address."});
    } else if (parts->scheme == "file" && !request.from_operator) {
      // A link a feed or page gives is the stranger's choice: file:// would publish a local file.
      t->finish_error(refused_error(
          fmt::format("{} is a local file, read only for a feed the operator gave", request.url)));
    } else if (request.site && parts->scheme == "file") {
      t->finish_error(
          refused_error(fmt::format("{} is a local file, not on {}", request.url, request.site->owner)));
    } else if (request.site && site_refusal(*request.site, parts->host)) {
      t->finish_error(*site_refusal(*request.site, parts->host));
    } else {
      t->parts = std::move(*parts);
    }
    // Conditional GET (RFC 9110 13.1.1, 13.1.3): the server answers 304 when nothing changed.
    if (!request.etag.empty() && is_safe_header_value(request.etag)) {
      t->headers.append("If-None-Match: " + request.etag);
    }
    if (!request.last_modified.empty() && is_safe_header_value(request.last_modified)) {
      t->headers.append("If-Modified-Since: " + request.last_modified);
    }
    t->request = std::move(request);
    return t;
  }

  void run(std::vector<Request> requests, const std::function<void(Response)>& on_done,
           const std::function<std::optional<std::vector<Request>>()>& more = nullptr) {
    std::deque<std::unique_ptr<Transfer>> pending;
    std::unordered_map<std::string, int> per_host;
    Running running(multi.get());
    bool more_left = static_cast<bool>(more);
    // `more` last answered "none for now": it is asked again shortly, not only when a transfer ends, so that
    // a few slow transfers still running do not keep the free slots idle.
    bool none_for_now = false;

    const auto enqueue = [&](std::vector<Request>& batch) {
      for (auto& request : batch) {
        auto t = make_transfer(std::move(request));
        if (t->response.error) {
          finish(*t, on_done);
        } else {
          pending.push_back(std::move(t));
        }
      }
    };
    enqueue(requests);
    // Asks for more while the queue is shorter than the transfers that may run at once.
    const auto refill = [&] {
      none_for_now = false;
      while (more_left && !cancelled.load() && std::cmp_less(pending.size(), options.max_concurrent)) {
        auto batch = more();
        if (!batch) {
          more_left = false;
        } else if (batch->empty()) {
          none_for_now = true;  // asked again when a transfer ends, or after kAskAgain
          break;
        } else {
          enqueue(*batch);
        }
      }
    };

    // Starts queued transfers while there is room overall and for their host; a transfer whose host is
    // busy waits without blocking the ones behind it.
    const auto start_ready = [&] {
      for (auto it = pending.begin();
           it != pending.end() && std::cmp_less(running.transfers.size(), options.max_concurrent);) {
        Transfer& t = **it;
        int& active_for_host = per_host[t.parts.key];
        if (active_for_host >= options.max_per_host) {
          ++it;
          continue;
        }
        auto owned = std::move(*it);
        it = pending.erase(it);
        if (auto error = configure(t)) {
          t.finish_error(std::move(*error));
          finish(t, on_done);
          continue;
        }
        if (curl_multi_add_handle(multi.get(), t.easy.get()) != CURLM_OK) {
          t.finish_error(Error{ErrorKind::kInternal, "fetch: curl_multi_add_handle failed"});
          finish(t, on_done);
          continue;
        }
        ++active_for_host;
        CURL* easy = t.easy.get();
        running.transfers.emplace(easy, std::move(owned));
      }
    };

    const auto cancel_all = [&] {
      while (!running.transfers.empty()) {
        auto t = running.take(running.transfers.begin()->first);
        t->finish_error(cancelled_error());
        finish(*t, on_done);
      }
      while (!pending.empty()) {
        auto t = std::move(pending.front());
        pending.pop_front();
        t->finish_error(cancelled_error());
        finish(*t, on_done);
      }
    };

    if (cancelled.load()) {
      cancel_all();
      return;
    }
    refill();
    start_ready();
    while (!running.transfers.empty() || !pending.empty() || more_left) {
      if (cancelled.load()) {
        cancel_all();
        return;
      }
      if (running.transfers.empty()) {  // nothing left running (every start failed): take more, or end
        refill();
        start_ready();
        if (running.transfers.empty() && pending.empty()) {
          if (!more_left) break;
          // `more` has none for now (its caller is catching up): wait a little and ask again.
          std::this_thread::sleep_for(kAskAgain);
          continue;
        }
      }
      int still_running = 0;
      const CURLMcode mc = curl_multi_perform(multi.get(), &still_running);
      if (mc != CURLM_OK) {
        throw std::runtime_error(fmt::format("fetch: curl_multi_perform: {}", curl_multi_strerror(mc)));
      }
      bool freed = false;
      int queued = 0;
      while (CURLMsg* message = curl_multi_info_read(multi.get(), &queued)) {
        if (message->msg != CURLMSG_DONE) continue;
        const CURLcode rc = message->data.result;
        auto t = running.take(message->easy_handle);
        --per_host[t->parts.key];
        freed = true;
        if (finish_hop(*t, rc) == HopOutcome::kRedirect) {
          pending.push_front(std::move(t));  // keeps its place: it already waited its turn
        } else {
          finish(*t, on_done);
        }
      }
      if (freed || (none_for_now && more_left)) {
        refill();
        start_ready();
      }
      if (!running.transfers.empty() && !cancelled.load()) {
        const auto wait = none_for_now && more_left ? kAskAgain : std::chrono::milliseconds(1000);
        curl_multi_poll(multi.get(), nullptr, 0, static_cast<int>(wait.count()), nullptr);
      }
    }
  }
};

HttpClient::HttpClient(ClientOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
HttpClient::~HttpClient() = default;
HttpClient::HttpClient(HttpClient&&) noexcept = default;
HttpClient& HttpClient::operator=(HttpClient&&) noexcept = default;

void HttpClient::fetch_all(std::vector<Request> requests, const std::function<void(Response)>& on_done) {
  impl_->run(std::move(requests), on_done);
}

void HttpClient::fetch_all(std::vector<Request> requests, const std::function<void(Response)>& on_done,
                           const std::function<std::optional<std::vector<Request>>()>& more) {
  impl_->run(std::move(requests), on_done, more);
}

Response HttpClient::fetch(Request request) {
  Response out;
  std::vector<Request> one;
  one.push_back(std::move(request));
  impl_->run(std::move(one), [&out](Response r) { out = std::move(r); });
  return out;
}

void HttpClient::cancel() {
  if (!impl_) return;
  impl_->cancelled.store(true);
  curl_multi_wakeup(impl_->multi.get());  // thread-safe: interrupts curl_multi_poll
}

bool HttpClient::is_cancelled(const Error& error) {
  return error.kind == ErrorKind::kTimeout && error.message == kCancelledMessage;
}

bool HttpClient::is_refused(const Error& error) {
  return error.kind == ErrorKind::kForbidden && error.message.starts_with(kRefusedPrefix);
}

const ClientOptions& HttpClient::options() const {
  return impl_->options;
}

}  // namespace longread::fetch
