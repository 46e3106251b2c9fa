#!/usr/bin/env bash
# One command: install what is missing, then every gate and test. The last line is the total,
# "N passed, N failed", counting each gate (types, lint, rustfmt, clippy, secrets in logs) as one
# check.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh redis-server postgresql chromium curl openssl || { echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
log=$(mktemp -d)
gate() {
  local name=$1
  shift
  if "$@" >"$log/$name.out" 2>&1; then
    passed=$((passed + 1))
    echo "gate $name: ok"
  else
    failed=$((failed + 1))
    echo "gate $name: FAILED"
    tail -n 40 "$log/$name.out"
  fi
}

# TypeScript 7 by its own path: the ts5 dev dependency (scripts/long-code.ts reads its compiler
# API) installs a `tsc` too, and which one node_modules/.bin/tsc names is up to npm.
gate typecheck ./node_modules/typescript/bin/tsc --noEmit -p tsconfig.json
# The client package (clients/typescript) with the TypeScript 5 it is generated for: openapi-typescript
# cannot use TypeScript 7.
gate typecheck-client clients/typescript/node_modules/.bin/tsc --noEmit -p clients/typescript/tsconfig.json
gate biome ./node_modules/.bin/biome check .
gate rustfmt cargo fmt --manifest-path router-wasm/Cargo.toml --check
gate clippy cargo clippy --manifest-path router-wasm/Cargo.toml --all-targets --quiet -- -D warnings

cargo test --manifest-path router-wasm/Cargo.toml 2>&1 | tee "$log/cargo.out" | grep -E "^test result|FAILED|panicked"
read -r cp cf < <(awk '/^test result/ {p += $4; f += $6} END {print p + 0, f + 0}' "$log/cargo.out")
[ "${PIPESTATUS[0]}" -ne 0 ] && [ "$cf" -eq 0 ] && cf=1
passed=$((passed + cp))
failed=$((failed + cf))

# The bun suite on the embedded default (SQLite), and the files that can reach a database
# (scripts/database-tests.ts) again on a PostgreSQL server started here (initdb in a temporary
# folder, a free loopback port), where every test platform gets its own schema. They run side by
# side, the SQLite suite in two halves (every other file): much of each is waiting on servers,
# browsers and child processes, so three processes keep two cores busy.
bun_suite() {
  local name=$1
  shift
  # -a: a test may print bytes that are not text, and grep would then answer "binary file
  # matches" instead of the lines (the counts and the failures).
  ./node_modules/.bin/bun test --timeout 60000 "$@" >"$log/$name.out" 2>&1
  local status=$?
  grep -a -E "^\(fail\)|^error:|^ *[0-9]+ (pass|fail)$" "$log/$name.out"
  local p f
  p=$(awk '/^ *[0-9]+ pass$/ {print $1}' "$log/$name.out" | tail -1)
  f=$(awk '/^ *[0-9]+ fail$/ {print $1}' "$log/$name.out" | tail -1)
  p=${p:-0}
  f=${f:-0}
  [ "$status" -ne 0 ] && [ "$f" -eq 0 ] && f=1
  # What each failure said (bun prints it before the "(fail)" line; a line a test printed without
  # its newline can hide the "error:" from the filter above), since the log goes at the end. Only
  # up to bun's closing "N tests failed:" list, which repeats the "(fail)" lines without it.
  [ "$f" -ne 0 ] && sed -E '/^[0-9]+ tests? failed:$/q' "$log/$name.out" | grep -a -B 25 -E "^\(fail\)" | tail -n 300
  echo "suite $name: $p passed, $f failed"
  echo "$p $f" >"$log/$name.counts"
}

# Every answer the platform helpers check is recorded, for the coverage report below.
PORTOLAN_OPENAPI_COVERAGE="$log/openapi-coverage.txt"
export PORTOLAN_OPENAPI_COVERAGE
# Both suites log at info (an access line per request) into one file, the in-process platforms and
# every server they start alike, and record every key and secret they issue or send: the
# secrets-in-logs gate below looks for each of them in that log and in the suites' outputs.
PORTOLAN_LOG_LEVEL=info
PORTOLAN_LOG_FILE="$log/portolan.log"
PORTOLAN_TEST_SECRETS="$log/secrets.txt"
export PORTOLAN_LOG_LEVEL PORTOLAN_LOG_FILE PORTOLAN_TEST_SECRETS
echo "suites sqlite (two halves) and postgres, side by side (each one's lines come when it ends)"
mapfile -t test_files < <(find test -name "*.test.ts" | sort)
first=()
second=()
for i in "${!test_files[@]}"; do
  if ((i % 2 == 0)); then first+=("./${test_files[i]}"); else second+=("./${test_files[i]}"); fi
done
bun_suite sqlite-1 "${first[@]}" >"$log/sqlite-1.summary" &
sqlite_jobs=($!)
bun_suite sqlite-2 "${second[@]}" >"$log/sqlite-2.summary" &
sqlite_jobs+=($!)
if pg=$(bash scripts/postgres-temp.sh start); then
  read -r pg_url pg_dir <<<"$pg"
  trap 'bash scripts/postgres-temp.sh stop "$pg_dir"' EXIT
  mapfile -t pg_files < <(./node_modules/.bin/bun scripts/database-tests.ts)
  PORTOLAN_TEST_DB=$pg_url bun_suite postgres "${pg_files[@]/#/./}" >"$log/postgres.summary"
else
  echo "suite postgres: could not start PostgreSQL" >"$log/postgres.summary"
  echo "0 1" >"$log/postgres.counts"
fi
wait "${sqlite_jobs[@]}"
for name in sqlite-1 sqlite-2 postgres; do
  cat "$log/$name.summary"
  read -r p f <"$log/$name.counts" 2>/dev/null || { p=0; f=1; }
  passed=$((passed + p))
  failed=$((failed + f))
done

unset PORTOLAN_OPENAPI_COVERAGE PORTOLAN_LOG_LEVEL PORTOLAN_LOG_FILE PORTOLAN_TEST_SECRETS
gate secrets-in-logs bash scripts/secrets-in-logs.sh "$log/secrets.txt" "$log/portolan.log" \
  "$log/sqlite-1.out" "$log/sqlite-2.out" "$log/postgres.out"
if [ -s "$log/openapi-coverage.txt" ]; then
  echo "OpenAPI coverage (scripts/openapi-coverage.ts):"
  ./node_modules/.bin/bun scripts/openapi-coverage.ts "$log/openapi-coverage.txt"
fi

rm -rf "$log"
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
