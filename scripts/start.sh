#!/usr/bin/env bash
# One command: install what is missing, build artifacts, start all six products (SQLite, no Redis).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
exec ./node_modules/.bin/bun api/main.ts
