# Per-caller calls, errors, tokens and mean latency from `callpair pairs` lines, streaming
# (docs/report.md): jq -nr -f examples/jq/per-caller.jq
  reduce (inputs | select(.type == "call")) as $c ({};
    .[$c.caller] |= {
      calls: (.calls + 1),
      errors: (.errors + (if $c.status != null and $c.status != "ok" then 1 else 0 end)),
      input: (if $c.usage.inputTokens == null then .input else .input + $c.usage.inputTokens end),
      output: (if $c.usage.outputTokens == null then .output else .output + $c.usage.outputTokens end),
      ms: (.ms + ($c.latencyMs // 0)),
      timed: (.timed + (if $c.latencyMs == null then 0 else 1 end))
    })
  | ["caller", "calls", "errors", "input", "output", "mean_ms"],
    (to_entries[] | [.key, .value.calls, .value.errors, .value.input, .value.output,
                     (if .value.timed > 0 then .value.ms / .value.timed | floor else null end)])
  | @tsv
