#!/usr/bin/env python3
"""Differential fuzzer of shard-partition and shard-split (docs/robustness.md).

Generates modules (llvm-stress functions, several of them linked, generated IR that
exercises what the partitioner must handle, small C and C++ programs, sqlite3.c), splits
each with random shard counts and split limits, and checks the shards against the input:
every shard verifies, every definition lands where it must, the shards link, and the
driver's object has the symbols of `clang -O2 -c` (and, for programs, the same output).

  fuzz.py --cases N --seed S --jobs J --build B [--keep DIR] [--sqlite K]

prints one line per failure (the check, and the directory that reproduces it) and then
`N cases, F failures`; exit status 1 when there were failures.
"""
import argparse
import multiprocessing
import os
import random
import re
import shutil
import sys
import tempfile

from cgen import CGen
from checks import Mod, check_objects, check_split, read_manifest
from irgen import IRGen
from tools import RUN_TIMEOUT, Env, Failure, bindir_of, run


# --------------------------------------------------------------------------------------
# One module and its cases


def split_params(r, tiny, sizes):
    """Random split limits (all at 0 sometimes: the naive split)."""
    if r.random() < 0.1:
        p = {"import-cost": 0, "local-import-cost": 0, "dup-cost": 0, "import-depth": 0,
             "const-bytes": 0}
        if tiny:
            p["tiny-cost"] = 0
        if sizes:
            p["import-size"] = p["tiny-size"] = p["decl-size"] = 0
        return p
    p = {}
    if r.random() < 0.5:
        p["import-cost"] = r.choice([0, 5, 30, 125, 400, 100000])
    if r.random() < 0.5:
        p["dup-cost"] = r.choice([0, 5, 60, 200, 100000])
    if r.random() < 0.4:
        p["import-depth"] = r.choice([0, 0, 1, 2, 3, 16])
    if r.random() < 0.3:
        p["const-bytes"] = r.choice([0, 8, 64, 4096, 1 << 20])
    if r.random() < 0.3 and tiny:
        p["tiny-cost"] = r.choice([0, 5, 30, 100, 100000])
    if r.random() < 0.4:
        p["local-import-cost"] = r.choice([0, 5, 30, 125, 400, 100000])
    if r.random() < 0.3 and sizes:
        p["import-size"] = r.choice([0, 10, 55, 200, 100000])
    if r.random() < 0.2 and sizes:
        p["tiny-size"] = r.choice([0, 10, 25, 100000])
    if r.random() < 0.2 and sizes:
        p["decl-size"] = r.choice([0, 10, 30, 100000])
    return p


