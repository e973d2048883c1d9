# Sourced by .ci/conformance.sh and .ci/conformance-client.sh: when CONFORMANCE_RESULTS names a file, each
# scenario's outcome is appended to it as one JSON line, which docs/scripts/conformance.mjs sums up into the
# docs site's conformance page (the evidence SDK listings read tiers from).
#
#   record <side> <revision> <scenario> <kind> <result> <checks passed> <checks failed> <warnings>
#
# side: server|client; kind: scored|unscored|extension; result: pass|fail|xfail.
record() {
  [[ -n "${CONFORMANCE_RESULTS:-}" ]] || return 0
  printf '{"side":"%s","revision":"%s","scenario":"%s","kind":"%s","result":"%s","checks":{"passed":%d,"failed":%d,"warnings":%d}}\n' \
    "$1" "$2" "$3" "$4" "$5" "${6:-0}" "${7:-0}" "${8:-0}" >>"$CONFORMANCE_RESULTS"
}
