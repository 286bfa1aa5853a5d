#!/usr/bin/env python3
"""The loop a user writes to pair a JSON-RPC 2.0 transcript: one json.loads per line, a request
(method + id) waits in a dict by its typed id (9 and "9" differ), a response (result or error)
closes it; notifications are skipped; count orphans and crossed pairs (responses a plain FIFO
would have given another request). The peer of `callpair analyze` on jsonrpc-* (bench/run.mjs)."""
import json, sys
from collections import deque

open_calls, fifo, closed = {}, deque(), set()
n = dict(requests=0, terminals=0, pairs=0, orphanRequests=0, orphanResponses=0, duplicateTerminals=0, crossed=0)
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        for line in f:
            msg = json.loads(line)
            rid = msg.get("id")
            key = (type(rid).__name__, rid)
            if "method" in msg:
                if rid is None: continue  # a notification
                n["requests"] += 1
                open_calls.setdefault(key, n["requests"])
                fifo.append(n["requests"])
            elif "result" in msg or "error" in msg:
                n["terminals"] += 1
                shadow = fifo.popleft() if fifo else None
                seq = open_calls.pop(key, None) if rid is not None else None
                if seq is None:
                    n["duplicateTerminals" if key in closed else "orphanResponses"] += 1
                    continue
                n["pairs"] += 1
                n["crossed"] += shadow != seq
                closed.add(key)
n["orphanRequests"] = len(open_calls)
print(json.dumps(n))
