#!/usr/bin/env python3
"""How long "/password/forgot" takes for a registered address and for an unknown one (docs/readers.md,
"Password reset timing").

    bench/forgot/run.py [--binary build/src/app/longread] [--accounts 300] [--rounds 3]

Starts `longread serve` on a fresh database in a temporary directory, with the test SMTP server
(tests/smtp/smtp_server.py, python3-aiosmtpd) as its mail server, signs up --accounts addresses, then posts
the forgot form for each registered address and for as many unknown ones, alternating, each from its own
loopback client address (127.0.x.y) so that no rate limit answers instead. Only the POST is timed, on a
kept-alive connection. Prints median, mean and 90th percentile per kind, and the difference of the medians,
for each round (a round uses fresh addresses on both sides, so every registered one is mailed).
"""
import argparse
import http.client
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def client_address(n):
    return "127.0.%d.%d" % (1 + n // 250, 1 + n % 250)


class Browser:
    """One client address, a cookie and a CSRF token, on one kept-alive connection."""

    def __init__(self, port, source):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
        self.cookie = ""

    def form(self, path):
        self.conn.request("GET", path)
        res = self.conn.getresponse()
        body = res.read().decode()
        for name, value in res.getheaders():
            if name.lower() == "set-cookie" and value.startswith("lr_csrf="):
                self.cookie = value.split(";")[0]
        return re.search(r'name="csrf" value="([^"]+)"', body).group(1)

    def post(self, path, fields):
        body = urllib.parse.urlencode(fields)
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": self.cookie}
        start = time.perf_counter()
        self.conn.request("POST", path, body, headers)
        res = self.conn.getresponse()
        res.read()
        return res.status, time.perf_counter() - start


def summary(samples):
    ordered = sorted(samples)
    return (statistics.median(ordered) * 1e6, statistics.mean(ordered) * 1e6,
            ordered[int(len(ordered) * 0.9)] * 1e6)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, "build/src/app/longread"))
    parser.add_argument("--accounts", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="longread-forgot-bench-")
    smtp_port, port = free_port(), free_port()
    smtp = subprocess.Popen(["/usr/bin/python3", os.path.join(ROOT, "tests/smtp/smtp_server.py"), "--port",
                             str(smtp_port), "--maildir", os.path.join(work, "mail")],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    smtp.stdout.readline()  # the script prints its port once it listens
    with open(os.path.join(work, "blogs.opml"), "w") as f:
        f.write('<?xml version="1.0"?><opml version="2.0"><head><title>none</title></head><body/></opml>')
    env = dict(os.environ, LONGREAD_DB=os.path.join(work, "longread.db"),
               LONGREAD_DEFAULT_BLOG_LIST=os.path.join(work, "blogs.opml"),
               LONGREAD_SITE_LISTEN="127.0.0.1:%d" % port, LONGREAD_SITE_BASE_URL="http://127.0.0.1:%d" % port,
               LONGREAD_SITE_CRAWL_IN_BACKGROUND="false", LONGREAD_NEWSLETTER_ENABLED="false",
               LONGREAD_SMTP_URL="smtp://127.0.0.1:%d" % smtp_port, LONGREAD_LOG_LEVEL="warn")
    serve = subprocess.Popen([args.binary, "serve"], env=env, stdout=subprocess.DEVNULL,
                             stderr=open(os.path.join(work, "serve.log"), "w"))
    try:
        for _ in range(600):
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        client = 0
        print("binary %s, %d registered and %d unknown addresses per round" %
              (args.binary, args.accounts, args.accounts))
        for round_number in range(args.rounds):
            registered = ["r%d-%d@example.org" % (round_number, i) for i in range(args.accounts)]
            unknown = ["u%d-%d@example.org" % (round_number, i) for i in range(args.accounts)]
            for i in range(0, len(registered), 5):  # sign-ups: 10 per client per hour
                b = Browser(port, client_address(client))
                client += 1
                for email in registered[i:i + 5]:
                    status, _ = b.post("/signup", {"csrf": b.form("/signup"), "email": email,
                                                   "password": "a long passphrase"})
                    assert status == 200, status
            times = {"registered": [], "unknown": []}
            for i in range(0, args.accounts, 4):  # 8 requests per client: under 10 per client per hour
                b = Browser(port, client_address(client))
                client += 1
                token = b.form("/password/forgot")
                for j in range(i, min(i + 4, args.accounts)):
                    for kind, email in (("registered", registered[j]), ("unknown", unknown[j])):
                        status, took = b.post("/password/forgot", {"csrf": token, "email": email})
                        assert status == 200, (status, email)
                        times[kind].append(took)
            r, u = summary(times["registered"]), summary(times["unknown"])
            print("round %d: registered median %.0f us, mean %.0f us, p90 %.0f us | unknown median %.0f us, "
                  "mean %.0f us, p90 %.0f us | median difference %+.0f us" %
                  (round_number + 1, *r, *u, r[0] - u[0]))
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.wait(timeout=60)
        smtp.send_signal(signal.SIGTERM)
        smtp.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
