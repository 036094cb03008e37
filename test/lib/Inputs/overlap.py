# overlap.py N TRACE: fails unless at most N shard jobs of the Chrome trace TRACE (--time-trace)
# ran at once.
import json, sys

n, path = int(sys.argv[1]), sys.argv[2]
ev = [e for e in json.load(open(path))["traceEvents"] if e["name"].startswith("shard ")]
points = sorted([(e["ts"], 1) for e in ev] + [(e["ts"] + e["dur"], -1) for e in ev],
                key=lambda p: (p[0], p[1]))  # an end before a start at the same time
most = cur = 0
for _, d in points:
    cur += d
    most = max(most, cur)
print("%d shard jobs, at most %d at once" % (len(ev), most))
sys.exit(0 if ev and most <= n else 1)
