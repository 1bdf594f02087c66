#!/usr/bin/python3
"""A real feed app against the Google Reader API: Debian's newsboat, as its "feedhq" source.

Starts longread-testsite (seeded fixtures) on 127.0.0.1, signs a reader up and makes an app password
through the site's own forms, checks the API's answers against the shapes Google Reader clients read, then:
  1. `newsboat -x reload` with the app password: every article newsboat stored is a visible article of the
     site, as many as the site has (newest 50 per blog), all unread;
  2. newsboat driven through a terminal (a pty), as a person would: open the first feed, open its first
     article (newsboat marks it read and tells the server), go back and flag it "s" (starred): the site's
     database then has the article read, and on the reader's reading list.
Exit 77 (skipped) only when newsboat is not installed; the message says so.
"""
import http.cookiejar
import json
import os
import pty
import re
import select
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import termios
import fcntl
import time
import urllib.error
import urllib.parse
import urllib.request

ITEM_PREFIX = "tag:google.com,2005:reader/item/"


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


class Site:
    def __init__(self, binary, work):
        self.db = os.path.join(work, "site.db")
        self.proc = subprocess.Popen([binary, "--db", self.db, "--seed", "--quiet", "--threads", "2"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.base = None
        deadline = time.time() + 30
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.match(r"listening (http://127\.0\.0\.1:\d+)", line)
            if m:
                self.base = m.group(1)
                break
        if not self.base:
            self.proc.kill()
            fail("longread-testsite did not start: " + self.proc.stderr.read())
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar),
                                                  NoRedirect())

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def request(self, method, path, form=None, headers=None):
        data = urllib.parse.urlencode(form, doseq=True).encode() if form is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers or {})
        try:
            with self.opener.open(req, timeout=20) as res:
                return res.status, res.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def csrf(page):
    m = re.search(r'name="csrf" value="([^"]*)"', page)
    check(m, "no CSRF token on the page")
    return m.group(1)


def api_shapes(site, email, app_password, account_password):
    """The API's answers, checked against what Google Reader clients read."""
    status, body = site.request("POST", "/accounts/ClientLogin", {"Email": email, "Passwd": account_password})
    check(status == 401 and "BadAuthentication" in body, "the account password logged an app in")
    status, body = site.request("POST", "/accounts/ClientLogin", {"Email": email, "Passwd": app_password})
    check(status == 200, "ClientLogin failed: %d %s" % (status, body))
    auth = dict(line.split("=", 1) for line in body.strip().splitlines())
    check(auth.get("Auth"), "ClientLogin gave no Auth line")
    headers = {"Authorization": "GoogleLogin auth=" + auth["Auth"]}
    status, _ = site.request("GET", "/reader/api/0/subscription/list?output=json")
    check(status == 401, "the API answered without a token")

    status, body = site.request("GET", "/reader/api/0/subscription/list?output=json", headers=headers)
    check(status == 200, "subscription/list: %d" % status)
    subs = json.loads(body)["subscriptions"]
    check(len(subs) >= 3, "too few subscriptions")
    for s in subs:
        check(re.fullmatch(r"feed/\d+", s["id"]), "subscription id " + s["id"])
        check(isinstance(s["title"], str) and s["url"] and "htmlUrl" in s, "subscription fields")
        check(all(c["id"].startswith("user/-/label/") and c["label"] for c in s["categories"]), "labels")

    status, body = site.request("GET", "/reader/api/0/stream/contents/user/-/state/com.google/reading-list?n=5",
                                headers=headers)
    check(status == 200, "stream/contents: %d" % status)
    stream = json.loads(body)
    check(len(stream["items"]) == 5 and stream.get("continuation"), "stream/contents page")
    for item in stream["items"]:
        check(re.fullmatch(re.escape(ITEM_PREFIX) + r"[0-9a-f]{16}", item["id"]), "item id " + item["id"])
        check(item["alternate"][0]["href"] and item["origin"]["streamId"].startswith("feed/"), "item links")
        check("user/-/state/com.google/reading-list" in item["categories"], "item categories")
        check(int(item["timestampUsec"]) > 0 and isinstance(item["published"], int), "item times")
    status, body = site.request("GET", "/reader/api/0/stream/items/ids?s=user/-/state/com.google/reading-list"
                                "&xt=user/-/state/com.google/read&n=3", headers=headers)
    check(status == 200, "stream/items/ids: %d" % status)
    refs = json.loads(body)["itemRefs"]
    check(len(refs) == 3 and all(re.fullmatch(r"\d+", r["id"]) for r in refs), "itemRefs")
    status, token = site.request("GET", "/reader/api/0/token", headers=headers)
    check(status == 200 and token, "token")
    status, _ = site.request("POST", "/reader/api/0/edit-tag",
                             {"i": refs[0]["id"], "a": "user/-/state/com.google/read", "T": "forged"}, headers)
    check(status == 401, "edit-tag took a forged edit token")


def visible_articles(db):
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT id, blog_id FROM articles WHERE visible = 1").fetchall()
    finally:
        con.close()
    return rows