def make_input(env, r, kind, d, cache):
    """Writes d/in.bc for a module of the given kind; returns the language of a program
    to run ("c" or "c++"), or None."""
    ll = os.path.join(d, "gen.ll")
    bc = os.path.join(d, "in.bc")
    if kind == "stress":
        size = r.choice([1, 3, 10, 30, 100, 300, 1000, 3000])
        run([env.tool("llvm-stress"), "-seed", str(r.randrange(1 << 30)), "-size", str(size),
             "-o", ll], "generate")
    elif kind == "stress-multi":
        parts = []
        k = r.randint(2, 8)
        names = []
        for i in range(k):
            t = os.path.join(d, "part%d.ll" % i)
            run([env.tool("llvm-stress"), "-seed", str(r.randrange(1 << 30)), "-size",
                 str(r.choice([2, 5, 20, 60, 200])), "-o", t], "generate")
            with open(t) as f:
                text = f.read()
            link = r.choice(["", "", "internal", "internal", "private", "linkonce_odr",
                             "weak", "weak_odr", "hidden"])
            name = "s%d" % i
            comdat = " comdat" if link == "linkonce_odr" and r.random() < 0.8 else ""
            text = re.sub(r"define void @autogen_SD\d+\((.*)\) \{",
                          lambda m: "define %svoid @%s(%s)%s {" % (
                              link + " " if link else "", name, m.group(1), comdat), text)
            if comdat:
                text += "\n$%s = comdat any\n" % name
            # Locals stay local to their part: callers live in the same part, and call
            # earlier parts' public functions.
            callers = []
            if names:
                callers.append("declare void @%s(ptr, ptr, ptr, i32, i64, i8)" % names[-1])
            for j in range(r.randint(1, 3)):
                callers.append("define %svoid @call%d_%d(ptr %%p, i32 %%n, i64 %%w, i8 %%b) {\n"
                               "  call void @%s(ptr %%p, ptr %%p, ptr %%p, i32 %%n, i64 %%w, "
                               "i8 %%b)\n%s  ret void\n}" % (
                                   r.choice(["", "internal "]), i, j, name,
                                   "" if not names else
                                   "  call void @%s(ptr %%p, ptr %%p, ptr %%p, i32 %%n, "
                                   "i64 %%w, i8 %%b)\n" % names[-1]))
            if r.random() < 0.4:
                callers.append("@tab%d = %sconstant [1 x ptr] [ptr @%s]" % (
                    i, r.choice(["", "internal ", "private unnamed_addr "]), name))
            if link not in ("internal", "private"):
                names.append(name)
            with open(t, "w") as f:
                f.write(text + "\n" + "\n".join(callers) + "\n")
            parts.append(t)
        run([env.tool("llvm-link")] + parts + ["-o", bc], "generate")
        return None
    elif kind == "ir":
        with open(ll, "w") as f:
            f.write(IRGen(r).generate())
    elif kind in ("c", "c++"):
        src = os.path.join(d, "prog.c" if kind == "c" else "prog.cpp")
        with open(src, "w") as f:
            f.write(CGen(r, kind == "c++").generate())
        flags = ["-x", "c++", "-fno-exceptions"] if kind == "c++" else []
        if r.random() < 0.2:
            flags.append("-g")
        if kind == "c" and r.random() < 0.2:
            flags.append("-fcommon")
        reloc = r.choice(["", "", "-fPIC", "-fno-pic"])
        if reloc:
            flags.append(reloc)
        cache["link"] = ["-no-pie"] if reloc == "-fno-pic" else []
        run([env.tool("clang")] + flags + ["-O2", "-Xclang", "-disable-llvm-passes",
             "-emit-llvm", "-c", src, "-o", bc], "generate")
        return kind
    elif kind == "sqlite":
        shutil.copy(cache["sqlite"], bc)
        return None
    run([env.tool("llvm-as"), ll, "-o", bc], "generate")
    return None


def opt_cmd(env, inp, d, n, params, mv, parts=1, part=0, slack=None, place=None):
    p = dict(params)
    p["dir"] = d
    if parts > 1:
        p["parts"], p["part"] = parts, part
    split = "shard-split<" + ";".join("%s=%s" % kv for kv in sorted(p.items())) + ">"
    part_p = "shards=%d" % n + (";slack=%d" % slack if slack is not None else "") + \
        (";place=" + place if place else "")
    pre = "shard-mv-annotate<targets=%s>,shard-mv," % mv if mv else ""
    return [env.tool("opt"), "-load-pass-plugin=" + env.plugin,
            "-passes=%sshard-cost,shard-partition<%s>,%s" % (pre, part_p, split),
            "-disable-output", inp]


def dis(env, bcs):
    """Disassembles the bitcode files (one llvm-dis) and reads them."""
    run([env.tool("llvm-dis")] + bcs, "llvm-dis")
    mods = []
    for b in bcs:
        with open(b[:-3] + ".ll") as f:
            mods.append(Mod(f.read()))
    return mods


def quote(cmd):
    return " ".join("'%s'" % c if ("<" in c or ";" in c) else c for c in cmd)


