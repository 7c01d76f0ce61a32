#!/usr/bin/env bash
# Installs what the test suite needs from Debian's packages (as root): the PostgreSQL 15
# server binaries and Chromium's headless shell for the browser tests, Node.js and npm for the
# type check of the page modules (then the TypeScript package.json pins, with `npm ci`). The
# tests start and stop the servers themselves, on 127.0.0.1 only.
set -euo pipefail
need=()
[ -x /usr/lib/postgresql/15/bin/initdb ] || need+=(postgresql-15)
[ -x /usr/bin/chromium-headless-shell ] || need+=(chromium-headless-shell)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing ${need[*]}: run this script as root to install them" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi
cd "$(dirname "$0")/.."
[ -x node_modules/.bin/tsc ] || npm ci --no-audit --no-fund --loglevel=error
