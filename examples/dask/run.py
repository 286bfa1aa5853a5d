#!/usr/bin/env python3
"""Map `callpair analyze` over shards of a capture tree on a Dask cluster, then `callpair merge`.

    python3 examples/dask/run.py captures --shards 8 --out merged.json [--callpair "npx callpair"]

Starts a LocalCluster of 2 worker processes (point --scheduler at a real cluster instead); every
shard is a list of capture files (one session per file, so shards are scope-disjoint); each worker
runs `callpair analyze FILES -f json -o shard-K.json` with the working directory of this script's
caller, so the paths in the reports are the paths a single run over CAPTURES would print. The merge
is byte-identical to `callpair analyze CAPTURES -f json` (docs/scale-out.md). Exit code: merge's.
Run by a python3 that cannot import Dask, it runs itself again with the first python3 on PATH (or
/usr/bin/python3) that can, or says which to install and use.
"""
import argparse
import os
import shlex
import subprocess
import sys
import tempfile



def dask_interpreter():
    """The first python3 on PATH (then /usr/bin, /usr/local/bin) that can import Dask distributed.

    The python3 first on PATH (a virtualenv, pyenv, conda) is often not the one Dask is installed
    for (Debian's python3-distributed is for /usr/bin/python3)."""
    seen = set()
    dirs = os.environ.get("PATH", "").split(os.pathsep) + ["/usr/bin", "/usr/local/bin"]
    for d in dirs:
        cand = os.path.join(d, "python3")
        if cand in seen or not os.access(cand, os.X_OK):
            continue
        seen.add(cand)
        # This interpreter cannot import it (we are here): one that can is another setup, and
        # CALLPAIR_DASK_REEXEC keeps it from ever running itself again.
        if subprocess.run([cand, "-c", "import distributed"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
            return cand
    return None


try:
    from dask.distributed import Client, LocalCluster
except ImportError:
    other = None if os.environ.get("CALLPAIR_DASK_REEXEC") else dask_interpreter()
    if other is None:
        sys.exit(
            f"run.py: Dask distributed cannot be imported by {sys.executable}, nor by any python3 on PATH or in /usr/bin: "
            "install it (Debian: apt-get install python3-distributed, for /usr/bin/python3; or pip install 'distributed') "
            "and run this script with that interpreter"
        )
    print(f"run.py: {sys.executable} has no Dask; running with {other}", file=sys.stderr)
    os.environ["CALLPAIR_DASK_REEXEC"] = "1"
    os.execv(other, [other, *sys.argv])


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