def run_case(env, d, case, inp_mod, program, cache):
    """One shard count: split, check, and (for some) the driver. Raises Failure."""
    n, params, mv, slack, place = (case["n"], case["params"], case["mv"], case["slack"],
                                   case["place"])
    sd = os.path.join(d, "shards.%d" % case["i"])
    os.mkdir(sd)
    cmd = opt_cmd(env, "in.bc", os.path.basename(sd), n, params, mv, slack=slack, place=place)
    case["repro"] = [quote(cmd)]
    run(cmd, "opt", cwd=d)
    nshards, promos, lines, grouped = read_manifest(os.path.join(sd, "manifest"))
    if n and nshards != n or lines != nshards:
        raise Failure("manifest", "%s shards, %d shard lines, asked for %d" % (nshards, lines, n))
    bcs = [os.path.join(sd, "shard.%d.bc" % k) for k in range(nshards)]
    linked = os.path.join(sd, "linked.bc")
    run([env.tool("llvm-link"), "--disable-debug-info-type-map"] + bcs + ["-o", linked],
        "link")
    mods = dis(env, bcs + [linked])
    check_split(inp_mod, mods[:-1], promos, mods[-1], grouped)
    if case["parts"] > 1:
        pd = sd + ".parts"
        os.mkdir(pd)
        case["repro"].append("rm -rf %s && mkdir %s" % ((os.path.basename(pd),) * 2))
        for part in range(case["parts"]):
            cmd = opt_cmd(env, "in.bc", os.path.basename(pd), n, params, mv, case["parts"], part,
                          slack, place)
            case["repro"].append(quote(cmd))
            run(cmd, "opt-parts", cwd=d)
        for f in sorted(os.listdir(sd)):
            if f.startswith("shard.") and f.endswith(".bc") or f == "manifest":
                if not os.path.exists(os.path.join(pd, f)) or open(os.path.join(sd, f), "rb") \
                        .read() != open(os.path.join(pd, f), "rb").read():
                    raise Failure("parts", "parts=%d wrote a different %s" % (case["parts"], f))
    if case["driver"]:
        out = os.path.join(d, "out.%d.o" % case["i"])
        drv = [env.shard, "-j1", cache["level"], "--shards", str(n), "-o",
               os.path.basename(out), "in.bc"]
        if mv:
            drv[1:1] = ["--mv-targets", mv.replace(":", ",")]
        if case["i"] % 2:  # every other case simplifies shared functions once (no new draw)
            drv[1:1] = ["--presimplify"]
        case["repro"].append(" ".join(drv))
        ref = cache.get(("ref", mv))
        if ref is None:  # clang -c fails on the input itself
            return
        run(drv, "driver", cwd=d)
        check_objects(env, ref, out, inp_mod)
        if program:
            exe = out[:-2] + ".exe"
            run([env.tool("clang++" if program == "c++" else "clang"), out, "-o", exe] +
                cache["link"], "link-exe")
            got = run([exe], "run", timeout=RUN_TIMEOUT)
            if got != cache[("out", mv)]:
                raise Failure("output", "the program prints %r, the serial build %r" % (
                    got[:200], cache[("out", mv)][:200]))


def reference(env, d, mv, program, cache):
    """clang -O<l> -c of the input (after multiversioning when mv): object and output."""
    src = os.path.join(d, "in.mv.bc" if mv else "in.bc")
    tag = "mv" if mv else "plain"
    ref = os.path.join(d, "ref.%s.o" % tag)
    try:
        run([env.tool("clang"), cache["level"], "-c", "-x", "ir", src, "-o", ref,
             reloc_flag(d)], "clang")
    except Failure:
        cache[("ref", mv)] = None  # the reference itself fails: nothing to compare with
        return
    cache[("ref", mv)] = ref
    if program:
        exe = os.path.join(d, "ref.%s.exe" % tag)
        run([env.tool("clang++" if program == "c++" else "clang"), ref, "-o", exe] +
            cache["link"], "link-exe")
        cache[("out", mv)] = run([exe], "run-ref", timeout=RUN_TIMEOUT)


