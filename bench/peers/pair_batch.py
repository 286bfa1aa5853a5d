#!/usr/bin/env python3
"""The loop a user writes to join OpenAI Batch input and output files by custom_id: one
json.loads per line, inputs wait in a dict, outputs close them; count failures (status >= 400 or
an error) and orphans. The peer of `callpair analyze` on the batch shape (bench/run.mjs)."""
import json, sys

open_calls, closed = {}, set()
n = dict(requests=0, terminals=0, pairs=0, orphanRequests=0, orphanResponses=0, duplicateTerminals=0, failed=0)
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        for line in f:
            rec = json.loads(line)
            cid = rec.get("custom_id")
            if "body" in rec and "method" in rec:
                n["requests"] += 1
                open_calls.setdefault(cid, rec.get("body", {}).get("model"))
            elif "response" in rec or "error" in rec:
                n["terminals"] += 1
                status = (rec.get("response") or {}).get("status_code") or 0
                n["failed"] += bool(rec.get("error")) or status >= 400
                if open_calls.pop(cid, False) is False:
                    n["duplicateTerminals" if cid in closed else "orphanResponses"] += 1
                    continue
                n["pairs"] += 1
                closed.add(cid)
n["orphanRequests"] = len(open_calls)
print(json.dumps(n))
