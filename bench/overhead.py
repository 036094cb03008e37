#!/usr/bin/env python3
"""The tables of bench/overhead.sh, from the files it leaves in DIR.

  bench/overhead.py --bindir LLVM_BIN --input IR --out DIR

DIR holds serial.time (serial clang's -ftime-report), split.time (opt's -time-passes for the
split), time/shard.K.time (each shard compile's -ftime-report), shards/shard.K.bc, shards/shard.K.o,
shards/manifest, serial.o and shard.o. Times are LLVM's timers, user plus system seconds. Python 3
standard library only.
"""

import argparse
import collections
import glob
import os
import re
import subprocess
import sys

NUM = r"([\d.]+) \(\s*[\d.]+%\)"
ROW_RE = re.compile(r"^\s+" + NUM + r"((?:\s+" + NUM + r")+)\s+(\S.*)$")
LINKAGES = ("private", "internal", "available_externally", "linkonce", "weak", "linkonce_odr",
            "weak_odr", "external", "extern_weak", "common", "appending")


def sections(path):
    """[(title, {name: user plus system seconds})] of a timer report."""
    out, header = [], False
    for line in open(path, errors="replace"):
        if line.startswith("===-"):  # a title sits between two of these
            header = not header
            continue
        if header and line.strip():
            out.append((line.strip(), {}))
            continue
        m = ROW_RE.match(line)
        if m and out:
            # user, [system,] user plus system, wall: the next to last
            nums = [float(x) for x in re.findall(r"([\d.]+) \(", line)]
            name = m.group(m.lastindex).strip()
            out[-1][1][name] = out[-1][1].get(name, 0.0) + nums[-2]
    return out


def section(secs, title):
    for t, rows in secs:
        if t == title:
            return rows
    return None


def clang_phases(path):
    rows = section(sections(path), "Clang time report")
    if rows is None or "Optimizer" not in rows:
        sys.exit("overhead.py: %s: no 'Clang time report' with the optimiser's time "
                 "(clang 20 or later's -ftime-report)" % path)
    return {k: rows.get(k, 0.0) for k in ("Front end", "Optimizer", "Machine code generation")}


def passes(path):
    total = collections.Counter()
    for t, rows in sections(path):
        if t == "Pass execution timing report":
            for name, s in rows.items():
                if name != "Total":
                    total[name] += s
    return total


def definitions(bindir, path):
    """Function definitions by linkage (and hidden visibility: the split's promoted locals)
    in bitcode PATH (llvm-dis)."""
    dis = subprocess.run([os.path.join(bindir, "llvm-dis"), path, "-o", "-"], check=True,
                         capture_output=True, text=True).stdout
    count = collections.Counter()
    for line in dis.splitlines():
        if line.startswith("define "):
            words = line.split()[1:5]
            linkage = next((w for w in words if w in LINKAGES), "external")
            count[linkage + (" hidden" if "hidden" in words else "")] += 1
    return count


def text(bindir, paths):
    """size's text column summed over PATHS (llvm-size, Berkeley format)."""
    out = subprocess.run([os.path.join(bindir, "llvm-size")] + paths, check=True,
                         capture_output=True, text=True).stdout.splitlines()[1:]
    return sum(int(line.split()[0]) for line in out if line.split())


def nm_defs(bindir, path):
    """{name: (nm's type letter, size)} of the definitions in object PATH (llvm-nm -S; size 0
    where nm prints none)."""
    out = subprocess.run([os.path.join(bindir, "llvm-nm"), "-S", "--defined-only", path],
                         check=True, capture_output=True, text=True).stdout
    defs = {}
    for line in out.splitlines():
        w = line.split()
        if len(w) == 4:
            defs[w[3]] = (w[2], int(w[1], 16))
        elif len(w) == 3:
            defs[w[2]] = (w[1], 0)
    return defs


def dropped_copies(bindir, d, n):
    """The copies `ld -r` drops: each weak definition a lower-numbered shard's object also
    holds (the link keeps the first), with whether serial's object defines it under its
    name in the input (the manifest's promoted names restored)."""
    old = {}
    for line in open(os.path.join(d, "shards", "manifest")):
        w = line.split()
        if len(w) == 3 and w[0] == "promoted":
            old[w[1]] = w[2]
    serial = nm_defs(bindir, os.path.join(d, "serial.o"))
    seen, drops = set(), collections.defaultdict(list)
    for k in range(n):
        # weak definitions: the copies the link keeps once (comdat groups)
        defs = {name: size for name, (kind, size) in
                nm_defs(bindir, os.path.join(d, "shards", "shard.%d.o" % k)).items()
                if kind in "WV"}
        for name, size in defs.items():
            if name in seen:
                drops[name].append(size)
        seen.update(defs)
    print("\n## copies the link drops: weak definitions a lower-numbered shard also emits")
    print(row(["copies", "functions or variables", "bytes", "of them serial keeps"]))
    print(row(["---:", "---:", "---:", "---:"]))
    kept = {k for k in drops if old.get(k, k) in serial}
    print(row([str(sum(len(v) for v in drops.values())), str(len(drops)),
               str(sum(sum(v) for v in drops.values())), str(len(kept))]))
    if drops:
        print(row(["bytes", "copies dropped", "name", "serially"]))
        print(row(["---:", "---:", "---", "---"]))
        for name in sorted(drops, key=lambda k: (-sum(drops[k]), k))[:8]:
            print(row([str(sum(drops[name])), str(len(drops[name])), name,
                       "kept" if name in kept else "deleted"]))


