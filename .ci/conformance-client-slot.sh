#!/usr/bin/env bash
# The --command .ci/conformance-client.sh gives the conformance suite's batched client runs: the suite starts
# every scenario of a batch at once, so this waits for one of CLIENT_JOBS slots (a lock file each) before
# it runs examples/conformance-client.ts on Bun, bounded by CLIENT_TIMEOUT seconds from then (the suite's own
# per-client limit, which would count the wait too), and writes its outcome to
# CLIENT_STATUS/<scenario>.status ("exited N", or "timed-out S") for .ci/conformance-results.mjs --client.
#
#   CLIENT_SLOTS=DIR CLIENT_JOBS=N CLIENT_STATUS=DIR CLIENT_TIMEOUT=S bash .ci/conformance-client-slot.sh URL
set -uo pipefail
cd "$(dirname "$0")/.."
STATUS_FILE="$CLIENT_STATUS/${MCP_CONFORMANCE_SCENARIO//\//_}.status"
# One client at a time looks for a free slot, waiting on each in turn (the others sleep on the queue's lock:
# no busy polling). Bounded: the suite's --timeout kills a client (and so this wait) still here at its end.
exec 8>"$CLIENT_SLOTS/queue"
flock 8
SLOT=0
until exec 9>"$CLIENT_SLOTS/$SLOT" && flock -w 0.1 9; do SLOT=$(((SLOT + 1) % CLIENT_JOBS)); done
exec 8>&-
STATUS=0
timeout "$CLIENT_TIMEOUT" bun examples/conformance-client.ts "$@" || STATUS=$?
if [[ $STATUS -eq 124 ]]; then echo "timed-out $CLIENT_TIMEOUT" >"$STATUS_FILE"; else echo "exited $STATUS" >"$STATUS_FILE"; fi
exit "$STATUS"
