#!/usr/bin/env bash
# Re-audit a pull request: score its base and head commits with the same rubric, write the re-audit
# log (markdown) to the job summary, write SARIF for code scanning, and apply the gates.
#
# The target is only ever read through `agent-audit score --commit` (git object store, no checkout, no
# hooks); nothing of it is installed, built or run. Inputs come from the environment, never from
# text pasted into this script, so a pull request cannot inject shell.
#
#   AUDIT_BASE_SHA, AUDIT_HEAD_SHA   commits to compare (required)
#   AUDIT_REPO                       the local git repository to read (default: .)
#   AUDIT_OUT_DIR                    where base.json, head.json, head.sarif, diff.md go
#                                    (default: $RUNNER_TEMP/agent-audit, else $TMPDIR/agent-audit)
#   AUDIT_RUBRIC                     rubric folder (default: the bundled one)
#   AUDIT_FAIL_UNDER                 fail when the head total is below this (default: no such gate)
#   AUDIT_FAIL_ON_REGRESSION         true: fail on a dropped level, a new cap or a new critical gap (default: false)
#   AUDIT_SARIF_MIN_LEVEL            report dimensions below this level in SARIF (default: 2)
#   AUDIT_CLI                        the auditor's cli.js (default: dist/cli.js beside this script)
#   GITHUB_STEP_SUMMARY, GITHUB_OUTPUT   set by GitHub Actions; used when present
#
# Exit codes, as the CLI's: 0 pass, 1 a gate failed (every file is still written), 2 bad input, 3 internal error.
set -euo pipefail

die() {
  echo "ci-audit: $*" >&2
  exit 2
}

[ -n "${AUDIT_BASE_SHA:-}" ] || die "AUDIT_BASE_SHA is not set (expected the base commit of the pull request)"
[ -n "${AUDIT_HEAD_SHA:-}" ] || die "AUDIT_HEAD_SHA is not set (expected the head commit of the pull request)"
tool_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cli=${AUDIT_CLI:-$tool_dir/dist/cli.js}
[ -f "$cli" ] || die "$cli not found (expected the built auditor: npm ci && npm run build in $tool_dir)"
repo=${AUDIT_REPO:-.}
out=${AUDIT_OUT_DIR:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/agent-audit}
mkdir -p "$out"

common=()
[ -z "${AUDIT_RUBRIC:-}" ] || common+=(--rubric "$AUDIT_RUBRIC")
gates=()
[ -z "${AUDIT_FAIL_UNDER:-}" ] || gates+=(--fail-under "$AUDIT_FAIL_UNDER")
case "${AUDIT_FAIL_ON_REGRESSION:-false}" in
  true) gates+=(--fail-on-regression) ;;
  false | '') ;;
  *) die "AUDIT_FAIL_ON_REGRESSION='${AUDIT_FAIL_ON_REGRESSION}': expected true or false" ;;
esac

agent_audit() { node "$cli" "$@"; }

# 1. The base, then the head against it. The gates run on the head and only decide the exit code.
# (${a[@]+"${a[@]}"} expands an empty array safely under `set -u` on every bash.)
agent_audit score "$repo" --commit "$AUDIT_BASE_SHA" --format json --out "$out/base.json" ${common[@]+"${common[@]}"}
status=0
agent_audit score "$repo" --commit "$AUDIT_HEAD_SHA" --format json --out "$out/head.json" --baseline "$out/base.json" \
  ${common[@]+"${common[@]}"} ${gates[@]+"${gates[@]}"} 2>"$out/gate.txt" || status=$?
cat "$out/gate.txt" >&2
[ "$status" -le 1 ] || exit "$status"

# 2. SARIF for code scanning and the re-audit log, written whether or not a gate failed.
agent_audit score "$repo" --commit "$AUDIT_HEAD_SHA" --format sarif --sarif-min-level "${AUDIT_SARIF_MIN_LEVEL:-2}" --out "$out/head.sarif" ${common[@]+"${common[@]}"}
agent_audit diff "$out/base.json" "$out/head.json" --out "$out/diff.md"

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    cat "$out/diff.md"
    if [ "$status" -eq 1 ]; then
      # The gate line is the auditor's own text (rubric ids, levels, numbers), shown verbatim.
      printf '\n## Gate failed\n\n```text\n%s\n```\n' "$(cat "$out/gate.txt")"
    fi
  } >>"$GITHUB_STEP_SUMMARY"
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "base-json=$out/base.json"
    echo "head-json=$out/head.json"
    echo "sarif=$out/head.sarif"
    echo "diff=$out/diff.md"
    echo "exit-code=$status"
  } >>"$GITHUB_OUTPUT"
fi
exit "$status"
