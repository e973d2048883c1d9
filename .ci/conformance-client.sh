#!/usr/bin/env bash
# Runs the official MCP conformance suite's CLIENT scenarios (@modelcontextprotocol/conformance,
# pinned in package.json) against examples/conformance-client.ts, for the 2025-11-25 and the
# 2026-07-28 revisions. The suite starts its own mock servers; it needs Node >= 22, so its CLI runs on
# the Bun binary, and so does the client.
#
# Which scenarios: for each revision, the client scenarios its frozen requirement set lists
# (`conformance list --client --requirements REV`), scored and unscored, except the auth/* ones (OAuth
# flows: the client has no OAuth support; they are named when skipped).
#
# Prints each scenario's result and check counts; fails on any failed check, any warning, or a
# scenario that does not finish. Every scenario is bounded in time.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

SUITE=(bun node_modules/@modelcontextprotocol/conformance/dist/index.js)
CLIENT="bun $PWD/examples/conformance-client.ts"
REVISIONS=(2025-11-25 2026-07-28)
SCENARIO_TIMEOUT=${SCENARIO_TIMEOUT:-90}   # seconds, per scenario (the suite's own client limit is 30 s)
SKIPPED='^auth/'

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

FAILED=0
TOTAL_SCENARIOS=0
TOTAL_CHECKS=0
for REV in "${REVISIONS[@]}"; do
  timeout 60 "${SUITE[@]}" list --client --requirements "$REV" >"$WORK/list-$REV.txt"
  # Scored: the "Client scenarios" block. Unscored: the "[client]" entries under "never scored".
  SCORED=$(awk '/^Client scenarios/{on=1; next} on && /^ *- /{print $2; next} on{exit}' "$WORK/list-$REV.txt")
  UNSCORED=$(awk '/never scored/{on=1} on && /\[client\]/{print $2}' "$WORK/list-$REV.txt")
  echo
  echo "== conformance client $REV"
  SKIP_NOW=$(printf '%s\n' $SCORED $UNSCORED | grep -E "$SKIPPED" | tr '\n' ' ' || true)
  [[ -n "$SKIP_NOW" ]] && echo "   skipped (OAuth, not in the client): $SKIP_NOW"
  for KIND in scored unscored; do
    LIST=$([[ $KIND == scored ]] && echo "$SCORED" || echo "$UNSCORED")
    for SCENARIO in $LIST; do
      [[ "$SCENARIO" =~ $SKIPPED ]] && continue
      OUT="$WORK/$REV-${SCENARIO//\//_}.txt"
      STATUS=0
      timeout "$SCENARIO_TIMEOUT" "${SUITE[@]}" client --command "$CLIENT" --scenario "$SCENARIO" \
        --spec-version "$REV" --timeout 30000 >"$OUT" 2>&1 || STATUS=$?
      COUNTS=$(grep -E '^Passed: [0-9]+/[0-9]+' "$OUT" | tail -n 1 || true)
      PASSED=$(sed -n 's/^Passed: \([0-9]*\)\/\([0-9]*\), \([0-9]*\) failed, \([0-9]*\) warnings.*/\1 \2 \3 \4/p' <<<"$COUNTS")
      read -r OK ALL BAD WARN <<<"${PASSED:-0 0 1 0}"
      TOTAL_SCENARIOS=$((TOTAL_SCENARIOS + 1))
      TOTAL_CHECKS=$((TOTAL_CHECKS + ALL))
      if [[ $STATUS -ne 0 || $BAD -ne 0 || $WARN -ne 0 || $ALL -eq 0 ]]; then
        FAILED=$((FAILED + 1))
        printf '   FAIL  %-40s %-9s %s (exit %s)\n' "$SCENARIO" "$KIND" "${COUNTS:-no result}" "$STATUS"
        grep -E 'FAILURE|WARNING|Error|failed' "$OUT" | head -n 20 | sed 's/^/         /'
      else
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
    printf '   FAIL  %-40s %s (exit %s)\n' "$SCENARIO" "${COUNTS:-no result}" "$STATUS"
    grep -E 'FAILURE|WARNING|SKIPPED|Error|failed' "$OUT" | head -n 20 | sed 's/^/         /'
  else
    printf '   ok    %-40s %s/%s checks\n' "$SCENARIO" "$OK" "$ALL"
  fi
done

echo
echo "== conformance client: $((TOTAL_SCENARIOS - FAILED + EXT_FAILED))/$TOTAL_SCENARIOS scenarios passed, $TOTAL_CHECKS checks; Skills extension: $((EXT_TOTAL - EXT_FAILED))/$EXT_TOTAL, $EXT_CHECKS checks"
[[ $FAILED -eq 0 ]] || { echo "== conformance client FAILED"; exit 1; }
echo "== conformance client passed"
