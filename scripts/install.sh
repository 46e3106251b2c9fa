#!/usr/bin/env bash
# Installs what Portolan needs on a Debian/Ubuntu machine with Node 20 and npm, idempotently:
# Debian's Rust 1.63 + wasm32 std + lld (to build router-wasm), the npm dependencies (Bun comes from
# npm), then builds the WASM router and data artifacts. The default start needs nothing more (SQLite,
# no Redis); the test command adds the servers and the browser its tests drive.
set -euo pipefail
cd "$(dirname "$0")/.."

# Extra packages come as arguments: the test command adds redis-server, postgresql, chromium, curl
# and openssl (the README examples it runs, the local webhook receiver).
APT_PACKAGES=(rustc cargo libstd-rust-dev-wasm32 lld-14 "$@")
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "install: apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# npm install (not ci: npm 11 leaves other platforms' optional packages out of the lockfile, which
# ci then rejects) only when the lockfile changed since the last install.
stamp=node_modules/.portolan-lock.sha
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -x node_modules/.bin/bun ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "install: npm install"
  npm install --no-audit --no-fund --loglevel=error
  echo "$want" >"$stamp"
fi

bash scripts/build.sh
