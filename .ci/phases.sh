# Sourced by .ci/run (and by scripts/test/ci-run.test.ts): `phase NAME COMMAND…` runs one phase of CI,
# prints its time, and a table of every phase's time ends the log on exit, also when a phase fails.
# A failed phase's failed tests (the test runner's top-level `not ok` lines, `✖` in the spec
# reporter) are listed after the table, since a long log may be kept only in part.
# The caller sets `set -euo pipefail`: a failed phase returns its status, which ends CI with it.
PHASES=()
FAILED_TESTS=()
phase_log=$(mktemp)
ci_start=$SECONDS
report() {
  local status=$?
  rm -f "$phase_log"
  echo
  echo "=== CI phases (seconds) ==="
  local row
  for row in ${PHASES[@]+"${PHASES[@]}"}; do echo "  $row"; done
  echo "  total: $((SECONDS - ci_start)) s, exit $status"
  if [ ${#FAILED_TESTS[@]} -gt 0 ]; then
    echo "=== failed tests ==="
    for row in "${FAILED_TESTS[@]}"; do echo "  $row"; done
  fi
}
trap report EXIT

# phase NAME COMMAND…: runs the command, prints and records its time; its failure fails CI (set -e).
phase() {
  local name=$1
  shift
  local start=$SECONDS status=0
  echo "=== $name ==="
  # The phase's output goes to the log as it comes, and to a file read back only if it fails.
  { "$@" 2>&1 | tee "$phase_log"; } || status=$?
  if [ "$status" -ne 0 ]; then
    local line
    while IFS= read -r line; do FAILED_TESTS+=("$name: $line"); done < <(grep -aE '^(not ok [0-9]+ - |✖ )' "$phase_log" | head -n 50)
  fi
  local row="$name: $((SECONDS - start)) s$([ "$status" -eq 0 ] || echo ", FAILED (exit $status)")"
  PHASES+=("$row")
  echo "=== $row ==="
  return "$status"
}