class Terminal:
    """newsboat on a pseudo-terminal, 40 rows by 120 columns."""

    def __init__(self, argv, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execvpe(argv[0], argv, env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        self.screen = b""

    def read_for(self, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                try:
                    self.screen += os.read(self.fd, 65536)
                except OSError:
                    return

    def wait_for(self, pattern, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            self.read_for(0.2)
            if re.search(pattern, self.screen):
                return True
        return False

    def send(self, keys, settle=1.5):
        os.write(self.fd, keys)
        self.read_for(settle)

    def close(self):
        deadline = time.time() + 15
        while time.time() < deadline:
            pid, _ = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return
            self.read_for(0.2)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)


def main():
    newsboat = shutil.which("newsboat")
    if not newsboat:
        print("skipped: newsboat is not installed (scripts/install-deps.sh installs it)")
        sys.exit(77)
    testsite = os.environ.get("LONGREAD_TESTSITE")
    check(testsite and os.path.exists(testsite), "set LONGREAD_TESTSITE to the longread-testsite binary")
    work = tempfile.mkdtemp(prefix="longread-newsboat-")
    site = Site(testsite, work)
    try:
        email, password = "newsboat@example.org", "a long passphrase"
        status, page = site.request("GET", "/signup")
        status, _ = site.request("POST", "/signup", {"csrf": csrf(page), "email": email, "password": password})
        check(status == 303, "sign-up failed: %d" % status)
        status, page = site.request("GET", "/account")
        check(status == 200 and "Feed apps" in page, "no feed apps section on the account page")
        status, page = site.request("POST", "/account/app-passwords", {"csrf": csrf(page), "name": "newsboat"})
        m = re.search(r'<code class="app-password">([^<]+)</code>', page)
        check(status == 200 and m, "no app password shown: %d" % status)
        app_password = m.group(1)
        api_shapes(site, email, app_password, password)

        home = os.path.join(work, "home")
        os.makedirs(home)
        config = os.path.join(work, "config")
        cache = os.path.join(work, "cache.db")
        urls = os.path.join(work, "urls")
        open(urls, "w").close()
        with open(config, "w") as f:
            f.write('urls-source "feedhq"\n')
            # newsboat appends "/accounts/ClientLogin" and the like: no trailing slash.
            f.write('feedhq-url "%s"\n' % site.base)
            f.write('feedhq-login "%s"\n' % email)
            f.write('feedhq-password "%s"\n' % app_password)
            f.write("feedhq-show-special-feeds no\n")
            f.write('feedhq-flag-star "s"\n')
            f.write("feedhq-min-items 50\n")
            f.write("confirm-exit no\n")
        env = dict(os.environ, HOME=home, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        argv = [newsboat, "-C", config, "-c", cache, "-u", urls]
        result = subprocess.run(argv + ["-x", "reload"], env=env, capture_output=True, text=True, timeout=120)
        check(result.returncode == 0, "newsboat -x reload failed: " + result.stdout + result.stderr)

        # 1. The articles arrived: each one a visible article of the site, as many as it has.
        articles = visible_articles(site.db)
        per_blog = {}
        for article_id, blog_id in articles:
            per_blog[blog_id] = per_blog.get(blog_id, 0) + 1
        expected = sum(min(50, n) for n in per_blog.values())
        con = sqlite3.connect(cache)
        items = con.execute("SELECT guid, unread, title FROM rss_item").fetchall()
        con.close()
        ids = set(a for a, _ in articles)
        check(len(items) == expected, "newsboat stored %d articles, the site has %d" % (len(items), expected))
        for guid, unread, title in items:
            check(guid.startswith(ITEM_PREFIX), "newsboat item id " + guid)
            check(int(guid[len(ITEM_PREFIX):], 16) in ids, "an item that is not a visible article: " + title)
            check(unread == 1, "an article arrived read: " + title)

        # 2. Read one and star it, as a person at the keyboard would.
        term = Terminal(argv, env)
        check(term.wait_for(rb"newsboat", 20), "newsboat did not draw its feed list")
        term.read_for(1.0)
        term.send(b"\r")        # open the first feed
        term.send(b"\r")        # open its first article: newsboat marks it read, on the server too
        term.send(b"q")         # back to the article list
        term.send(b"\x05", 1)   # ctrl-e: edit the article's flags
        term.send(b"s\r")       # "s", which feedhq-flag-star maps to starred
        term.send(b"Q")
        term.close()

        con = sqlite3.connect(cache)
        read = con.execute("SELECT guid, flags FROM rss_item WHERE unread = 0").fetchall()
        con.close()
        check(len(read) == 1, "newsboat should have one article read, has %d" % len(read))
        guid, flags = read[0]
        check("s" in (flags or ""), "newsboat did not flag the article starred: %r" % flags)
        article = int(guid[len(ITEM_PREFIX):], 16)
        con = sqlite3.connect(site.db)
        reads = con.execute("SELECT is_read FROM article_reads a JOIN readers r ON r.id = a.reader_id "
                            "WHERE r.email = ? AND a.article_id = ?", (email, article)).fetchall()
        saved = con.execute("SELECT 1 FROM reading_list l JOIN readers r ON r.id = l.reader_id "
                            "WHERE r.email = ? AND l.article_id = ?", (email, article)).fetchall()
        con.close()
        check(reads == [(1,)], "marking the article read in newsboat did not reach the site: %r" % reads)
        check(saved == [(1,)], "starring the article in newsboat did not add it to the reading list")
        print("ok: newsboat read %d articles; article %d marked read and starred reached the site" %
              (len(items), article))
    finally:
        site.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
