#!/usr/bin/python3
"""feedparser_bench.py DIR [REPS]: Debian's python3-feedparser over the same files as parse_bench, in-process,
one thread; prints the same figures (MB/s and entries/s)."""
import os
import sys
import time

import feedparser


def is_feed_file(path):
    name = os.path.basename(path)
    if name.startswith("LICENSE") or name == "COPYING" or name.endswith(".md") or name.endswith(".serde.json"):
        return False
    return os.path.basename(os.path.dirname(path)) != "opml"


def main():
    root = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if is_feed_file(os.path.join(d, f)))
    files = [open(p, "rb").read() for p in paths]
    size = sum(len(f) for f in files)
    entries = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(reps):
        for data in files:
            entries += len(feedparser.parse(data).entries)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    print("feedparser files=%d bytes=%d reps=%d entries=%d wall=%.3fs cpu=%.3fs MB/s=%.2f entries/s=%.0f" % (
        len(files), size, reps, entries // reps, wall, cpu, size * reps / 1e6 / cpu, entries / cpu))


if __name__ == "__main__":
    main()