def row(cells):
    return "| " + " | ".join(cells) + " |"


def seconds(x):
    return "%.2f" % x if x is not None else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bindir", required=True)
    ap.add_argument("--input", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    d = a.out
    times = sorted(glob.glob(os.path.join(d, "time", "shard.*.time")),
                   key=lambda p: int(p.rsplit(".", 2)[1]))
    n = len(times)
    serial = clang_phases(os.path.join(d, "serial.time"))
    shard = collections.Counter()
    for p in times:
        shard.update(clang_phases(p))
    split = sections(os.path.join(d, "split.time"))
    parse = (section(split, "LLVM IR Parsing") or {}).get("Parse IR", 0.0)
    split_passes = (section(split, "Pass execution timing report") or {}).get("Total", 0.0)

    print("## compile CPU seconds (user + system): serial `clang -c` against the sharded build "
          "(%d shard%s, their compiles summed)" % (n, "" if n == 1 else "s"))
    print(row(["phase", "serial", "sharded", "difference"]))
    print(row(["---", "---:", "---:", "---:"]))
    rows = [("split: read the input", None, parse),
            ("split: cost, partition, split (opt's passes)", None, split_passes),
            ("compiles: read the IR (front end)", serial["Front end"], shard["Front end"]),
            ("compiles: optimiser", serial["Optimizer"], shard["Optimizer"]),
            ("compiles: code generation", serial["Machine code generation"],
             shard["Machine code generation"])]
    for name, s, t in rows:
        print(row([name, seconds(s), seconds(t), "%+.2f" % (t - (s or 0.0))]))
    ts = sum(s or 0.0 for _, s, _ in rows)
    tt = sum(t for _, _, t in rows)
    print(row(["total", seconds(ts), seconds(tt),
               "%+.2f (%+.1f%%)" % (tt - ts, 100.0 * (tt - ts) / ts if ts else 0.0)]))

    sp = passes(os.path.join(d, "serial.time"))
    tp = collections.Counter()
    for p in times:
        tp.update(passes(p))
    print("\n## passes of the compiles: the largest differences (seconds)")
    print(row(["difference", "serial", "sharded", "pass"]))
    print(row(["---:", "---:", "---:", "---"]))
    names = sorted(set(sp) | set(tp), key=lambda k: (-abs(tp[k] - sp[k]), k))
    for k in names[:12]:
        print(row(["%+.2f" % (tp[k] - sp[k]), seconds(sp[k]), seconds(tp[k]), k]))

    sd = definitions(a.bindir, a.input)
    td = collections.Counter()
    for k in range(n):
        td.update(definitions(a.bindir, os.path.join(d, "shards", "shard.%d.bc" % k)))
    print("\n## function definitions by linkage: the input's against the shards' summed")
    print(row(["linkage", "input", "shards", "ratio"]))
    print(row(["---", "---:", "---:", "---:"]))
    for k in sorted(set(sd) | set(td), key=lambda k: (-td[k], k)):
        print(row([k, str(sd[k]), str(td[k]), "%.2fx" % (td[k] / sd[k]) if sd[k] else "new"]))
    print(row(["all", str(sum(sd.values())), str(sum(td.values())),
               "%.2fx" % (sum(td.values()) / max(1, sum(sd.values())))]))

    objs = [os.path.join(d, "shards", "shard.%d.o" % k) for k in range(n)]
    so, lo, ss = (text(a.bindir, objs), text(a.bindir, [os.path.join(d, "shard.o")]),
                  text(a.bindir, [os.path.join(d, "serial.o")]))
    print("\n## code and read-only data (size's text column, bytes)")
    print(row(["shards' objects summed", "linked object", "dropped by the link", "serial"]))
    print(row(["---:", "---:", "---:", "---:"]))
    print(row([str(so), str(lo), "%d (%.1f%%)" % (so - lo, 100.0 * (so - lo) / lo if lo else 0),
               str(ss)]))
    dropped_copies(a.bindir, d, n)


if __name__ == "__main__":
    main()
