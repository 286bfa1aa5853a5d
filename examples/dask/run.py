#!/usr/bin/env python3
"""Map `callpair analyze` over shards of a capture tree on a Dask cluster, then `callpair merge`.

    python3 examples/dask/run.py captures --shards 8 --out merged.json [--callpair "npx callpair"]

Starts a LocalCluster of 2 worker processes (point --scheduler at a real cluster instead); every
shard is a list of capture files (one session per file, so shards are scope-disjoint); each worker
runs `callpair analyze FILES -f json -o shard-K.json` with the working directory of this script's
caller, so the paths in the reports are the paths a single run over CAPTURES would print. The merge
is byte-identical to `callpair analyze CAPTURES -f json` (docs/scale-out.md). Exit code: merge's.
"""
import argparse
import os
import shlex
import subprocess
import sys
import tempfile

from dask.distributed import Client, LocalCluster


def capture_files(root):
    """Capture files under root, in the order callpair walks a directory (sorted per directory)."""
    out = []
    for entry in sorted(os.listdir(root)):
        p = os.path.join(root, entry)
        if os.path.isdir(p):
            out.extend(capture_files(p))
        elif entry.endswith((".jsonl", ".ndjson", ".json", ".jsonl.gz", ".ndjson.gz", ".json.gz")):
            out.append(p)
    return out


def analyze_shard(files, out, callpair, cwd, options):
    """Runs on a worker: one shard's report. Exit 1 (the shard's gate failed) still wrote a report."""
    r = subprocess.run([*callpair, "analyze", *files, "-f", "json", "-o", out, *options], cwd=cwd, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise RuntimeError(f"callpair analyze failed ({r.returncode}): {r.stderr.strip()}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("captures")
    ap.add_argument("--shards", type=int, default=8)
    ap.add_argument("--out", default="merged.json")
    ap.add_argument("--callpair", default="npx callpair", help="how to run callpair (a command line)")
    ap.add_argument("--scheduler", default=None, help="address of a running Dask scheduler (default: a LocalCluster of 2 processes)")
    ap.add_argument("--workdir", default=None, help="where shard reports go (default: a temporary directory)")
    ap.add_argument("options", nargs="*", help="analyze options, the same for every shard (after --)")
    a = ap.parse_args()

    callpair = shlex.split(a.callpair)
    cwd = os.getcwd()
    files = capture_files(a.captures)
    if not files:
        print(f"no capture files under {a.captures}", file=sys.stderr)
        return 2
    n = max(1, min(a.shards, len(files)))
    shards = [files[i::n] for i in range(n)]
    work = a.workdir or tempfile.mkdtemp(prefix="callpair-dask-")
    os.makedirs(work, exist_ok=True)
    outs = [os.path.join(work, f"shard-{i:05d}.json") for i in range(n)]

    if a.scheduler:
        client = Client(a.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        futures = client.map(analyze_shard, shards, outs, callpair=callpair, cwd=cwd, options=a.options, pure=False)
        reports = client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return subprocess.run([*callpair, "merge", *reports, "-o", a.out], cwd=cwd).returncode


if __name__ == "__main__":
    sys.exit(main())
