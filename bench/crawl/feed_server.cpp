// feed_server: one synthetic blog feed for every host name a crawler asks for, on one loopback port, for the
// crawl benchmark (bench/crawl/run.sh). The crawler reaches it for every blog through fetch.connect_to, so
// each of the 36,515 Kagi Small Web blogs keeps its own host name, Host header and per-host limits.
//
//   feed_server --corpus ../shared/corpus/real-feeds [--port 0] [--seed 1] [--slow-seconds 5] [--ahead URLS]
//               [--start UNIX_TIME]
// prints "listening on 127.0.0.1:PORT" and serves until killed. With --ahead (a file of the feed URLs the
// crawlers will ask for, one a line), it first renders every one's first-pass body, on every core, so that
// making the text does not compete with the crawlers and the database server during the timed passes.
//
// What a feed is like, drawn from the real corpus:
//   - entries per feed: the distribution of the corpus's blog feeds (files of 2 to 100 entries; one entry is
//     a parser fixture, hundreds an archive dump), about 20 on average, so 36,515 blogs give ~730,000
//     articles;
//   - each entry's text: longread-generate's realistic model (word frequencies, sentence, paragraph and
//     article lengths, title shapes of the corpus's posts), as full content plus a first-paragraph summary;
//   - 70% RSS 2.0 with content:encoded, 30% Atom; ETag and Last-Modified, and 304 to a matching validator.
// Passes (GET /__bench/pass?n=N starts pass N; pass 1 at start): in pass 1 every feed answers 200. In a
// later pass each blog, by a hash of its URL and the pass, answers as follows:
//   80%   unchanged: 304 to its validators;
//   15%   1 to 3 new entries at the top (the oldest drop off, so the feed keeps its length), a new ETag;
//   2%    HTTP 500;  1.5% HTTP 429 with Retry-After: 3600;  1.5% slow: a stall of --slow-seconds, then 503.
// GET /__bench/stats: JSON of the current pass: feed requests, distinct feeds, feeds asked for more than once
// (a crawler polled them twice), answers by status, bytes sent, and requests for other paths.
#include <utility>  // before Asio: asio/awaitable.hpp uses std::exchange without including <utility>

#include <fmt/format.h>
#include <zstd.h>
#include <boost/asio.hpp>
#include <boost/beast.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "../common/corpus.h"
#include "core/strings.h"
#include "core/time.h"
#include "feed/feed.h"
#include "storage/tools/corpus_text.h"

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser: a well-spread hash of an integer
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

double unit(std::uint64_t h) {
  return static_cast<double>(h >> 11) / static_cast<double>(1ULL << 53);
}

// A Host header without its port: the host a feed's links are made under.
std::string host_without_port(std::string host) {
  if (const auto colon = host.rfind(':'); colon != std::string::npos) host.resize(colon);
  return host;
}

std::string http_date(std::int64_t unix) {
  return longread::format_http_date(longread::from_unix(unix));
}

std::string rfc3339(std::int64_t unix) {
  return longread::format_rfc3339(longread::from_unix(unix));
}

std::size_t count_words(const std::vector<std::string>& paragraphs) {
  std::size_t words = 0;
  for (const auto& p : paragraphs) words += static_cast<std::size_t>(std::count(p.begin(), p.end(), ' ')) + 1;
  return words;
}

enum class Fate { kUnchanged, kNewEntries, kError, kTooMany, kSlow };

struct Blog {
  std::uint64_t seed = 0;
  int entries = 0;                        // the feed's length
  int added = 0;                          // entries published after the first pass
  std::vector<std::int64_t> added_times;  // when each of those was published
  bool atom = false;
  int pass = 0;      // the pass `requests` counts
  int requests = 0;  // feed requests in that pass
  Fate fate = Fate::kUnchanged;
};

struct Stats {
  std::int64_t feed_requests = 0, distinct = 0, polled_twice = 0, other_requests = 0, bytes = 0;
  std::int64_t served_ahead = 0;  // bodies served from those rendered ahead
  std::map<int, std::int64_t> by_status;
};

