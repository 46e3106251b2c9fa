#!/usr/bin/env bash
# One command: install what is missing, then every gate and test. The last line is the total,
# "N passed, N failed", counting each gate (types, lint, rustfmt, clippy) as one check.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh || { echo "0 passed, 1 failed"; exit 1; }

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

gate typecheck ./node_modules/.bin/tsc --noEmit -p tsconfig.json
gate biome ./node_modules/.bin/biome check .
gate rustfmt cargo fmt --manifest-path router-wasm/Cargo.toml --check
gate clippy cargo clippy --manifest-path router-wasm/Cargo.toml --all-targets --quiet -- -D warnings

cargo test --manifest-path router-wasm/Cargo.toml 2>&1 | tee "$log/cargo.out" | grep -E "^test result|FAILED|panicked"
read -r cp cf < <(awk '/^test result/ {p += $4; f += $6} END {print p + 0, f + 0}' "$log/cargo.out")
[ "${PIPESTATUS[0]}" -ne 0 ] && [ "$cf" -eq 0 ] && cf=1
passed=$((passed + cp))
failed=$((failed + cf))

./node_modules/.bin/bun test --timeout 60000 2>&1 | tee "$log/bun.out" | grep -E "^\(fail\)|^error:|^ *[0-9]+ (pass|fail)$"
bun_status=${PIPESTATUS[0]}
bp=$(awk '/^ *[0-9]+ pass$/ {print $1}' "$log/bun.out" | tail -1)
bf=$(awk '/^ *[0-9]+ fail$/ {print $1}' "$log/bun.out" | tail -1)
bp=${bp:-0}
bf=${bf:-0}
[ "$bun_status" -ne 0 ] && [ "$bf" -eq 0 ] && bf=1
passed=$((passed + bp))
failed=$((failed + bf))

rm -rf "$log"
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
