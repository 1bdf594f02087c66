// The fetch stage: many HTTP(S) and file:// fetches at once on libcurl's multi interface, each answered by a
// Response value that says whether the resource changed, when to retry and what kind of failure happened.
// Only needs core.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "fetch/address_policy.h"

namespace longread::fetch {

// Limits and identity of one client; the defaults are what the hourly crawl uses.
struct ClientOptions {
  int max_concurrent = 32;  // transfers at once
  int max_per_host = 2;     // politeness: transfers at once per scheme://host:port
  std::chrono::seconds connect_timeout{10};
  std::chrono::seconds total_timeout{30};        // per request, all redirect hops included
  std::size_t max_body_bytes = 8 * 1024 * 1024;  // decoded bytes, enforced while streaming
  int max_redirects = 5;
  std::string user_agent = "longread/0.1 (+https://github.com/longread/longread)";
  std::string ca_file{};  // PEM bundle to trust instead of the system's; empty = system store
  // Checked at connect time for every connection every request opens (each redirect hop, each address a
  // name resolves to, so DNS rebinding too): by default only public addresses (fetch/address_policy.h).
  AddressPolicy address_policy{};
  // Connect somewhere else than a URL's host says, as curl's --connect-to does: each entry is
  // "HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT", an empty field matching any ("::127.0.0.1:8080" sends
  // every request to 127.0.0.1:8080 while the URL, the Host header and TLS's name stay the blog's). For a
  // staging copy of a site or a benchmark's fixture server; the address connected to still passes
  // address_policy.
  std::vector<std::string> connect_to{};
};

// Limits every hop of a request to some sites: a full-text page stays on its blog's own site. A hop's host
// passes when it, or its site (core/url.h site_of_host: the registrable domain), is in `sites`.
struct SiteRestriction {
  std::vector<std::string> sites;  // canonical hosts or registrable domains ("example.com", "127.0.0.1")
  std::string owner = "the allowed sites";  // named in a refusal: "blog 3's site"
  std::string allow_command{};              // a refusal says "allow it with `<allow_command> HOST`" when set
};

// One URL to fetch, with the validators stored from its last 200 (RFC 9110 13.1).
struct Request {
  std::string url{};            // http(s):// or file:// (file:// only with from_operator)
  std::string etag{};           // send If-None-Match when non-empty (RFC 9110 13.1.2)
  std::string last_modified{};  // send If-Modified-Since when non-empty (RFC 9110 13.1.3)
  std::uint64_t tag = 0;        // caller's id (blog id), echoed back
  // The operator gave this URL (a feed they imported or added, a URL typed at `inspect`). Only such a URL
  // may be file://: a link found in a feed or a page, or a redirect, never reads a local file.
  bool from_operator = false;
  std::optional<SiteRestriction> site{};  // set: every hop must stay on these sites
};

// The answer to one Request. A 304 is an ordinary value (not_modified()), never an error.
struct Response {
  std::uint64_t tag = 0;
  std::string url;        // as requested
  std::string final_url;  // after redirects
  long status = 0;        // HTTP status, 0 when none (network error); file:// gives 200
  std::string body;       // decoded (gzip/deflate/br) bytes
  std::string content_type;
  std::string content_language;  // Content-Language (RFC 9110 section 8.5), as sent; empty when absent
  // Validators to store for the next conditional GET: those of a 200, or on a 304 the ones the server
  // repeated, else the ones that were sent (RFC 9111 4.3.4: a 304 refreshes the stored response).
  std::string etag, last_modified;
  std::optional<std::string> permanent_redirect;  // new URL when every redirect hop was 301/308
  std::optional<TimePoint> retry_at;  // from Retry-After on 429/503 (seconds or HTTP-date, RFC 9110 10.2.3)
  // On a 2xx or 304: how long the server says the response stays fresh (Cache-Control max-age, else Expires
  // minus Date, less Age; see fetch/freshness.h). nullopt: no positive lifetime given. The schedule takes it
  // as a minimum time until the next poll.
  std::optional<std::chrono::seconds> fresh_for;
  // Set on failure, message starting "fetch: ": kTimeout "fetch: timed out after 30 s", kTooLarge
  // "fetch: body over 8 MiB", kNetwork "fetch: could not connect: ..." / "fetch: could not resolve host ..."
  // / "fetch: TLS error: ...", kHttpStatus "fetch: HTTP 404" / "fetch: too many redirects (more than 5)",
  // kNotFound "fetch: cannot read file ...", kInvalidInput for bad URLs. A request the outbound policy
  // refuses ends with kForbidden and a message starting "fetch: refused: " (is_refused): "fetch: refused:
  // 127.0.0.1 is a private address (set fetch.allow_private to allow)", "fetch: refused: file:///x is a
  // local file, read only for a feed the operator gave", "fetch: refused: redirect to file:///x (only
  // http and https are followed)", "fetch: refused: evil.example is not on blog 3's site (example.com) ...".
  std::optional<Error> error;
  std::chrono::milliseconds elapsed{0};

  [[nodiscard]] bool not_modified() const { return !error && status == 304; }
  [[nodiscard]] bool ok() const { return !error && status >= 200 && status < 300; }
};

// Fetches many URLs concurrently on libcurl's multi interface (HTTP/2 where offered, multiplexing,
// at most max_per_host transfers per scheme://host:port, queued so one slow host does not hold up others),
// calling on_done on the calling thread as each finishes. One client keeps its connections between calls;
// use it from one thread at a time (cancel() excepted).
class HttpClient {
 public:
  explicit HttpClient(ClientOptions options);
  ~HttpClient();
  HttpClient(HttpClient&&) noexcept;
  HttpClient& operator=(HttpClient&&) noexcept;
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Every request gets exactly one on_done call, in completion order. Returns when all are done.
  void fetch_all(std::vector<Request> requests, const std::function<void(Response)>& on_done);
  // The same, with more requests as it goes: `more` is called on this thread whenever fewer requests wait
  // than can run at once, and its requests join the queue. An empty list means none for now (it is asked
  // again when a transfer ends, or within 20 ms, slow transfers running or not); nullopt means none is
  // left, and it is not called again. A crawl claims its blogs in batches this way, so transfers never drain
  // between batches, and holds back while its saving catches up.
  void fetch_all(std::vector<Request> requests, const std::function<void(Response)>& on_done,
                 const std::function<std::optional<std::vector<Request>>()>& more);
  // One request, blocking.
  [[nodiscard]] Response fetch(Request request);
  // Thread-safe: makes a running fetch_all finish soon; unfinished transfers end with kTimeout
  // "fetch: cancelled". Permanent: later fetches of this client end the same way at once.
  void cancel();
  // Did this error come from cancel() (not from the server or the network)?
  [[nodiscard]] static bool is_cancelled(const Error& error);
  // Did the outbound policy refuse the request (address, scheme or site), on any hop?
  [[nodiscard]] static bool is_refused(const Error& error);

  [[nodiscard]] const ClientOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace longread::fetch
