#!/usr/bin/env bash
# Runs the official MCP conformance suite's CLIENT scenarios (@modelcontextprotocol/conformance,
# pinned in package.json) against examples/conformance-client.ts, for the 2025-11-25 and the
# 2026-07-28 revisions. The suite starts its own mock servers; it needs Node >= 22, so its CLI runs on
# the Bun binary, and so does the client.
#
# Which scenarios: for each revision, the client scenarios its frozen requirement set lists
# (`conformance list --client --requirements REV`), scored and unscored, auth/* included (the client's
# `oauth()` / `clientCredentials()`, DPoP (RFC 9449), `enterpriseAuth()` (SEP-990),
# `workloadIdentity()` (SEP-1933)); extension scenarios run with --force. The two 2025-03-26 auth
# back-compat scenarios run once at their own revision. EXPECTED_FAIL (a regex, empty: none) would name
# scenarios the client does not implement: they would run and be reported, but not fail the job.
#
# Prints each scenario's result and check counts; fails on any failed check, any warning, or a
# scenario that does not finish. Every scenario is bounded in time. With CONFORMANCE_RESULTS set, each
# scenario's outcome is appended there as a JSON line (.ci/conformance-record.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
source .ci/conformance-record.sh

SUITE=(bun node_modules/@modelcontextprotocol/conformance/dist/index.js)
CLIENT="bun $PWD/examples/conformance-client.ts"
REVISIONS=(2025-11-25 2026-07-28)
SCENARIO_TIMEOUT=${SCENARIO_TIMEOUT:-90}   # seconds, per scenario (the suite's own client limit is 30 s)
EXPECTED_FAIL=''
EXTRA_REV=2025-03-26
EXTRA='auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback'

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

FAILED=0
EXPECTED=0
TOTAL_SCENARIOS=0
TOTAL_CHECKS=0
for REV in "${REVISIONS[@]}" "$EXTRA_REV"; do
  if [[ $REV == "$EXTRA_REV" ]]; then
    SCORED=$EXTRA
    UNSCORED=
  else
    timeout 60 "${SUITE[@]}" list --client --requirements "$REV" >"$WORK/list-$REV.txt"
    # Scored: the "Client scenarios" block. Unscored: the "[client]" entries under "never scored".
    SCORED=$(awk '/^Client scenarios/{on=1; next} on && /^ *- /{print $2; next} on{exit}' "$WORK/list-$REV.txt")
    UNSCORED=$(awk '/never scored/{on=1} on && /\[client\]/{print $2}' "$WORK/list-$REV.txt")
  fi
  echo
  echo "== conformance client $REV"
  for KIND in scored unscored; do
    LIST=$([[ $KIND == scored ]] && echo "$SCORED" || echo "$UNSCORED")
    for SCENARIO in $LIST; do
      OUT="$WORK/$REV-${SCENARIO//\//_}.txt"
      STATUS=0
      # Extension scenarios are "not applicable" at a spec revision unless forced.
      FORCE=$([[ $KIND == unscored ]] && echo --force || true)
      timeout "$SCENARIO_TIMEOUT" "${SUITE[@]}" client --command "$CLIENT" --scenario "$SCENARIO" \
        --spec-version "$REV" $FORCE --timeout 30000 >"$OUT" 2>&1 || STATUS=$?
      COUNTS=$(grep -E '^Passed: [0-9]+/[0-9]+' "$OUT" | tail -n 1 || true)
      PASSED=$(sed -n 's/^Passed: \([0-9]*\)\/\([0-9]*\), \([0-9]*\) failed, \([0-9]*\) warnings.*/\1 \2 \3 \4/p' <<<"$COUNTS")
      read -r OK ALL BAD WARN <<<"${PASSED:-0 0 1 0}"
      TOTAL_SCENARIOS=$((TOTAL_SCENARIOS + 1))
      TOTAL_CHECKS=$((TOTAL_CHECKS + ALL))
      if [[ $STATUS -ne 0 || $BAD -ne 0 || $WARN -ne 0 || $ALL -eq 0 ]] && [[ -n $EXPECTED_FAIL && "$SCENARIO" =~ $EXPECTED_FAIL ]]; then
        EXPECTED=$((EXPECTED + 1))
        record client "$REV" "$SCENARIO" "$KIND" xfail "$OK" "$BAD" "$WARN"
        printf '   xfail %-40s %-9s %s (not implemented)\n' "$SCENARIO" "$KIND" "${COUNTS:-no result}"
      elif [[ $STATUS -ne 0 || $BAD -ne 0 || $WARN -ne 0 || $ALL -eq 0 ]]; then
        FAILED=$((FAILED + 1))
        record client "$REV" "$SCENARIO" "$KIND" fail "$OK" "$BAD" "$WARN"
        printf '   FAIL  %-40s %-9s %s (exit %s)\n' "$SCENARIO" "$KIND" "${COUNTS:-no result}" "$STATUS"
        grep -E 'FAILURE|WARNING|Error|failed' "$OUT" | head -n 20 | sed 's/^/         /'
      else
        record client "$REV" "$SCENARIO" "$KIND" pass "$OK" "$BAD" "$WARN"
        printf '   ok    %-40s %-9s %s/%s checks\n' "$SCENARIO" "$KIND" "$OK" "$ALL"
      fi
    done
  done
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
