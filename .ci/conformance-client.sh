#!/usr/bin/env bash
# Runs the official MCP conformance suite's CLIENT scenarios (@modelcontextprotocol/conformance,
# pinned in package.json) against examples/conformance-client.ts, for the 2025-11-25 and the
# 2026-07-28 revisions. The suite starts its own mock servers; it needs Node >= 22, so its CLI runs on
# the Bun binary, and so does the client.
#
# Which scenarios: for each revision, the client scenarios its frozen requirement set lists
# (`conformance list --client --requirements REV`), scored and unscored, auth/* included (the client's
# `oauth()` / `clientCredentials()`, DPoP (RFC 9449), `enterpriseAuth()` (SEP-990),
# `workloadIdentity()` (SEP-1933)), extension scenarios included. The two 2025-03-26 auth back-compat
# scenarios run once at their own revision. EXPECTED_FAIL (a regex, empty: none) would name scenarios the
# client does not implement: they would run and be reported, but not fail the job (so would one that the
# `client` list of .ci/conformance-expected-failures.yaml names, as the server's side reads its `server` list).
#
# One invocation per revision runs its whole requirement set (`client --requirements REV`; the back-compat
# pair is one `--suite backcompat` run): each scenario costs ~0.6 CPU-s of CLI start-up when run on its own.
# Such a run starts every scenario at once, so the clients wait for one of CLIENT_JOBS slots
# (.ci/conformance-client-slot.sh, which also bounds each client and records how it ended); it forces every
# scenario, so "not applicable at REV" is decided here, from the revision's applicable list; and it prints
# no per-scenario result, so each verdict comes from its checks.json (.ci/conformance-results.mjs --client).
#
# Prints each scenario's result and check counts; fails on any failed check, any warning, a scenario
# that checked nothing, or one whose client did not finish (or exited non-zero where the scenario does
# not expect it to give up). Every scenario is bounded in time. With CONFORMANCE_RESULTS set, each
# scenario's outcome is appended there as a JSON line (.ci/conformance-record.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
source .ci/conformance-record.sh

SUITE=(bun node_modules/@modelcontextprotocol/conformance/dist/index.js)
CLIENT="bun $PWD/examples/conformance-client.ts"
REVISIONS=(2025-11-25 2026-07-28)
SCENARIO_TIMEOUT=${SCENARIO_TIMEOUT:-90}   # seconds, per scenario; a batch gets this times its size
CLIENT_TIMEOUT=30                          # seconds, per client once it runs (the suite's own limit)
# Clients at once in a batch: the cores but one, which the suite's own process (every mock server) takes.
CLIENT_JOBS=${CLIENT_JOBS:-$(($(nproc) > 1 ? $(nproc) - 1 : 1))}
EXPECTED_FAIL=''
EXTRA_REV=2025-03-26
EXTRA='auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback'

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/slots"
export CLIENT_SLOTS="$WORK/slots" CLIENT_JOBS CLIENT_TIMEOUT

