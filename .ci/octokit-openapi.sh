#!/usr/bin/env bash
# GitHub's REST API description, the `@octokit/openapi` npm package, for the OpenAPI import tests
# (tests/bindings/openapi/import.test.ts, unknown-arguments.test.ts, tests/tool/openapi/output-schemas.test.ts).
# The package is large (385 MB: every GitHub product's description, with and without `$ref`s resolved) and the
# tests read two of its files, so it is installed once into a cache directory outside the checkout, never into
# node_modules or package.json (npm ci would unpack it on every fresh clone).
#   bash .ci/octokit-openapi.sh          install it (if missing) and print the package's directory
#   bash .ci/octokit-openapi.sh --path   print that path only (the tests read it; it may not exist yet)
set -euo pipefail
VERSION=23.0.2
DIR="${MCPLITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcplite}/octokit-openapi-$VERSION"
PKG="$DIR/node_modules/@octokit/openapi"
if [[ "${1:-}" != "--path" && ! -f "$PKG/package.json" ]]; then
  mkdir -p "$DIR"
  npm install --prefix "$DIR" --no-save --no-audit --no-fund --no-package-lock --ignore-scripts \
    "@octokit/openapi@$VERSION" >&2
fi
echo "$PKG"
