#!/usr/bin/env python3
"""The loop a user writes to audit an Assay run: one json.loads per line; the caller's tools/call
requests wait by correlation id for their decision record (channel decision); allow records wait
for their arrival upstream (channel delivery); an arrival nothing waits for is denied-but-delivered
(a deny record has its id) or unrecorded. Orphans per channel, crossed pairs against plain FIFO.
  pair_assay.py DECISIONS [--caller FILE] [--upstream FILE]   (peer of `callpair analyze`, bench/run.mjs)"""
import json, sys
from collections import deque

def calls(path):  # the tools/call requests of a JSON-RPC log, with their correlation ids
    with open(path, "rb") as f:
        for line in f:
            m = json.loads(line)
            if m.get("method") == "tools/call":
                yield ((m.get("params") or {}).get("_meta") or {}).get("assay.correlation_id")

def channel(requests, terminals, on_orphan=None):
    waiting, fifo, c = {}, deque(), dict(requests=0, terminals=0, pairs=0, orphanRequests=0, orphanResponses=0, crossed=0)
    for seq, key in enumerate(requests):
        c["requests"] += 1
        waiting.setdefault(key, seq)
        fifo.append(seq)
    for key in terminals:
        c["terminals"] += 1
        shadow = fifo.popleft() if fifo else None
        seq = waiting.pop(key, None)
        if seq is None:
            c["orphanResponses"] += 1
            if on_orphan: on_orphan(key)
            continue
        c["pairs"] += 1
        c["crossed"] += shadow != seq
    c["orphanRequests"] = len(waiting)
    return c

args, decisions, allow, deny = sys.argv[1:], [], [], set()
caller = args[args.index("--caller") + 1] if "--caller" in args else None
upstream = args[args.index("--upstream") + 1] if "--upstream" in args else None
with open(args[0], "rb") as f:
    for line in f:
        r = json.loads(line)
        if r.get("schema") == "assay.enforcement_decision.v0":
            decisions.append(r.get("correlation_id"))
            (allow.append(r.get("correlation_id")) if r.get("decision") == "allow" else deny.add(r.get("correlation_id")))
out = dict(records=len(decisions), allow=len(allow), deny=len(deny), deniedButDelivered=0, unrecordedDelivery=0)
def arrival(key): out["deniedButDelivered" if key in deny else "unrecordedDelivery"] += 1
if caller: out["decision"] = channel(calls(caller), decisions)
if upstream: out["delivery"] = channel(allow, calls(upstream), arrival)
print(json.dumps(out))
