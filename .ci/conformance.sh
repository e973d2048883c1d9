#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json)
# against examples/conformance-server.ts, served by Bun on a free port, for the 2025-11-25 and the
# 2026-07-28 revisions. The suite needs Node >= 22, so its CLI runs on the Bun binary too.
#
# Which scenarios: for each revision, every scenario its frozen requirement set lists for servers
# (`conformance list --server --requirements REV`), scored and unscored (the input-required-result-*
# and tasks-* ones included), run in one `server --requirements REV` invocation against the baseline
# .ci/conformance-expected-failures.yaml. That run forces every scenario; a non-extension scenario that
# the revision does not list as applicable still counts as a failure, as an unforced run's "not
# applicable" skip did, so a skip can never pass for a pass. Extension scenarios (tasks-*) are not on a
# revision's timeline and were always forced.
#
# Fails on any unexpected failure or warning, and on a scenario that checked nothing (skipped by the
# suite, or only INFO lines) unless the baseline lists it whole, with its reason (then it is reported as
# an expected failure, "xfail", never as passed); prints the scenario and check counts. Every step is
# bounded in time, and the server is stopped on exit. With CONFORMANCE_RESULTS set, each scenario's outcome is
# appended there as a JSON line (.ci/conformance-record.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
source .ci/conformance-record.sh

SUITE=(bun node_modules/@modelcontextprotocol/conformance/dist/index.js)
BASELINE=.ci/conformance-expected-failures.yaml
REVISIONS=(2025-11-25 2026-07-28)
SCENARIO_TIMEOUT=${SCENARIO_TIMEOUT:-120}   # seconds per scenario; a batch gets this times its size (the suite's own limit is 30 s each)

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "== conformance: starting examples/conformance-server.ts on Bun"
PORT=0 HOSTNAME=127.0.0.1 bun run examples/conformance-server.ts >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
PORT=""
for _ in $(seq 1 300); do   # up to 30 s
  PORT=$(sed -n 's#.*listening on http://127\.0\.0\.1:\([0-9]*\)/mcp.*#\1#p' "$WORK/server.log" | head -n 1)
  [[ -n "$PORT" ]] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log"; echo "the server exited"; exit 1; }
  sleep 0.1
done
[[ -n "$PORT" ]] || { cat "$WORK/server.log"; echo "the server did not start within 30 s"; exit 1; }
URL="http://localhost:$PORT/mcp"
echo "   listening at $URL"

FAILED=0
SUMMARY=()
for REV in "${REVISIONS[@]}"; do
  timeout 60 "${SUITE[@]}" list --server --requirements "$REV" >"$WORK/list-$REV.txt"
  # Scored: the "Server scenarios" block. Unscored: the "[server]" entries under "never scored".
  SCORED=$(awk '/^Server scenarios/{on=1; next} on && /^ *- /{print $2; next} on{exit}' "$WORK/list-$REV.txt")
  UNSCORED=$(awk '/never scored/{on=1} on && /\[server\]/{print $2}' "$WORK/list-$REV.txt")
  EXTENSION=$(awk '/never scored/{on=1} on && /^  [a-z-]+ \([0-9]+\):/{ext=($1=="extension")} on && ext && /\[server\]/{print $2}' "$WORK/list-$REV.txt")
  echo
  echo "== conformance $REV"
  declare -A RESULT=()
  CHECKS_PASSED=0 CHECKS_FAILED=0 CHECKS_WARNED=0
  # One invocation runs the whole requirement set (scored and unscored, in the listed order): each
  # scenario costs ~0.5 s of CLI start-up when run on its own. --requirements forces every scenario, so
  # "not applicable at REV" is decided here instead, from the revision's applicable list (extension
  # scenarios are never on it; they were forced before too). The batch's exit code covers only the
  # scored scenarios, so each scenario's verdict comes from its checks.json (.ci/conformance-results.mjs).
  timeout 60 "${SUITE[@]}" list --server --spec-version "$REV" >"$WORK/applicable-$REV.txt"
  APPLICABLE=$(awk '/^ *- /{print $2}' "$WORK/applicable-$REV.txt")
  OUT="$WORK/out-$REV"
  COUNT=$(wc -w <<<"$SCORED $UNSCORED")
  timeout $((SCENARIO_TIMEOUT * COUNT)) "${SUITE[@]}" server --url "$URL" --requirements "$REV" \
    --expected-failures "$BASELINE" -o "$OUT" >"$WORK/$REV.log" 2>&1 || true
  mkdir -p "$OUT"
  node .ci/conformance-results.mjs "$OUT" "$BASELINE" $SCORED $UNSCORED >"$WORK/results-$REV.txt"
  while read -r S VERDICT P F W SKIPS; do
    WHY="$OUT/${S//\//_}.why"
    if ! grep -qx -- "$S" <<<"$EXTENSION" && ! grep -qx -- "$S" <<<"$APPLICABLE"; then
      # What a lone unforced run printed: a SKIPPED line and no checks.
      VERDICT=fail P=0 F=0 W=0 SKIPS=1
      echo "SKIPPED: scenario '$S' is not applicable at spec version $REV" >"$WHY"
    fi
    # ok: its checks passed; xfail: a failure, or a scenario that checked nothing, that the baseline lists
    # whole with its reason; anything else (a scenario that checked nothing included) fails.
    case "$VERDICT" in ok) RESULT[$S]=pass ;; xfail) RESULT[$S]=xfail ;; *) RESULT[$S]=fail ;; esac
    CHECKS_PASSED=$((CHECKS_PASSED + P)); CHECKS_FAILED=$((CHECKS_FAILED + F)); CHECKS_WARNED=$((CHECKS_WARNED + W))
    NOTE=""
    [[ "$SKIPS" -gt 0 ]] && NOTE=", $SKIPS skipped by the suite"
    KIND=$(grep -qx -- "$S" <<<"$SCORED" && echo scored || echo unscored)
    record server "$REV" "$S" "$KIND" "${RESULT[$S]}" "$P" "$F" "$W"
    printf '   %-5s %-48s %s\n' "${RESULT[$S]}" "$S" "checks: $P passed, $F failed, $W warnings$NOTE"
    if [[ "${RESULT[$S]}" != pass ]]; then
      sed -e 's/^/        /' "$WHY" | head -n 20 || true
    fi
  done <"$WORK/results-$REV.txt"
  # "passed/run passed" for a list of scenarios, and the expected failures among them.
  tally() {
    local passed=0 run=0 expected=0
    for S in $1; do
      run=$((run + 1))
      [[ "${RESULT[$S]}" == pass ]] && passed=$((passed + 1))
      [[ "${RESULT[$S]}" == xfail ]] && expected=$((expected + 1))
    done
    echo "$passed/$run passed$([[ $expected -gt 0 ]] && echo " ($expected expected to fail)")"
  }
  TASKS=$(printf '%s\n' $UNSCORED | grep '^tasks-' || true)
  TASKS_LINE=""
  [[ -n "$TASKS" ]] && TASKS_LINE=" (tasks $(tally "$TASKS"))"
  LINE="MCP $REV: scored $(tally "$SCORED"), unscored $(tally "$UNSCORED")$TASKS_LINE; checks: $CHECKS_PASSED passed, $CHECKS_FAILED failed, $CHECKS_WARNED warnings"
  SUMMARY+=("$LINE")
  for S in "${!RESULT[@]}"; do [[ "${RESULT[$S]}" == fail ]] && FAILED=$((FAILED + 1)); done
  unset RESULT
