#!/usr/bin/env bash
# Before/after check: every fixture, every call-dense shape of bench/shapes.mjs (small) and every
# file given gives a byte-identical JSON report with two builds (and with --jobs 1, 2, 3 of the new
# one).   bench/compare-builds.sh OLD_DIST_MAIN_JS [files…]
set -uo pipefail
cd "$(dirname "$0")/.."
old=$1; shift
new=dist/cli/main.js
fail=0
run() { local bin=$1; shift; node "$bin" analyze --format json --max-findings 100000 "$@" 2>&1; echo "exit $?"; }
check() {
  local a b
  a=$(run "$old" "$@" | md5sum)
  for j in 1 2 3; do
    b=$(run "$new" --jobs $j "$@" | md5sum)
    if [ "$a" != "$b" ]; then echo "DIFF (--jobs $j): $*"; fail=1; fi
  done
  echo "checked: $*"
}
for f in fixtures/*.jsonl "$@"; do check "$f"; check --validate-all "$f"; done
check fixtures/assay/contract.v0.ndjson
for r in run-ids run-noids; do
  for d in fixtures/assay/$r.decisions*.ndjson; do
    check "$d" --caller fixtures/assay/$r.caller.jsonl --upstream fixtures/assay/$r.upstream.jsonl
    check "$d" --caller fixtures/assay/$r.caller.jsonl
    check "$d" --upstream fixtures/assay/$r.upstream.jsonl
  done
done
check --profile fixtures/custom/http-profile.json fixtures/custom/http-log.jsonl
# The call-dense shapes (bench/shapes.mjs), small: every shape read with its own arguments.
shapes_dir=$(mktemp -d "${TMPDIR:-/tmp}/callpair-shapes-XXXXXX")
for s in $(node bench/shapes.mjs --list | awk '{print $1}'); do
  lines=20000; [ "$s" = custom16 ] && lines=400
  args=$(node bench/shapes.mjs "$s" --lines $lines --dir "$shapes_dir/$s" | node -e 'console.log(JSON.parse(require("fs").readFileSync(0, "utf8")).args.join(" "))')
  # shellcheck disable=SC2086
  check $args
done
rm -rf "$shapes_dir"
# Real captures (fixtures/real): with auto, and with every profile file shipped beside them.
if [ -d fixtures/real ]; then
  for f in $(find fixtures/real -name '*.jsonl' -o -name '*.json' -not -path '*/profiles/*' | sort); do
    check "$f"
    for p in fixtures/real/profiles/*.json; do check --profile "$p" "$f"; check --profile "auto,$p" "$f"; done
  done
fi
exit $fail
