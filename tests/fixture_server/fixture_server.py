#!/usr/bin/env python3
"""A real HTTP/1.1 server for longread's tests (stdlib only).

Usage: fixture_server.py ROOT_DIR [--host 127.0.0.1] [--port 0] [--tls-cert C --tls-key K] [--exit-on-stdin-eof]

Prints "listening on PORT" on stdout once it accepts connections. Exits on SIGTERM, and with
--exit-on-stdin-eof also when its stdin closes (so it never outlives the test process that started it).

Routes (paths compose: /redirect-permanent/gzip/feed.xml redirects to /gzip/feed.xml):
  /<path>                        a file under ROOT_DIR, with a strong ETag and Last-Modified;
                                 If-None-Match / If-Modified-Since answered with 304 (RFC 9110 13.1)
  /last-modified-only/<path>     the file with Last-Modified but no ETag
  /no-validators/<path>          the file with neither
  /redirect-permanent/<path>     301 to /<path>
  /redirect-temp/<path>          302 to /<path>
  /redirect/<code>/<path>        <code> (301, 302, 303, 307, 308) to /<path>
  /redirect-to?url=<url>[&code=<code>]  302 (or <code>: 301, 307, 308) to any URL (e.g. file:///etc/passwd,
                                 or another host)
  /status/<code>                 that status with a short text body; ?retry_after=<value> adds Retry-After
  /slow/<seconds>/<path>         sleeps, then serves /<path>
  /trickle/<seconds>/<path>      sends headers, then the body of /<path> spread over <seconds>
  /big/<bytes>                   that many bytes of well-formed RSS, chunked (no Content-Length);
                                 ?length=1 sends Content-Length instead
  /<path>?header=Name:%20value    any file route with that extra response header, on its 200 and its 304
                                 (repeatable; e.g. Cache-Control or Expires for freshness tests)
  /gzip/<path>                   /<path> with Content-Encoding: gzip
  /deflate/<path>                /<path> with Content-Encoding: deflate
  /html                          a small HTML article page
  /_requests                     JSON list of requests seen: method, path, host, if_none_match,
                                 if_modified_since, user_agent, accept_encoding, finished, completed,
                                 bytes_sent (completed is false when the client hung up early)
  /_stats                        JSON: max_in_flight overall, by Host header and by first path segment
  /_reset                        clears the request log and the stats
The /_ routes are not logged.
"""

import argparse
import email.utils
import gzip
import hashlib
import json
import os
import posixpath
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CONTENT_TYPES = {
    ".xml": "application/xml",
    ".rss": "application/rss+xml",
    ".atom": "application/atom+xml",
    ".json": "application/feed+json",
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}

