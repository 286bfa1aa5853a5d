#!/usr/bin/env python3
"""The loop a user writes to pair Amplifier llm:request with llm:response / provider:error: one
json.loads per line, pair by request_id (a dict), else the oldest open request of the session
(FIFO), count orphans, and count crossed pairs (id pairs a plain FIFO would have got wrong).
The peer of `callpair analyze` on bench/shapes.mjs's amp-* shapes (bench/run.mjs)."""
import json, sys
from collections import defaultdict, deque

open_calls = defaultdict(dict)   # session -> {seq: request_id or None}, oldest first
by_id = defaultdict(dict)        # session -> {request_id: seq}
fifo = defaultdict(deque)        # session -> what plain FIFO would pair (knows no ids)
closed = defaultdict(set)
n = dict(requests=0, terminals=0, pairs=0, orphanRequests=0, orphanResponses=0, duplicateTerminals=0, crossed=0)
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        for line in f:
            rec = json.loads(line)
            ev, sid, rid = rec.get("event"), rec.get("session_id"), rec.get("request_id") or None
            if ev == "llm:request":
                n["requests"] += 1
                seq = n["requests"]
                open_calls[sid][seq] = rid
                fifo[sid].append(seq)
                if rid: by_id[sid].setdefault(rid, seq)
            elif ev in ("llm:response", "provider:error"):
                n["terminals"] += 1
                shadow = fifo[sid].popleft() if fifo[sid] else None
                o = open_calls[sid]
                seq = by_id[sid].pop(rid, None) if rid else None
                if seq is not None:
                    n["crossed"] += shadow != seq
                else:  # no id match: the oldest open request (without an id, if the terminal has one)
                    seq = next((s for s, r in o.items() if not (rid and r)), None)
                    if seq is not None and o[seq]: by_id[sid].pop(o[seq], None)
                if seq is None:
                    n["duplicateTerminals" if rid in closed[sid] else "orphanResponses"] += 1
                    continue
                n["pairs"] += 1
                if o[seq]: closed[sid].add(o[seq])
                del o[seq]
n["orphanRequests"] = sum(len(o) for o in open_calls.values())
print(json.dumps(n))
