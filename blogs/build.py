#!/usr/bin/env python3
"""Builds blogs/default.opml from blogs/default.tsv.

Every feed URL must appear verbatim in one of the blog lists of the shared corpus
(hn-personal-blogs/list.opml, kagi-smallweb/smallweb.txt) when that corpus is present:
the list is made of facts, never of guessed URLs. Usage:

    python3 blogs/build.py [--corpus DIR] [--out FILE]
"""
import argparse
import os
import sys
import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
NS = "https://longread.example/ns"


def read_table(path):
    rows = []
    for lineno, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 3:
            sys.exit(f"{path}:{lineno}: expected category<TAB>title<TAB>feed URL, got {line!r}")
        category, title, feed = (c.strip() for c in cols[:3])
        site = cols[3].strip() if len(cols) > 3 else ""
        flags = {f.strip() for f in cols[4].split(",")} if len(cols) > 4 else set()
        unknown = flags - {"", "short", "unlisted"}
        if unknown:
            sys.exit(f"{path}:{lineno}: unknown flag(s) {sorted(unknown)}")
        rows.append((lineno, category, title, feed, site, flags))
    return rows


def known_urls(corpus):
    urls = set()
    hn = os.path.join(corpus, "blog-lists/hn-personal-blogs/list.opml")
    kagi = os.path.join(corpus, "blog-lists/kagi-smallweb/smallweb.txt")
    if os.path.exists(hn):
        for node in ET.parse(hn).iter("outline"):
            if node.get("xmlUrl"):
                urls.add(node.get("xmlUrl").strip())
    if os.path.exists(kagi):
        urls.update(line.strip() for line in open(kagi, encoding="utf-8") if line.strip())
    return urls


def host_key(url):
    host = (urlsplit(url).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "shared", "corpus"))
    parser.add_argument("--table", default=os.path.join(HERE, "default.tsv"))
    parser.add_argument("--out", default=os.path.join(HERE, "default.opml"))
    args = parser.parse_args()

    rows = read_table(args.table)
    known = known_urls(args.corpus)
    if not known:
        print("build: corpus blog lists not found; feed URLs not verified", file=sys.stderr)
    errors = []
    seen = {}
    categories = {}
    for lineno, category, title, feed, site, flags in rows:
        short = "short" in flags
        if known and feed not in known and "unlisted" not in flags:
            errors.append(f"line {lineno}: {feed} is not in the corpus blog lists")
        key = host_key(feed)
        if key in seen:
            errors.append(f"line {lineno}: host {key} already listed on line {seen[key]}")
        seen[key] = lineno
        if not site:
            parts = urlsplit(feed)
            site = f"{parts.scheme}://{parts.netloc}/"
        categories.setdefault(category, []).append((title, feed, site, short))
    if errors:
        sys.exit("build: " + "\n       ".join(errors))

    ET.register_namespace("longread", NS)
    root = ET.Element("opml", {"version": "2.0"})
    head = ET.SubElement(root, "head")
    ET.SubElement(head, "title").text = "longread default blogs"
    ET.SubElement(head, "ownerName").text = "longread"
    body = ET.SubElement(root, "body")
    for category, blogs in categories.items():
        group = ET.SubElement(body, "outline", {"text": category, "title": category})
        for title, feed, site, short in blogs:
            attrs = {"type": "rss", "text": title, "title": title, "xmlUrl": feed, "htmlUrl": site}
            if short:
                attrs[f"{{{NS}}}shortForm"] = "true"
            ET.SubElement(group, "outline", attrs)
    ET.indent(root, space="  ")
    tree = ET.ElementTree(root)
    tree.write(args.out, encoding="UTF-8", xml_declaration=True)
    with open(args.out, "a", encoding="utf-8") as f:
        f.write("\n")
    total = sum(len(b) for b in categories.values())
    print(f"build: wrote {args.out}: {total} blogs in {len(categories)} categories")


if __name__ == "__main__":
    main()
