#!/usr/bin/env bash
# Builds the router for wasm32-unknown-unknown and installs it as data/build/router.wasm.
# Uses the system toolchain (Rust 1.63 with wasm32 std) when present, else whatever cargo is on PATH.
set -euo pipefail
cd "$(dirname "$0")"
if [[ -x /usr/bin/cargo && -x /usr/bin/rustc ]]; then
  RUSTC=/usr/bin/rustc /usr/bin/cargo build --release --target wasm32-unknown-unknown
else
  cargo build --release --target wasm32-unknown-unknown
fi
mkdir -p ../data/build
cp target/wasm32-unknown-unknown/release/portolan_router.wasm ../data/build/router.wasm
echo "router.wasm: $(wc -c < ../data/build/router.wasm) bytes -> data/build/router.wasm"