done

# Extensions off the spec timeline: the Skills extension (SEP-2640) is not in any revision's
# requirement set, so its scenarios run by name, forced, at 2026-07-28. Any failed, warned or skipped
# check fails the run (the suite's exit code alone would let a skip pass), and so does a scenario that
# checked nothing ("Passed: 0/0").
EXT_PASSED=0 EXT_RUN=0 EXT_CHECKS=0
echo
echo "== conformance extensions (2026-07-28, forced)"
for S in sep-2640-skills-enumeration sep-2640-skills-manifest sep-2640-skills-directory; do
  LOG="$WORK/ext-$S.log"
  EXT_RUN=$((EXT_RUN + 1))
  timeout "$SCENARIO_TIMEOUT" "${SUITE[@]}" server --url "$URL" --scenario "$S" --spec-version 2026-07-28 --force \
    >"$LOG" 2>&1 || true
  COUNTS=$(sed -n 's/.*Passed: \([0-9]*\)\/\([0-9]*\), \([0-9]*\) failed, \([0-9]*\) warnings.*/\1 \2 \3 \4/p' "$LOG" | tail -n 1)
  read -r P T F W <<<"${COUNTS:-0 1 1 0}"
  if [[ "$T" -gt 0 && "$P" == "$T" && "$F" == 0 && "$W" == 0 ]] && ! grep -q 'SKIPPED' "$LOG"; then
    EXT_PASSED=$((EXT_PASSED + 1)); RESULT_TEXT=pass
  else
    RESULT_TEXT=fail; FAILED=$((FAILED + 1))
    sed -e 's/^/        /' "$LOG" | grep -E 'FAILURE|WARNING|SKIPPED|rror' | head -n 20 || true
  fi
  EXT_CHECKS=$((EXT_CHECKS + P))
  record server 2026-07-28 "$S" extension "$RESULT_TEXT" "$P" "$F" "$W"
  printf '   %-4s %-48s %s\n' "$RESULT_TEXT" "$S" "checks: $P/$T passed, $F failed, $W warnings"
done
SUMMARY+=("Skills extension (SEP-2640): $EXT_PASSED/$EXT_RUN passed; checks: $EXT_CHECKS passed")

echo
echo "== conformance summary"
for LINE in "${SUMMARY[@]}"; do echo "   $LINE"; done
if [[ $FAILED -gt 0 ]]; then
  echo "== conformance FAILED: $FAILED scenario(s)"
  exit 1
fi
echo "== conformance passed"