class FeedWorld {
 public:
  FeedWorld(const std::vector<int>& entry_counts, std::uint64_t seed, std::chrono::seconds slow,
            std::int64_t start)
      : entry_counts_(entry_counts),
        seed_(seed),
        slow_(slow),
        model_(*longread::generate::parse_corpus_model(longread::generate::builtin_corpus_model())),
        text_(model_, seed),
        start_(start) {}

  std::chrono::seconds slow() const { return slow_; }
  int pass() const { return pass_; }
  const Stats& stats() const { return stats_; }
  void start_pass(int n) {
    pass_ = n;
    stats_ = {};
  }
  void count_other() { ++stats_.other_requests; }
  void count_answer(int status, std::size_t bytes) {
    ++stats_.by_status[status];
    stats_.bytes += static_cast<std::int64_t>(bytes);
  }

  // The blog at host + path, made on first sight; counts the request and settles its fate for this pass.
  Blog& request(const std::string& key) {
    auto [it, made] = blogs_.try_emplace(key);
    Blog& b = it->second;
    if (made) b = new_blog(key);
    ++stats_.feed_requests;
    if (b.pass != pass_) {
      b.pass = pass_;
      b.requests = 0;
      ++stats_.distinct;
      b.fate = Fate::kUnchanged;
      if (pass_ > 1) {
        const double u = unit(mix(b.seed ^ mix(static_cast<std::uint64_t>(pass_))));
        b.fate = u < 0.80    ? Fate::kUnchanged
                 : u < 0.95  ? Fate::kNewEntries
                 : u < 0.97  ? Fate::kError
                 : u < 0.985 ? Fate::kTooMany
                             : Fate::kSlow;
        if (b.fate == Fate::kNewEntries) {
          const int n = 1 + static_cast<int>(mix(b.seed + static_cast<std::uint64_t>(pass_)) % 3);
          for (int i = 0; i < n; ++i) b.added_times.push_back(std::time(nullptr) - 60 * (n - i));
          b.added += n;
        }
      }
    }
    if (++b.requests == 2) ++stats_.polled_twice;
    return b;
  }

  // A blog as first seen at `key` (its Host header and request target): what it is never changes.
  Blog new_blog(const std::string& key) const {
    Blog b;
    b.seed = mix(fnv1a(key) ^ seed_);
    b.entries = entry_counts_[mix(b.seed) % entry_counts_.size()];
    b.atom = unit(mix(b.seed + 1)) < 0.3;
    return b;
  }

