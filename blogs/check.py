#!/usr/bin/env python3
"""Validates a longread blog list (OPML 2.0): it parses, every blog sits in a category outline,
every URL is http(s), no feed URL or host appears twice, short-form marks are well formed.
Prints the count per category; exits 1 on the first class of error found.

    python3 blogs/check.py blogs/default.opml [--min-per-category N]
"""
import argparse
import sys
import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

NS = "https://longread.example/ns"
SLUG_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789-")


def http_url(url):
    parts = urlsplit(url or "")
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def host_key(url):
    host = (urlsplit(url).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("opml")
    parser.add_argument("--min-per-category", type=int, default=5)
    args = parser.parse_args()

    errors = []
    try:
        root = ET.parse(args.opml).getroot()
    except ET.ParseError as e:
        print(f"check: {args.opml}: not well-formed XML: {e}")
        return 1
    if root.tag != "opml" or root.get("version") != "2.0":
        errors.append("root element is not <opml version=\"2.0\">")
    body = root.find("body")
    if body is None:
        print("check: no <body>")
        return 1

    counts = {}
    feeds, hosts = {}, {}
    short = 0
    for group in body:
        if group.tag != "outline":
            errors.append(f"unexpected element <{group.tag}> in body")
            continue
        if group.get("xmlUrl"):
            errors.append(f"uncategorised blog at top level: {group.get('xmlUrl')}")
            continue
        category = group.get("text") or ""
        if not category or not set(category) <= SLUG_CHARS:
            errors.append(f"category outline text {category!r} is not a slug")
        if group.get("title") not in (None, category):
            errors.append(f"category {category!r}: title {group.get('title')!r} differs from text")
        counts.setdefault(category, 0)
        for blog in group:
            feed = blog.get("xmlUrl")
            where = f"{category}/{blog.get('text')!r}"
            if len(blog):
                errors.append(f"{where}: categories nest only one level deep")
            if blog.get("type") != "rss":
                errors.append(f"{where}: type is {blog.get('type')!r}, expected 'rss'")
            if not (blog.get("text") or "").strip() or not (blog.get("title") or "").strip():
                errors.append(f"{where}: missing text/title")
            if not http_url(feed):
                errors.append(f"{where}: xmlUrl {feed!r} is not an http(s) URL")
                continue
            if not http_url(blog.get("htmlUrl")):
                errors.append(f"{where}: htmlUrl {blog.get('htmlUrl')!r} is not an http(s) URL")
            if feed in feeds:
                errors.append(f"{where}: feed {feed} also in {feeds[feed]}")
            feeds[feed] = where
            key = host_key(feed)
            if key in hosts:
                errors.append(f"{where}: host {key} also in {hosts[key]}")
            hosts[key] = where
            mark = blog.get(f"{{{NS}}}shortForm")
            if mark not in (None, "true", "false"):
                errors.append(f"{where}: longread:shortForm is {mark!r}, expected true/false")
            short += mark == "true"
            counts[category] += 1

    for category, n in counts.items():
        print(f"{category:14} {n:4}")
        if n < args.min_per_category:
            errors.append(f"category {category!r} has only {n} blogs (< {args.min_per_category})")
    print(f"{'total':14} {sum(counts.values()):4} blogs, {len(counts)} categories, {short} short-form")
    for e in errors:
        print(f"check: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