def reloc_flag(d):
    """The relocation model the driver compiles with (docs/contract.md: from the module's
    PIC Level and PIE Level, static without them), as a clang flag."""
    with open(os.path.join(d, "in.ll")) as f:
        text = f.read()
    pic = re.search(r'!"PIC Level", i32 (\d+)', text)
    pie = re.search(r'!"PIE Level", i32 (\d+)', text)
    if not pic or pic.group(1) == "0":
        return "-fno-pic"
    return "-fPIE" if pie and pie.group(1) != "0" else "-fPIC"


def module_job(job):
    """Runs one module's cases; returns ({stat: count}, [failure records])."""
    env, seed, idx, kind, ncases, keep, work, sqlite = job
    r = random.Random("%d:%d" % (seed, idx))
    d = tempfile.mkdtemp(prefix="m%d." % idx, dir=work)
    cache = {"sqlite": sqlite, "level": r.choice(["-O2"] * 5 + ["-O0", "-O1", "-O3"]),
             "link": []}
    failures = []
    stats = {"cases": 0, kind: 0, "driver": 0, "runs": 0, "mv": 0}
    try:
        try:
            program = make_input(env, r, kind, d, cache)
            inp = dis(env, [os.path.join(d, "in.bc")])[0]
            nfuncs = sum(1 for x in inp.defs.values() if x[0] == "function")
            mv = None
            if kind != "sqlite" and r.random() < (0.5 if program else 0.08):
                mv = r.choice(["x86-64-v2:x86-64-v3", "x86-64-v3", "haswell",
                               "x86-64-v2:x86-64-v3:x86-64-v4"])
                run([env.tool("opt"), "-load-pass-plugin=" + env.plugin,
                     "-passes=shard-mv-annotate<targets=%s>,shard-mv" % mv,
                     os.path.join(d, "in.bc"), "-o", os.path.join(d, "in.mv.bc")], "opt-mv")
                inp = dis(env, [os.path.join(d, "in.mv.bc")])[0]
            want_driver = program or (kind != "sqlite" and r.random() < 0.2)
            if want_driver:
                reference(env, d, mv, program, cache)
        except Failure as e:
            return stats, [("%d:%d" % (seed, idx), kind, e.check, e.msg, keep_dir(d, keep, idx))]
        except Exception as e:  # a bug of this script: report it, keep going
            return stats, [("%d:%d" % (seed, idx), kind, "fuzzer", repr(e), keep_dir(d, keep, idx))]
        for i in range(ncases):
            n = r.choice([r.randint(1, 8), r.randint(1, 64), r.randint(1, 64),
                          max(1, nfuncs + r.randint(1, 8))])
            if kind == "sqlite":
                n = r.randint(1, 64)
            case = {"i": i, "n": n, "params": split_params(r, env.tiny, env.sizes), "mv": mv,
                    "slack": r.choice([None] * 4 + [0, 10, 500, 1000]),
                    "place": r.choice([None, None, "stable", "graph"]),
                    "parts": r.choice([1] * 8 + [2, 3, 4, 5]),
                    "driver": want_driver and (n <= 16 or r.random() < 0.3)}
            for k in ("cases", kind):
                stats[k] += 1
            stats["mv"] += mv is not None
            stats["driver"] += bool(case["driver"] and cache.get(("ref", mv)))
            stats["runs"] += bool(case["driver"] and cache.get(("ref", mv)) and program)
            try:
                run_case(env, d, case, inp, program, cache)
            except Failure as e:
                failures.append(("%d:%d/%d" % (seed, idx, i), kind, e.check, e.msg,
                                 keep_dir(d, keep, idx, case)))
        return stats, failures
    finally:
        shutil.rmtree(d, ignore_errors=True)


