#!/usr/bin/env bash
# Sets up, builds and runs the main job: the site (with SQLite under ./data), importing the default blog
# list on first run. Extra arguments go to `longread serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache hits across checkouts in different folders (CI clones afresh each time).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
bash scripts/install-deps.sh build
cmake -S . -B build -G Ninja >/dev/null
cmake --build build --target longread
mkdir -p data
exec ./build/src/app/longread --db data/longread.db serve "$@"