  // Renders, before any crawler asks, the first-pass body of every feed URL of `urls` (http://host[:port]/
  // path), on `threads` threads, and keeps each compressed. The text model's draws were three quarters of
  // this server's CPU, on the two cores the crawlers and the database server share; a body served from
  // here is the very bytes body() would make for the same request (both are functions of the request's
  // Host header and target), so a URL whose request differs from the one worked out here only misses.
  void render_ahead(const std::vector<std::string>& urls, unsigned threads) {
    std::vector<std::vector<std::pair<std::string, std::string>>> parts(threads);
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        longread::generate::RealisticGenerator text(model_, seed_);
        for (std::size_t i = t; i < urls.size(); i += threads) {
          std::string_view url = urls[i];
          if (!url.starts_with("http://")) continue;
          url.remove_prefix(7);
          const std::size_t slash = std::min(url.find_first_of("/?"), url.size());
          const std::string host_header(url.substr(0, slash));
          std::string target(url.substr(slash));
          if (target.empty() || target.front() != '/') target.insert(0, "/");
          const std::string key = host_header + target;
          const std::string plain = body(host_without_port(host_header), target, new_blog(key), text);
          std::string packed(ZSTD_compressBound(plain.size()), '\0');
          const std::size_t n = ZSTD_compress(packed.data(), packed.size(), plain.data(), plain.size(), 1);
          if (ZSTD_isError(n)) continue;
          packed.resize(n);
          parts[t].emplace_back(key, std::move(packed));
        }
      });
    }
    for (auto& w : workers) w.join();
    for (auto& part : parts)
      for (auto& [key, packed] : part) ahead_.insert_or_assign(std::move(key), std::move(packed));
  }
  std::size_t rendered_ahead() const { return ahead_.size(); }

  // The body of the feed at `key` as body() would make it, from the first-pass bodies rendered ahead when
  // it has one; made here otherwise.
  std::string answer_body(const std::string& key, const std::string& host, const std::string& path,
                          const Blog& b) {
    if (b.added == 0) {
      if (auto it = ahead_.find(key); it != ahead_.end()) {
        const unsigned long long size = ZSTD_getFrameContentSize(it->second.data(), it->second.size());
        if (size != ZSTD_CONTENTSIZE_ERROR && size != ZSTD_CONTENTSIZE_UNKNOWN) {
          std::string out(static_cast<std::size_t>(size), '\0');
          const std::size_t n = ZSTD_decompress(out.data(), out.size(), it->second.data(), it->second.size());
          if (!ZSTD_isError(n) && n == out.size()) {
            ++stats_.served_ahead;
            return out;
          }
        }
      }
    }
    return body(host, path, b, text_);
  }

  std::string etag(const Blog& b) const { return fmt::format("\"{:x}-{}\"", b.seed & 0xffffffff, b.added); }
  std::int64_t modified(const Blog& b) const { return b.added == 0 ? start_ : b.added_times.back(); }

  // The feed's body: its `entries` newest entries, newest first.
  std::string body(const std::string& host, const std::string& path, const Blog& b,
                   longread::generate::RealisticGenerator& text) const {
    const std::string site = "http://" + host;
    std::string out;
    out.reserve(static_cast<std::size_t>(b.entries) * 6000);
    const std::string title = fmt::format("{} blog", host);
    if (b.atom) {
      out += "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n";
      out += fmt::format("<title>{}</title>\n<link href=\"{}/\"/>\n<link rel=\"self\" href=\"{}{}\"/>\n",
                         longread::html_escape(title), site, site, longread::html_escape(path));
      out += fmt::format("<id>{}/</id>\n<updated>{}</updated>\n", site, rfc3339(modified(b)));
    } else {
      out +=
          "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<rss version=\"2.0\" "
          "xmlns:content=\"http://purl.org/rss/1.0/modules/content/\">\n<channel>\n";
      out += fmt::format("<title>{}</title>\n<link>{}/</link>\n<description>Notes</description>\n",
                         longread::html_escape(title), site);
    }
    const int newest = b.added + b.entries - 1;
    const std::int64_t gap = 86'400 * (2 + static_cast<std::int64_t>(mix(b.seed + 7) % 20));
    for (int serial = newest; serial > newest - b.entries; --serial) {
      // The first pass's entries reach back from the start by the blog's posting gap; later ones are new.
      const std::int64_t published = serial >= b.entries
                                         ? b.added_times[static_cast<std::size_t>(serial - b.entries)]
                                         : start_ - 3600 - gap * (b.entries - 1 - serial);
      text.reseed(mix(b.seed ^ mix(static_cast<std::uint64_t>(serial) + 99)));
      text.new_topic();
      const std::string entry_title = text.title();
      // The model was learnt from entries of 150 words or more (shorter ones are summaries), but its
      // histograms drawn apart can still make a shorter post, which a crawler takes for a summary and
      // fetches the page of: an entry gets paragraphs until it is an article.
      auto paragraphs = text.paragraphs();
      while (paragraphs.size() < 2 || count_words(paragraphs) < 160) {
        auto more = text.paragraphs();
        paragraphs.insert(paragraphs.end(), more.begin(), more.end());
      }
      std::string content;
      for (const auto& p : paragraphs) content += "<p>" + p + "</p>\n";
      const std::string summary = "<p>" + paragraphs.front() + "</p>";
      const std::string link = fmt::format("{}/posts/{}/", site, serial);
      if (b.atom) {
        out += fmt::format(
            "<entry>\n<title>{}</title>\n<link href=\"{}\"/>\n<id>{}</id>\n<published>{}</published>\n"
            "<updated>{}</updated>\n<summary type=\"html\">{}</summary>\n<content "
            "type=\"html\">{}</content>\n"
            "</entry>\n",
            longread::html_escape(entry_title), link, link, rfc3339(published), rfc3339(published),
            longread::html_escape(summary), longread::html_escape(content));
      } else {
        out += fmt::format(
            "<item>\n<title>{}</title>\n<link>{}</link>\n<guid>{}</guid>\n<pubDate>{}</pubDate>\n"
            "<description>{}</description>\n<content:encoded><![CDATA[{}]]></content:encoded>\n</item>\n",
            longread::html_escape(entry_title), link, link, http_date(published),
            longread::html_escape(summary), content);
      }
    }
    out += b.atom ? "</feed>\n" : "</channel>\n</rss>\n";
    return out;
  }

  std::string stats_json() const {
    std::string statuses;
    for (const auto& [status, n] : stats_.by_status)
      statuses += fmt::format("{}\"{}\": {}", statuses.empty() ? "" : ", ", status, n);
    return fmt::format(
        "{{\"pass\": {}, \"feed_requests\": {}, \"distinct_feeds\": {}, \"polled_twice\": {}, "
        "\"other_requests\": {}, \"bytes\": {}, \"served_ahead\": {}, \"by_status\": {{{}}}}}\n",
        pass_, stats_.feed_requests, stats_.distinct, stats_.polled_twice, stats_.other_requests,
        stats_.bytes, stats_.served_ahead, statuses);
  }

 private:
  std::vector<int> entry_counts_;
  std::uint64_t seed_;
  std::chrono::seconds slow_;
  longread::generate::CorpusModel model_;
  longread::generate::RealisticGenerator text_;
  std::int64_t start_;
  int pass_ = 1;
  Stats stats_;
  std::unordered_map<std::string, Blog> blogs_;
  std::unordered_map<std::string, std::string> ahead_;  // request key -> zstd frame of its first-pass body
};