def keep_dir(d, keep, idx, case=None):
    """Copies the module's directory to keep/ with a repro.sh; returns its path."""
    dst = os.path.join(keep, "m%d" % idx)
    if not os.path.exists(dst):
        shutil.copytree(d, dst, symlinks=True)
    if case:
        with open(os.path.join(dst, "repro.%d.sh" % case["i"]), "w") as f:
            f.write("#!/bin/sh\n# case %d: shards=%d mv=%s\ncd \"$(dirname \"$0\")\"\n"
                    "rm -rf shards.%d && mkdir shards.%d\n%s\n" % (
                        case["i"], case["n"], case["mv"], case["i"], case["i"],
                        "\n".join(case.get("repro", []))))
        return os.path.join(dst, "repro.%d.sh" % case["i"])
    return dst


# --------------------------------------------------------------------------------------


KINDS = {"ir": 45, "stress": 20, "stress-multi": 20, "c": 8, "c++": 4}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=100, help="module/shard-count pairs to run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--build", required=True, help="Shard build directory")
    ap.add_argument("--keep", help="where failing cases are kept (default: a new temp dir)")
    ap.add_argument("--sqlite", type=int, default=0, metavar="K",
                    help="also split sqlite3.c K times (slow; uses the build's SHARD_SQLITE_C)")
    ap.add_argument("--kinds", default=",".join(KINDS),
                    help="module kinds: " + ", ".join(KINDS))
    ap.add_argument("--only", type=int, help="run only module IDX of the seed (reproduce)")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    env = Env(build, bindir_of(build))
    for p in (env.plugin, env.shard):
        if not os.path.exists(p):
            sys.exit("fuzz: error: '%s' is missing (build first)" % p)
    work = tempfile.mkdtemp(prefix="shard-fuzz.")
    keep = a.keep or tempfile.mkdtemp(prefix="shard-fuzz-fail.")
    os.makedirs(keep, exist_ok=True)
    kinds = {k: KINDS[k] for k in a.kinds.split(",")}
    r = random.Random(a.seed)
    jobs, total, idx = [], 0, 0
    sqlite = None
    if a.sqlite:
        sqlite = os.path.join(work, "sqlite3.bc")
        src = sqlite_source(build)
        run([env.tool("clang"), "-O2", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-c",
             src, "-o", sqlite], "sqlite")
        for _ in range(a.sqlite):
            jobs.append((env, a.seed, idx, "sqlite", 1, keep, work, sqlite))
            idx += 1
            total += 1
    while total < a.cases:
        kind = r.choices(list(kinds), weights=list(kinds.values()))[0]
        n = min(a.cases - total, r.randint(1, 4))
        jobs.append((env, a.seed, idx, kind, n, keep, work, sqlite))
        idx += 1
        total += n
    if a.only is not None:
        jobs = [j for j in jobs if j[2] == a.only]
    stats, failures = {}, []
    with multiprocessing.Pool(a.jobs) as pool:
        for st, f in pool.imap_unordered(module_job, jobs):
            for k, v in st.items():
                stats[k] = stats.get(k, 0) + v
            for rec in f:
                failures.append(rec)
                print("FAIL %s (%s) %s: %s\n  reproducer: %s" % rec, flush=True)
    shutil.rmtree(work, ignore_errors=True)
    if not failures and not a.keep:
        shutil.rmtree(keep, ignore_errors=True)
    cases = stats.pop("cases", 0)
    print("by kind: %s; driver checks %d (program runs %d); multiversioned %d" % (
        ", ".join("%s %d" % (k, stats.get(k, 0)) for k in list(KINDS) + ["sqlite"]
                  if stats.get(k)), stats.get("driver", 0), stats.get("runs", 0),
        stats.get("mv", 0)))
    print("%d cases, %d failures" % (cases, len(failures)))
    return 1 if failures else 0


def sqlite_source(build):
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("SHARD_SQLITE_C:"):
                p = line.split("=", 1)[1].strip()
                if p:
                    return p
    sys.exit("fuzz: error: --sqlite needs a build configured with -DSHARD_SQLITE_C")


if __name__ == "__main__":
    sys.exit(main())
