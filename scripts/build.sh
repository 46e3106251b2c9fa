#!/usr/bin/env bash
# Build outputs (git-ignored, under data/build): the WASM router and the data artifacts. Both steps
# skip work whose inputs did not change.
set -euo pipefail
cd "$(dirname "$0")/.."
bash router-wasm/build.sh
./node_modules/.bin/bun data-build/main.ts