using Response = http::response<http::string_body>;

net::awaitable<Response> answer(FeedWorld& world, const http::request<http::string_body>& request) {
  Response res{http::status::ok, request.version()};
  res.set(http::field::server, "longread-bench-feeds");
  const std::string target(request.target());
  if (target.starts_with("/__bench/")) {
    if (target.starts_with("/__bench/pass?n=")) world.start_pass(std::max(1, std::atoi(target.c_str() + 16)));
    res.set(http::field::content_type, "application/json");
    res.body() = world.stats_json();
    co_return res;
  }
  // A blog is its Host header as sent, port included: two URLs of the list that differ only by an explicit
  // port are two feeds (and were counted as one feed polled twice when the port was dropped here).
  const std::string host_header(request[http::field::host]);
  const std::string host = host_without_port(host_header);
  if (target.starts_with("/posts/")) {  // an article page: every entry carries its content, so unexpected
    world.count_other();
    res.result(http::status::not_found);
    co_return res;
  }
  Blog& blog = world.request(host_header + target);
  switch (blog.fate) {
    case Fate::kError:
      res.result(http::status::internal_server_error);
      co_return res;
    case Fate::kTooMany:
      res.result(http::status::too_many_requests);
      res.set(http::field::retry_after, "3600");
      co_return res;
    case Fate::kSlow: {
      net::steady_timer timer(co_await net::this_coro::executor, world.slow());
      co_await timer.async_wait(net::use_awaitable);
      res.result(http::status::service_unavailable);
      co_return res;
    }
    case Fate::kUnchanged:
    case Fate::kNewEntries:
      break;
  }
  const std::string etag = world.etag(blog);
  res.set(http::field::etag, etag);
  res.set(http::field::last_modified, http_date(world.modified(blog)));
  if (request[http::field::if_none_match] == etag) {
    res.result(http::status::not_modified);
    co_return res;
  }
  res.set(http::field::content_type, blog.atom ? "application/atom+xml" : "application/rss+xml");
  res.body() = world.answer_body(host_header + target, host, target, blog);
  co_return res;
}

