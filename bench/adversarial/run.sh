#!/usr/bin/env bash
# Adversarial input, bounded memory (issue 7): each case streams a generated capture into
# `callpair analyze -` (nothing is written to disk, nothing kept in git) and measures the peak RSS
# with GNU time (`apt-get install time` if /usr/bin/time is missing). Prints one Markdown row per case.
#
#   bench/adversarial/run.sh            all cases (several minutes)
#   bench/adversarial/run.sh scopes     only the cases whose name contains "scopes"
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time" >&2; exit 2; }
[ -f dist/cli/main.js ] || npm run build >/dev/null
out=${TMPDIR:-/tmp}/callpair-adversarial
mkdir -p "$out"
filter=${1:-}

# name | generator args | callpair args | node expression over the report `r` that summarises it |
# the case's memory bound in MB (docs/design.md §8: live heap ≲ B + a·O + s·H + w·W + 3·L), which
# is also given to node as --max-old-space-size, so exit 0 shows the case runs within its bound
cases=(
  "open-calls-2M-max100k|open-calls 2000000|--max-open-calls 100000|(c=>\`requests \${c.requests}, orphans \${c.orphanRequests}, evicted \${c.evictedRequests}\`)(r.channels[0])|491"
  "open-calls-1M-default|open-calls 1000000||(c=>\`requests \${c.requests}, orphans \${c.orphanRequests}, evicted \${c.evictedRequests}\`)(r.channels[0])|491"
  "huge-line-2GB|huge-line 2147483648||\`lines \${r.totals.lines}, oversized \${r.totals.oversized}, pairs \${r.channels[0].pairs.total}\`|371"
  "minified-document-256MB|doc-line 268435456||\`format \${r.inputs[0].format}, lines \${r.totals.lines}, records \${r.totals.records}, pairs \${r.channels[0].pairs.total}\`|371"
  "scopes-100k|scopes 100000||\`scopes \${r.channels[0].scopeCount}, pairs \${r.channels[0].pairs.total}\`|746"
  "deep-nesting-30x100k|deep 30 100000|--validate-all|\`lines \${r.totals.lines}, records \${r.totals.records}, malformed \${r.totals.malformed}, invalid ids \${r.findingCounts.INVALID_ID}\`|371"
  "stale-open-100k+100k|stale-open 100000 100000||(c=>\`pairs \${c.pairs.total}, orphans \${c.orphanRequests}, crossed \${c.crossed.fifo}\`)(r.channels[0])|491"
  "many-scopes-1M|many-scopes 1000000||(c=>\`scopes \${c.scopeCount}, folded \${c.scopesFolded}, listed \${c.scopes.length}, pairs \${c.pairs.total}\`)(r.channels[0])|746"
  "many-scopes-1M-max10|many-scopes 1000000|--max-scopes 10|(c=>\`scopes \${c.scopeCount}, folded \${c.scopesFolded}, listed \${c.scopes.length}, pairs \${c.pairs.total}\`)(r.channels[0])|446"
  "long-strings-10k-x-100KB|long-strings 10000 100000||\`requests \${r.channels[0].requests}, scopes \${r.channels[0].scopeCount}\`|516"
)

echo "| case | callpair args | bound (old-space cap) | peak RSS | wall | exit | report |"
echo "|---|---|---:|---:|---:|---:|---|"
for c in "${cases[@]}"; do
  IFS='|' read -r name gen args expr bound <<<"$c"
  [[ -n "$filter" && "$name" != *"$filter"* ]] && continue
  # shellcheck disable=SC2086
  set +e
  node bench/adversarial/gen.mjs $gen | /usr/bin/time -v -o "$out/$name.time" node --max-old-space-size="$bound" dist/cli/main.js analyze --format json $args - >"$out/$name.json" 2>"$out/$name.err"
  code=$?
  set -e
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f MB", $2/1024}' "$out/$name.time")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$out/$name.time")
  summary=$(node -e "const r=JSON.parse(require('fs').readFileSync(process.argv[1],'utf8')); console.log($expr)" "$out/$name.json" 2>/dev/null || echo "no report: $(head -c 200 "$out/$name.err")")
  echo "| $name | ${args:-(defaults)} | $bound MB | $rss | $wall | $code | $summary |"
done
