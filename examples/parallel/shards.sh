#!/bin/sh
# GNU parallel (Debian `parallel`): analyse the *.jsonl files under captures/ in shards of N files,
# J at a time, merge the shard reports into merged.json and render its Markdown step summary
# (docs/scale-out.md). A shard's exit 1 (its gate failed) still wrote its report.
#   CALLPAIR  the command (default: npx callpair)   J  jobs at once (8)   N  files per shard (200)
#   add --sshlogin host1,host2 to the parallel line to spread the shards over machines
set -eu
CALLPAIR=${CALLPAIR:-npx callpair}
mkdir -p shards
find captures -type f -name '*.jsonl' | sort \
  | parallel --will-cite -j "${J:-8}" -N "${N:-200}" "$CALLPAIR analyze {} -f json -o shards/{#}.json || [ \$? -eq 1 ]"
$CALLPAIR merge shards/*.json -o merged.json || [ $? -eq 1 ]
$CALLPAIR render merged.json -f markdown --step-summary || [ $? -eq 1 ]