net::awaitable<void> session(FeedWorld& world, tcp::socket socket) {
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer;
  for (;;) {
    http::request<http::string_body> request;
    beast::error_code ec;
    stream.expires_after(std::chrono::seconds(60));
    co_await http::async_read(stream, buffer, request, net::redirect_error(net::use_awaitable, ec));
    if (ec) break;
    Response res = co_await answer(world, request);
    res.keep_alive(request.keep_alive());
    res.prepare_payload();
    world.count_answer(static_cast<int>(res.result_int()), res.body().size());
    co_await http::async_write(stream, res, net::redirect_error(net::use_awaitable, ec));
    if (ec || !res.keep_alive()) break;
  }
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

net::awaitable<void> listen(FeedWorld& world, tcp::acceptor& acceptor) {
  for (;;) {
    beast::error_code ec;
    tcp::socket socket = co_await acceptor.async_accept(net::redirect_error(net::use_awaitable, ec));
    if (ec) continue;  // out of descriptors for a moment: the client retries
    net::co_spawn(acceptor.get_executor(), session(world, std::move(socket)), net::detached);
  }
}

// Entries per feed of the corpus's blog feeds (2 to 100 entries).
std::vector<int> corpus_entry_counts(const std::filesystem::path& dir) {
  std::vector<int> counts;
  for (const auto& text : longread::bench::read_feed_files(dir).contents) {
    auto feed = longread::feed::parse_feed(text);
    if (!feed) continue;
    const auto n = static_cast<int>(feed->entries.size());
    if (n >= 2 && n <= 100) counts.push_back(n);
  }
  return counts;
}

}  // namespace

int main(int argc, char** argv) {
  std::string corpus;
  unsigned short port = 0;
  std::uint64_t seed = 1;
  int slow_seconds = 5;
  std::string ahead;
  std::int64_t start = std::time(nullptr);
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (flag == "--corpus")
      corpus = argv[i + 1];
    else if (flag == "--port")
      port = static_cast<unsigned short>(std::atoi(argv[i + 1]));
    else if (flag == "--seed")
      seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--slow-seconds")
      slow_seconds = std::atoi(argv[i + 1]);
    else if (flag == "--start")
      start = std::strtoll(argv[i + 1], nullptr, 10);
    else if (flag == "--ahead")
      ahead = argv[i + 1];
  }
  if (corpus.empty() || !std::filesystem::is_directory(corpus)) {
    fmt::print(stderr,
               "usage: feed_server --corpus DIR/real-feeds [--port N] [--seed N] [--slow-seconds N] [--ahead "
               "FILE]\n");
    return 2;
  }
  const auto counts = corpus_entry_counts(corpus);
  if (counts.empty()) {
    fmt::print(stderr, "feed_server: no feeds of 2 to 100 entries under {}\n", corpus);
    return 1;
  }
  double mean = 0;
  for (const int n : counts) mean += n;
  mean /= static_cast<double>(counts.size());
  FeedWorld world(counts, seed, std::chrono::seconds(slow_seconds), start);
  if (!ahead.empty()) {
    std::ifstream in(ahead);
    if (!in) {
      fmt::print(stderr, "feed_server: cannot read {}\n", ahead);
      return 1;
    }
    std::vector<std::string> urls;
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) urls.push_back(line);
    const auto started = std::chrono::steady_clock::now();
    world.render_ahead(urls, std::max(1U, std::thread::hardware_concurrency()));
    fmt::print("feed_server: {} of {} feeds rendered ahead in {:.1f} s\n", world.rendered_ahead(),
               urls.size(),
               std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  }
  net::io_context io(1);
  tcp::acceptor acceptor(io, {net::ip::make_address("127.0.0.1"), port});
  acceptor.listen(4096);
  fmt::print("feed_server: {} corpus feeds, {:.1f} entries per feed on average\n", counts.size(), mean);
  fmt::print("listening on 127.0.0.1:{}\n", acceptor.local_endpoint().port());
  std::fflush(stdout);
  net::co_spawn(io, listen(world, acceptor), net::detached);
  io.run();
  return 0;
}
