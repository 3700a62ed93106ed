# Sourced by .ci/run (and by scripts/test/ci-run.test.ts): `phase NAME COMMAND…` runs one phase of CI,
# prints its time, and a table of every phase's time ends the log on exit, also when a phase fails.
# The caller sets `set -euo pipefail`: a failed phase returns its status, which ends CI with it.
PHASES=()
ci_start=$SECONDS
report() {
  local status=$?
  echo
  echo "=== CI phases (seconds) ==="
  local row
  for row in ${PHASES[@]+"${PHASES[@]}"}; do echo "  $row"; done
  echo "  total: $((SECONDS - ci_start)) s, exit $status"
}
trap report EXIT

# phase NAME COMMAND…: runs the command, prints and records its time; its failure fails CI (set -e).
phase() {
  local name=$1
  shift
  local start=$SECONDS status=0
  echo "=== $name ==="
  "$@" || status=$?
  local row="$name: $((SECONDS - start)) s$([ "$status" -eq 0 ] || echo ", FAILED (exit $status)")"
  PHASES+=("$row")
  echo "=== $row ==="
  return "$status"
}
