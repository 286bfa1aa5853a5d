#!/usr/bin/env python3
"""The script a user writes today: a json.loads loop that FIFO-pairs llm:request with
llm:response / provider:error per session, and counts orphans. (The peer of `callpair analyze`
in bench/run.mjs; it knows nothing of ids, shadows, signatures or findings.)"""
import json
import sys
from collections import defaultdict, deque

TERMINALS = ("llm:response", "provider:error")


def main(path):
    open_reqs = defaultdict(deque)
    pairs = orphans_resp = lines = malformed = 0
    with open(path, "rb") as f:
        for line in f:
            lines += 1
            try:
                rec = json.loads(line)
            except ValueError:
                malformed += 1
                continue
            if not isinstance(rec, dict):
                continue
            ev = rec.get("event")
            data = rec.get("data") if isinstance(rec.get("data"), dict) else {}
            sid = rec.get("session_id", data.get("session_id"))
            if ev == "llm:request":
                open_reqs[sid].append(rec.get("ts") or rec.get("timestamp"))
            elif ev in TERMINALS:
                q = open_reqs[sid]
                if q:
                    q.popleft()
                    pairs += 1
                else:
                    orphans_resp += 1
    orphans_req = sum(len(q) for q in open_reqs.values())
    print(json.dumps({"lines": lines, "malformed": malformed, "pairs": pairs,
                      "orphanRequests": orphans_req, "orphanResponses": orphans_resp}))


if __name__ == "__main__":
    main(sys.argv[1])
