#!/usr/bin/python3
"""Reads Prometheus text exposition on stdin with Debian's python3-prometheus-client parser and prints
every sample as JSON: {"name{label=value,...}": value}. Exits 1 (with the parser's message) on text the
parser rejects, so a test sees malformed output as a failure."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

samples = {}
try:
    for family in text_string_to_metric_families(sys.stdin.read()):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}"] = sample.value
except Exception as error:  # the parser raises ValueError and others on malformed text
    print(f"parse error: {error}", file=sys.stderr)
    sys.exit(1)
print(json.dumps(samples))
