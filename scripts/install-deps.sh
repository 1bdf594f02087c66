#!/usr/bin/env bash
# Installs every Debian package longread builds, tests and benchmarks with. Idempotent: packages already
# present are skipped, so both README commands and .ci/run call it unconditionally.
set -euo pipefail

BUILD_PKGS=(
  build-essential cmake ninja-build ccache pkg-config
  libcurl4-openssl-dev libxml2-dev nlohmann-json3-dev libsqlite3-dev sqlite3
  libfmt-dev libspdlog-dev libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev
  libgumbo-dev libboost-dev libsodium-dev libpq-dev libcld2-dev libtomlplusplus-dev
  zlib1g-dev libpsl-dev prometheus-cpp-dev libzstd-dev
)
TEST_PKGS=(
  python3 postgresql python3-aiosmtpd chromium default-jre-headless curl nginx python3-prometheus-client
  newsboat  # the real feed app the reader API is tested with (tests/feedapps)
)
BENCH_PKGS=(
  python3-feedparser wrk bc
)
# Optional: coverage-guided fuzzing (fuzz/run.sh). Not part of 'all' or CI; the replay test needs none of it.
FUZZ_PKGS=(
  afl++
)

want=("${BUILD_PKGS[@]}")
case "${1:-build}" in
  build) ;;
  test) want+=("${TEST_PKGS[@]}") ;;
  all) want+=("${TEST_PKGS[@]}" "${BENCH_PKGS[@]}") ;;
  fuzz) want+=("${FUZZ_PKGS[@]}") ;;
  *) echo "usage: $0 [build|test|all|fuzz]" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The browser test drives Chromium from Node.js (playwright-core), and the HTML validation runs npm's
# vnu-jar; a machine may already have a Node.js of its own, in which case Debian's is not needed.
if [ "${1:-build}" != build ] && [ "${1:-build}" != fuzz ] && ! command -v node >/dev/null; then missing+=(nodejs npm); fi
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
