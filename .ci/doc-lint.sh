#!/usr/bin/env bash
# `deno doc --lint` over every entry point jsr.json exports, the set JSR documents: each exported symbol
# has JSDoc and an explicit type, and no public signature names a type the package does not export
# (private-type-ref). Third-party types (valibot, Connect, Protobuf-ES) are imported under `/** @ignore */`:
# their libraries document them, and re-exporting them would drag their own internals into our docs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

mapfile -t ENTRIES < <(deno eval 'for (const file of Object.values(JSON.parse(Deno.readTextFileSync("jsr.json")).exports)) console.log(file)')
deno doc --lint "${ENTRIES[@]}"
