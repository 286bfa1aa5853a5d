#!/usr/bin/env bash
# Before/after check of the three commands that read captures: `analyze --format json`, `pairs`
# and `compare --format json` give byte-identical output (and exit code) with two builds, on every
# capture under fixtures/ (with the profile files shipped beside the real ones) and on every
# call-dense shape of bench/shapes.mjs at a small size.
#
#   bench/same-reports.sh OLD_DIST_MAIN_JS [--lines N]
#
# OLD_DIST_MAIN_JS: e.g. a build of main made in a temporary directory
# (git archive main | tar -x -C DIR && cd DIR && ln -s …/node_modules && npm run build).
# NEW=PATH compares that build instead of dist/cli/main.js (e.g. a copy, so that dist can be rebuilt meanwhile).
# Prints one line per difference and `checked N runs, D differ`; exits 1 on any difference.
set -uo pipefail
cd "$(dirname "$0")/.."
old=$1; shift
lines=4000
[ "${1:-}" = --lines ] && lines=$2
new=${NEW:-dist/cli/main.js}
runs=0
diffs=0
one() { local bin=$1; shift; node "$bin" "$@" 2>&1; echo "exit $?"; }
check() {
  local cmd=$1; shift
  local extra=()
  case $cmd in analyze | compare) extra=(--format json --max-findings 100000) ;; esac
  local a b
  a=$(one "$old" "$cmd" "${extra[@]}" "$@" | md5sum)
  b=$(one "$new" "$cmd" "${extra[@]}" "$@" | md5sum)
  runs=$((runs + 1))
  if [ "$a" != "$b" ]; then echo "DIFF: $cmd $*"; diffs=$((diffs + 1)); fi
}
all() { for c in analyze pairs compare; do check "$c" "$@"; done; }

for f in $(find fixtures -name '*.jsonl' -o -name '*.ndjson' -o -name '*.har.json' | grep -v '/profiles/' | sort); do
  all "$f"
  all --validate-all "$f"
done
for r in run-ids run-noids; do
  for d in fixtures/assay/$r.decisions*.ndjson; do
    all "$d" --caller fixtures/assay/$r.caller.jsonl --upstream fixtures/assay/$r.upstream.jsonl
  done
done
all --profile fixtures/custom/http-profile.json fixtures/custom/http-log.jsonl
for p in fixtures/real/profiles/*.json; do
  for f in $(find fixtures/real -name '*.jsonl' -not -path '*/profiles/*' | sort); do all --profile "$p" "$f"; done
done
for p in fixtures/custom/lang/*.json; do
  for f in $(find fixtures/custom/lang -name '*.jsonl' | sort); do all --profile "$p" "$f"; done
done

# The call-dense shapes, small, each read with its own arguments.
dir=$(mktemp -d "${TMPDIR:-/tmp}/callpair-same-XXXXXX")
for s in $(node bench/shapes.mjs --list | awk '{print $1}'); do
  n=$lines; [ "$s" = custom6 ] && n=400
  args=$(node bench/shapes.mjs "$s" --lines "$n" --dir "$dir/$s" | node -e 'console.log(JSON.parse(require("fs").readFileSync(0, "utf8")).args.join(" "))')
  # shellcheck disable=SC2086
  all $args
done
rm -rf "$dir"
echo "checked $runs runs, $diffs differ"
[ "$diffs" = 0 ]