HTML_PAGE = b"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>A fixture article</title></head>
<body><nav><a href="/">Home</a></nav>
<article><h1>A fixture article</h1>
<p>This page is served by longread's fixture server so that tests can fetch a real article page.</p>
<p>It has a few paragraphs of text, a <a href="/feed.xml">link to the feed</a> and nothing else.</p>
</article><footer>fixture</footer></body></html>
"""


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = []
        self.in_flight = 0
        self.in_flight_by_host = {}
        self.in_flight_by_prefix = {}
        self.max_in_flight = 0
        self.max_by_host = {}
        self.max_by_prefix = {}

    def reset(self):
        with self.lock:
            self.requests = []
            self.max_in_flight = self.in_flight
            self.max_by_host = {k: v for k, v in self.in_flight_by_host.items() if v > 0}
            self.max_by_prefix = {k: v for k, v in self.in_flight_by_prefix.items() if v > 0}

    def enter(self, host, prefix):
        with self.lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            for counts, maxima, key in ((self.in_flight_by_host, self.max_by_host, host),
                                        (self.in_flight_by_prefix, self.max_by_prefix, prefix)):
                counts[key] = counts.get(key, 0) + 1
                maxima[key] = max(maxima.get(key, 0), counts[key])

    def leave(self, host, prefix):
        with self.lock:
            self.in_flight -= 1
            self.in_flight_by_host[host] -= 1
            self.in_flight_by_prefix[prefix] -= 1


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, chunked encoding
    # Headers and body go out in separate writes; with Nagle on, the body would wait ~40 ms for the
    # client's delayed ACK of the headers.
    disable_nagle_algorithm = True
    server_version = "longread-fixture/1"

    def log_message(self, format, *args):  # quiet: tests read /_requests instead
        pass

    # --- plumbing -------------------------------------------------------------------------------

    def do_HEAD(self):
        self.head_only = True
        self.handle_any()

    def do_GET(self):
        self.head_only = False
        self.handle_any()

    def handle_any(self):
        state = self.server.state
        parsed = urllib.parse.urlsplit(self.path)
        path = parsed.path
        query = urllib.parse.parse_qs(parsed.query)
        self.entry = None  # the handler object lives as long as the keep-alive connection
        self.extra_headers = [tuple(part.strip() for part in h.split(":", 1))
                              for h in query.get("header", []) if ":" in h]
        if path.startswith("/_"):
            return self.control(path)
        entry = {
            "method": self.command,
            "path": self.path,
            "host": self.headers.get("Host", ""),
            "if_none_match": self.headers.get("If-None-Match"),
            "if_modified_since": self.headers.get("If-Modified-Since"),
            "user_agent": self.headers.get("User-Agent"),
            "accept_encoding": self.headers.get("Accept-Encoding"),
            "finished": False,
            "completed": False,
            "bytes_sent": 0,
        }
        with state.lock:
            state.requests.append(entry)
        self.entry = entry
        host = entry["host"]
        segments = [s for s in path.split("/") if s]
        prefix = segments[0] if segments else ""
        state.enter(host, prefix)
        try:
            self.route(path, query)
            entry["completed"] = True
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, OSError):
            self.close_connection = True
        finally:
            state.leave(host, prefix)
            entry["finished"] = True

    def control(self, path):
        state = self.server.state
        if path == "/_requests":
            with state.lock:
                body = json.dumps(state.requests)
        elif path == "/_stats":
            with state.lock:
                body = json.dumps({"max_in_flight": state.max_in_flight,
                                   "max_in_flight_by_host": state.max_by_host,
                                   "max_in_flight_by_prefix": state.max_by_prefix})
        elif path == "/_reset":
            state.reset()
            body = "{}"
        else:
            return self.send_simple(404, "no such control route\n")
        self.send_bytes(200, body.encode(), "application/json")

    def write(self, data):
        if not self.head_only:
            self.wfile.write(data)
            if self.entry is not None:
                self.entry["bytes_sent"] += len(data)

    def send_bytes(self, status, body, content_type, extra=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.write(body)

    def send_simple(self, status, text, extra=None):
        self.send_bytes(status, text.encode(), "text/plain; charset=utf-8", extra)

    # --- routes ---------------------------------------------------------------------------------

    def route(self, path, query, encoding=None, validators="both"):
        segments = path.split("/")  # ["", "first", ...]
        first = segments[1] if len(segments) > 1 else ""
        rest = "/" + "/".join(segments[2:])
        if first == "redirect-permanent":
            return self.redirect(301, rest)
        if first == "redirect-temp":
            return self.redirect(302, rest)
        if first == "redirect" and len(segments) > 3:
            return self.redirect(int(segments[2]), "/" + "/".join(segments[3:]))
        if first == "redirect-to":
            return self.redirect(int(query.get("code", ["302"])[0]), query.get("url", ["/"])[0])
        if first == "status" and len(segments) > 2:
            code = int(segments[2])
            extra = {}
            if "retry_after" in query:
                extra["Retry-After"] = query["retry_after"][0]
            if code == 304 or code < 200:
                self.send_response(code)
                for name, value in extra.items():
                    self.send_header(name, value)
                self.end_headers()
                return
            return self.send_simple(code, "status %d\n" % code, extra)
        if first == "slow" and len(segments) > 3:
            time.sleep(float(segments[2]))
            return self.route("/" + "/".join(segments[3:]), query, encoding, validators)
        if first == "trickle" and len(segments) > 3:
            return self.serve_file("/" + "/".join(segments[3:]), encoding, validators,
                                   trickle=float(segments[2]))
        if first == "big" and len(segments) > 2:
            return self.big(int(segments[2]), query.get("length", ["0"])[0] == "1")
        if first in ("gzip", "deflate"):
            return self.route(rest, query, first, validators)
        if first in ("last-modified-only", "no-validators"):
            return self.route(rest, query, encoding, "lm" if first == "last-modified-only" else "none")
        if path == "/html":
            return self.send_bytes(200, self.encode(HTML_PAGE, encoding), "text/html; charset=utf-8",
                                   self.encoding_header(encoding))
        return self.serve_file(path, encoding, validators)

    def redirect(self, code, location):
        self.send_response(code)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    @staticmethod
    def encode(body, encoding):
        if encoding == "gzip":
            return gzip.compress(body)
        if encoding == "deflate":
            return zlib.compress(body)
        return body

    @staticmethod
    def encoding_header(encoding):
        return {"Content-Encoding": encoding, "Vary": "Accept-Encoding"} if encoding else {}

    def serve_file(self, path, encoding, validators, trickle=0.0):
        root = self.server.root
        relative = posixpath.normpath(urllib.parse.unquote(path)).lstrip("/")
        full = os.path.realpath(os.path.join(root, relative))
        if not (full == root or full.startswith(root + os.sep)) or not os.path.isfile(full):
            return self.send_simple(404, "not found\n")
        with open(full, "rb") as f:
            body = f.read()
        mtime = int(os.stat(full).st_mtime)
        etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
        last_modified = email.utils.formatdate(mtime, usegmt=True)
        headers = {}
        if validators == "both":
            headers["ETag"] = etag
        if validators in ("both", "lm"):
            headers["Last-Modified"] = last_modified
        headers.update(self.encoding_header(encoding))
        if self.not_modified(etag if validators == "both" else None,
                             mtime if validators in ("both", "lm") else None):
            self.send_response(304)
            for name, value in headers.items():
                if name in ("ETag", "Last-Modified"):
                    self.send_header(name, value)
            for name, value in self.extra_headers:  # RFC 9110 15.4.5: Cache-Control, Expires repeated
                self.send_header(name, value)
            self.end_headers()
            return
        content_type = CONTENT_TYPES.get(os.path.splitext(full)[1].lower(), "application/octet-stream")
        body = self.encode(body, encoding)
        for name, value in self.extra_headers:
            headers[name] = value
        if trickle <= 0:
            return self.send_bytes(200, body, content_type, headers)
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        pieces = 10
        step = max(1, (len(body) + pieces - 1) // pieces)
        for i in range(0, len(body), step):
            time.sleep(trickle / pieces)
            self.write(body[i:i + step])
            self.wfile.flush()

    def not_modified(self, etag, mtime):
        # RFC 9110 13.2.2: If-None-Match is evaluated first; If-Modified-Since only when it is absent.
        inm = self.headers.get("If-None-Match")
        if inm is not None:
            if etag is None:
                return False
            tags = [t.strip() for t in inm.split(",")]
            weak = lambda t: t[2:] if t.startswith("W/") else t  # weak comparison (RFC 9110 8.8.3.2)
            return "*" in tags or any(weak(t) == weak(etag) for t in tags)
        ims = self.headers.get("If-Modified-Since")
        if ims is not None and mtime is not None:
            try:
                since = email.utils.parsedate_to_datetime(ims).timestamp()
            except (TypeError, ValueError):
                return False
            return mtime <= since
        return False

    def big(self, size, with_length):
        head = (b'<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel>'
                b"<title>big</title><link>http://example.com/</link><description>")
        tail = b"</description></channel></rss>\n"
        filler_size = max(0, size - len(head) - len(tail))
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        if with_length:
            self.send_header("Content-Length", str(len(head) + filler_size + len(tail)))
        else:
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def send(chunk):
            if with_length:
                self.write(chunk)
            else:
                self.write(b"%x\r\n" % len(chunk) + chunk + b"\r\n")

        send(head)
        block = (b"lorem ipsum dolor sit amet " * 2500)[:65536]
        left = filler_size
        while left > 0:
            piece = block[:min(left, len(block))]
            send(piece)
            left -= len(piece)
        send(tail)
        if not with_length:
            self.write(b"0\r\n\r\n")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def handle_error(self, request, client_address):
        # A client that rejects our self-signed certificate, or hangs up, is a scenario under test.
        if isinstance(sys.exc_info()[1], OSError):
            return
        super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--tls-cert", help="serve HTTPS with this PEM certificate (and --tls-key)")
    parser.add_argument("--tls-key", help="PEM private key for --tls-cert")
    parser.add_argument("--exit-on-stdin-eof", action="store_true",
                        help="exit when stdin closes (the C++ test helper passes this)")
    args = parser.parse_args()

    if ":" in args.host:
        import socket
        Server.address_family = socket.AF_INET6
    server = Server((args.host, args.port), Handler)
    if args.tls_cert:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        # The handshake runs in the handler thread, so a client that gives up does not block accept().
        server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    server.root = os.path.realpath(args.root)
    server.state = State()

    def watch_stdin():
        # The parent holds our stdin open; when it exits (even by a crash) we go too.
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except OSError:
            pass
        os._exit(0)

    if args.exit_on_stdin_eof:
        threading.Thread(target=watch_stdin, daemon=True).start()
    print("listening on %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
