#!/usr/bin/env python3
"""check-report.py LOCAL.json SLURM.json: prints what slurm.test checks of the two --report
files of sqlite3.c: the local build's shards have the fields they always had and no node; the
Slurm build's have the node and the step that ran them and the compile's peak memory."""
import json
import re
import sys

OLD = {"id", "predicted_cost", "functions", "seconds", "peak_rss_kib", "cache"}
local, slurm = (json.load(open(p))["shard"] for p in sys.argv[1:3])
print("local report fields:", "as before" if all(set(s) == OLD for s in local) else
      [sorted(set(s) - OLD) for s in local])
nodes = sorted({s.get("node", "NONE") for s in slurm})
print("slurm report nodes:", " ".join(nodes))
bad = [s["id"] for s in slurm if set(s) != OLD | {"node", "step"} or
       not re.fullmatch(r"[0-9]+\.[0-9]+", s["step"])]
print("slurm report steps:", "all" if not bad else "missing or malformed for shards %s" % bad)
low = [s["id"] for s in slurm if not 20 << 10 < s["peak_rss_kib"] < 8 << 20]
print("slurm report peaks:", "all 20 MiB to 8 GiB" if not low else "implausible for shards %s" % low)
