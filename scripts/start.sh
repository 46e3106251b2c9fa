#!/usr/bin/env bash
# One command: install what is missing, build artifacts, start all six products (SQLite, no Redis);
# under Deno with --deno.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
# A person at a terminal reads the log as lines; piped or collected, it stays JSON.
if [ -t 1 ] && [ -z "${PORTOLAN_LOG_FORMAT:-}" ]; then export PORTOLAN_LOG_FORMAT=pretty; fi
# --deno: the same start under Deno (README, "Running under Deno").
if [ "${1:-}" = "--deno" ]; then exec ./node_modules/.bin/deno run -A --no-check api/runtime/deno-main.ts; fi
exec ./node_modules/.bin/bun api/main.ts
