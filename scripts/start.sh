#!/usr/bin/env bash
# One command: install what is missing, build artifacts, start all six products (SQLite, no Redis).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
# A person at a terminal reads the log as lines; piped or collected, it stays JSON.
if [ -t 1 ] && [ -z "${PORTOLAN_LOG_FORMAT:-}" ]; then export PORTOLAN_LOG_FORMAT=pretty; fi
exec ./node_modules/.bin/bun api/main.ts