FAILED=0
EXPECTED=0
TOTAL_SCENARIOS=0
TOTAL_CHECKS=0
for REV in "${REVISIONS[@]}" "$EXTRA_REV"; do
  if [[ $REV == "$EXTRA_REV" ]]; then
    SCORED=$(tr ' ' '\n' <<<"$EXTRA")
    UNSCORED=
    SELECT=(--suite backcompat --spec-version "$REV")
    APPLICABLE=$SCORED   # the suite filters this batch by revision itself: one it leaves out has no result
  else
    timeout 60 "${SUITE[@]}" list --client --requirements "$REV" >"$WORK/list-$REV.txt"
    # Scored: the "Client scenarios" block. Unscored: the "[client]" entries under "never scored".
    SCORED=$(awk '/^Client scenarios/{on=1; next} on && /^ *- /{print $2; next} on{exit}' "$WORK/list-$REV.txt")
    UNSCORED=$(awk '/never scored/{on=1} on && /\[client\]/{print $2}' "$WORK/list-$REV.txt")
    SELECT=(--requirements "$REV")
    timeout 60 "${SUITE[@]}" list --client --spec-version "$REV" >"$WORK/applicable-$REV.txt"
    APPLICABLE=$(awk '/^ *- /{print $2}' "$WORK/applicable-$REV.txt")
  fi
  OUT="$WORK/out-$REV"
  export CLIENT_STATUS="$WORK/status-$REV"
  mkdir -p "$OUT" "$CLIENT_STATUS"
  COUNT=$(wc -w <<<"$SCORED $UNSCORED")
  LIMIT=$((SCENARIO_TIMEOUT * COUNT))
  timeout "$LIMIT" "${SUITE[@]}" client --command "bash $PWD/.ci/conformance-client-slot.sh" "${SELECT[@]}" \
    --timeout $((LIMIT * 1000)) -o "$OUT" >"$WORK/$REV.log" 2>&1 || true
  node .ci/conformance-results.mjs --client "$CLIENT_STATUS" "$OUT" .ci/conformance-expected-failures.yaml \
    $SCORED $UNSCORED >"$WORK/results-$REV.txt"
  echo
  echo "== conformance client $REV"
  while read -r SCENARIO VERDICT OK BAD WARN SKIPS EXIT; do
    KIND=$(grep -qx -- "$SCENARIO" <<<"$SCORED" && echo scored || echo unscored)
    WHY="$OUT/${SCENARIO//\//_}.why"
    # The batch forces every scenario; unforced, a scored one not applicable at REV was skipped: no checks.
    if [[ $KIND == scored ]] && ! grep -qx -- "$SCENARIO" <<<"$APPLICABLE"; then
      VERDICT=fail OK=0 BAD=0 WARN=0
      echo "SKIPPED: scenario '$SCENARIO' is not applicable at spec version $REV" >"$WHY"
    fi
    ALL=$((OK + BAD))
    COUNTS="Passed: $OK/$ALL, $BAD failed, $WARN warnings"
    [[ $VERDICT == missing ]] && COUNTS=""
    TOTAL_SCENARIOS=$((TOTAL_SCENARIOS + 1))
    TOTAL_CHECKS=$((TOTAL_CHECKS + ALL))
    # Expected failures: EXPECTED_FAIL, or the baseline's client list (xfail: .ci/conformance-verdict.mjs).
    if [[ $VERDICT == xfail ]] || [[ $VERDICT != ok && -n $EXPECTED_FAIL && "$SCENARIO" =~ $EXPECTED_FAIL ]]; then
      EXPECTED=$((EXPECTED + 1))
      record client "$REV" "$SCENARIO" "$KIND" xfail "$OK" "$BAD" "$WARN"
      printf '   xfail %-40s %-9s %s (not implemented)\n' "$SCENARIO" "$KIND" "${COUNTS:-no result}"
    elif [[ $VERDICT != ok ]]; then
      FAILED=$((FAILED + 1))
      record client "$REV" "$SCENARIO" "$KIND" fail "$OK" "$BAD" "$WARN"
      printf '   FAIL  %-40s %-9s %s (exit %s)\n' "$SCENARIO" "$KIND" "${COUNTS:-no result}" "$EXIT"
      head -n 20 "$WHY" | sed 's/^/         /'
    else
      record client "$REV" "$SCENARIO" "$KIND" pass "$OK" "$BAD" "$WARN"
      printf '   ok    %-40s %-9s %s/%s checks\n' "$SCENARIO" "$KIND" "$OK" "$ALL"
    fi
  done <"$WORK/results-$REV.txt"
done

# The Skills extension (SEP-2640) is off the spec timeline: its client scenarios run by name.
EXT_TOTAL=0 EXT_FAILED=0 EXT_CHECKS=0
echo
echo "== client extension scenarios (SEP-2640 Skills)"
for SCENARIO in sep-2640-client-no-prefetch sep-2640-client-verify-digest sep-2640-client-verify-size \
  sep-2640-client-verify-frontmatter; do
  OUT="$WORK/ext-$SCENARIO.txt"
  STATUS=0
  timeout "$SCENARIO_TIMEOUT" "${SUITE[@]}" client --command "$CLIENT" --scenario "$SCENARIO" --timeout 30000 \
    >"$OUT" 2>&1 || STATUS=$?
  COUNTS=$(grep -E '^Passed: [0-9]+/[0-9]+' "$OUT" | tail -n 1 || true)
  PASSED=$(sed -n 's/^Passed: \([0-9]*\)\/\([0-9]*\), \([0-9]*\) failed, \([0-9]*\) warnings.*/\1 \2 \3 \4/p' <<<"$COUNTS")
  read -r OK ALL BAD WARN <<<"${PASSED:-0 0 1 0}"
  EXT_TOTAL=$((EXT_TOTAL + 1))
  EXT_CHECKS=$((EXT_CHECKS + ALL))
  if [[ $STATUS -ne 0 || $BAD -ne 0 || $WARN -ne 0 || $ALL -eq 0 || $OK -ne $ALL ]] || grep -q SKIPPED "$OUT"; then
    EXT_FAILED=$((EXT_FAILED + 1)); FAILED=$((FAILED + 1))
    record client 2026-07-28 "$SCENARIO" extension fail "$OK" "$BAD" "$WARN"
    printf '   FAIL  %-40s %s (exit %s)\n' "$SCENARIO" "${COUNTS:-no result}" "$STATUS"
    grep -E 'FAILURE|WARNING|SKIPPED|Error|failed' "$OUT" | head -n 20 | sed 's/^/         /'
  else
    record client 2026-07-28 "$SCENARIO" extension pass "$OK" "$BAD" "$WARN"
    printf '   ok    %-40s %s/%s checks\n' "$SCENARIO" "$OK" "$ALL"
  fi
done

echo
echo "== conformance client: $((TOTAL_SCENARIOS - FAILED + EXT_FAILED - EXPECTED))/$TOTAL_SCENARIOS scenarios passed, $EXPECTED expected failures, $TOTAL_CHECKS checks; Skills extension: $((EXT_TOTAL - EXT_FAILED))/$EXT_TOTAL, $EXT_CHECKS checks"
[[ $FAILED -eq 0 ]] || { echo "== conformance client FAILED"; exit 1; }
echo "== conformance client passed"
