#!/usr/bin/env python3
"""Attribute a code-quality difference between two builds of one module (serial clang, shard) to functions.

  bench/attribute.py profile BASE.callgrind NEW.callgrind [--top N] [--fold-clones]
  bench/attribute.py size BASE.o NEW.o [--top N] [--fold-clones] [--llvm-bindir DIR]
  bench/attribute.py summary BASE.callgrind NEW.callgrind BASE.o NEW.o [--llvm-bindir DIR]
  bench/attribute.py inline BASE.remarks NEW.remarks --caller NAME [--top N] [--all]
  bench/attribute.py classes BASE.o NEW.o [--top N] [--fold-clones] [--llvm-bindir DIR]
  bench/attribute.py stack BASE.callgrind BASE.bin NEW.callgrind NEW.bin [--top N] [--fold-clones]

profile: per function, self instructions (callgrind's Ir, the calls' inclusive costs left out) in each
  profile (`valgrind --tool=callgrind --callgrind-out-file=F PROGRAM`), their difference and ratio, sorted
  by |difference|, with the totals. Several functions of one name (the private copies that each shard
  holds of a small static function) are summed.
size: per section (`llvm-size -A`, the sections of one name summed) and per function (the sizes of the
  defined function symbols, `llvm-nm -S`), bytes in each object and their difference, sorted by
  |difference|; then the Berkeley text column (`llvm-size`: code and read-only data) of each.
summary: one line: instructions ratio (NEW/BASE) and text-column ratio.
inline: the inliner's decisions at the calls inside one function (--caller), from the remarks that
  `clang -O2 -c -Rpass=inline -Rpass-missed=inline` writes to stderr for each build (the serial module,
  the shard that owns the function): per callee, the calls (one remark each) inlined (+) and not (-),
  with the cost/threshold pairs seen and the reason a call stayed, for the callees inlined a different
  number of times (--all: every callee). A callee with no remark in one build was not a definition
  there (declared, or never called: a declaration gets no remark), or its calls came only from a body that
  this build did not inline. A cost far below zero is the last-call-to-static bonus.
classes: where a size difference comes from. Sections by kind (the name up to its second dot, `.text.f`
  is `.text`): count, bytes, and whether `size` counts them in its text column (allocated, not writable);
  `.eh_frame` as CIEs and FDEs (`llvm-dwarfdump --eh-frame`); the functions in classes by binding (local,
  global, weak): only in one object, more copies in NEW, bigger, smaller, the same; and of those only in
  NEW, the ones nothing in NEW refers to (no relocation names them, no resolved branch or address in the
  disassembly reaches them), with the largest of each class; last, how many of BASE's functions
  have the same size in NEW (a measure of how closely NEW's inlining follows BASE's).
stack: whether a function's difference in self instructions is register allocation. From profiles
  recorded with `--dump-instr=yes` and the programs that ran (x86-64), per function of the --top largest
  differences: self instructions and, of them, those that address the stack (through `%rsp`, or
  `%rbp` where a function makes it its frame pointer: spills, reloads, locals) in each build, in
  the program's own code (a library's instructions count as not the stack). Where most of a
  function's difference is stack traffic, the code does the same work with values kept in memory
  instead of registers: the register allocator of a large function answering a small difference
  in its IR, not a call left or a fold missed.

Names are folded back to the input's names before comparing: a promoted local `NAME.shard.<hash>` is NAME
(the driver already renames them back after linking; a shard's own object still has them), and a private
global renamed after its referrer (`.str.sqlite3VdbeExec.3`) is `.str.*`. With --fold-clones the suffixes
that the optimiser adds to a function's clones (`.constprop.N`, `.specialized.N`, `.isra.N`, `.part.N`,
`.cold`, `.llvm.N`) are folded too, so a function that one build specialises and the other does not shows
as one line. Python 3 standard library only.
"""
import argparse
import os
import re
import subprocess
import sys

SHARD_RE = re.compile(r"\.shard\.[0-9a-f]+")
PRIVATE_RE = re.compile(r"^(\.[A-Za-z_]+)\..*$")
CLONE_RE = re.compile(r"(\.(constprop|specialized|isra|part|cold|llvm|argelim|lto_priv)(\.\d+)?)+$")


def fold(name, clones):
    name = SHARD_RE.sub("", name)
    m = PRIVATE_RE.match(name)
    if m:
        return m.group(1) + ".*"
    if clones:
        name = CLONE_RE.sub("", name)
    return name


def self_costs(path, clones):
    """The self costs of a callgrind profile, one (function, object, instruction address or None,
    Ir) per cost line (a call's inclusive cost is the callee's, not the caller's own), the
    profile's total (None when it states none) and whether it records instruction addresses."""
    names = {}  # compressed id -> name, for fn= / cfn=
    objects = {}  # the same for ob= / cob=, which number their own
    rows = []
    events = ["Ir"]
    npos = 1
    instr = False
    addr = 0
    current = obj = None
    skip_next = False
    total = None
    with open(path, errors="replace") as f:
        for line in f:
            if not line or line[0] == "#":
                continue
            c = line[0]
            if c.isdigit() or c in "+-*":
                parts = line.split()
                if instr:  # absolute, relative to the line before (+N, -N) or the same (*)
                    p = parts[0]
                    if p.startswith("0x"):
                        addr = int(p, 16)
                    elif p[0] in "+-":
                        addr += int(p)
                if skip_next:
                    skip_next = False
                elif current is not None and len(parts) > npos:
                    rows.append((current, obj, addr if instr else None, int(parts[npos])))
                continue
            key, _, value = line.rstrip("\n").partition("=")
            if key == "fn":
                current = fold(resolve(names, value), clones)
            elif key == "cfn":
                resolve(names, value)
            elif key == "ob":
                obj = resolve(objects, value)
            elif key == "cob":
                resolve(objects, value)
            elif key == "calls":
                skip_next = True
            elif line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("positions:"):
                npos = len(line.split()) - 1
                instr = line.split()[1] == "instr"
            elif line.startswith("summary:") or line.startswith("totals:"):
                total = int(line.split()[1])
    if events[0] != "Ir":
        sys.exit(f"attribute: {path}: the first event is {events[0]}, not Ir")
    return rows, total, instr


def read_callgrind(path, clones):
    """Self Ir per folded function name, and the profile's total."""
    rows, total, _ = self_costs(path, clones)
    cost = {}
    for fn, _, _, ir in rows:
        cost[fn] = cost.get(fn, 0) + ir
    return cost, sum(cost.values()) if total is None else total


def read_instr_profile(path, binary, clones):
    """Self Ir per folded function name and, for the code of BINARY (not the libraries it ran
    with, whose addresses are their own), per instruction address."""
    rows, _, instr = self_costs(path, clones)
    if not instr:
        sys.exit(f"attribute: {path}: no instruction addresses (record it with --dump-instr=yes)")
    own = os.path.basename(binary)
    cost = {}
    for fn, obj, addr, ir in rows:
        by_addr = cost.setdefault(fn, {})
        key = addr if obj and os.path.basename(obj) == own else None
        by_addr[key] = by_addr.get(key, 0) + ir
    return cost


def stack_instructions(binary, bindir):
    """The addresses of the instructions of BINARY that address the stack: through %rsp, or
    through %rbp in a function that makes it its frame pointer (elsewhere %rbp is one more
    register, and what it addresses need not be the stack)."""
    out = run([tool(bindir, "llvm-objdump"), "-d", "--no-show-raw-insn", binary])
    found = set()
    frame = False  # the current function set %rbp from %rsp
    rbp = []       # its instructions that address through %rbp
    for line in out.splitlines():
        if line.endswith(">:"):  # the next function
            if frame:
                found.update(rbp)
            frame, rbp = False, []
            continue
        m = re.match(r"\s*([0-9a-f]+):\s+(.*)$", line)
        if not m:
            continue
        text = m.group(2)
        if re.match(r"movq?\s+%rsp,\s*%rbp$", text):
            frame = True
        if "(%rsp" in text:
            found.add(int(m.group(1), 16))
        elif "(%rbp" in text:
            rbp.append(int(m.group(1), 16))
    if frame:
        found.update(rbp)
    return found


def stack_table(files, bindir, clones, top):
    (pb, bb), (pn, bn) = ((read_instr_profile(p, b, clones), stack_instructions(b, bindir))
                          for p, b in (files[:2], files[2:]))

    def counts(prof, stack, name):
        by_addr = prof.get(name, {})
        return sum(by_addr.values()), sum(c for a, c in by_addr.items() if a in stack)

    def share(k, s):
        return f"{k * 100 / s:.1f}%" if s else "-"

    rows = []
    for name in set(pb) | set(pn):
        (sb, kb), (sn, kn) = counts(pb, bb, name), counts(pn, bn, name)
        if sb != sn:
            rows.append((name, sb, kb, sn, kn))
    rows.sort(key=lambda r: (-abs(r[3] - r[1]), r[0]))
    print("## stack traffic per function: self instructions, and those that address the stack")
    print(f"{'difference':>14} {'of it stack':>14} {'base':>14} {'stack':>6} {'new':>14} {'stack':>6}  name")
    for name, sb, kb, sn, kn in rows[:top]:
        print(f"{sn - sb:>+14,} {kn - kb:>+14,} {sb:>14,} {share(kb, sb):>6} {sn:>14,} "
              f"{share(kn, sn):>6}  {name}")
    print()


def resolve(names, value):
    m = re.match(r"\((\d+)\)(?: (.*))?$", value)
    if not m:
        return value
    if m.group(2) is not None:
        names[m.group(1)] = m.group(2)
    return names.get(m.group(1), value)


def tool(bindir, name):
    if bindir:
        return os.path.join(bindir, name)
    for d in ("/usr/lib/llvm-22/bin", "/usr/lib/llvm-19/bin"):
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    return name


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def sections(obj, bindir):
    out = {}
    for line in run([tool(bindir, "llvm-size"), "-A", obj]).splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1].isdigit() and parts[0] != "Total":
            out[parts[0]] = out.get(parts[0], 0) + int(parts[1])
    return out


def text_column(obj, bindir):
    lines = run([tool(bindir, "llvm-size"), obj]).splitlines()
    return int(lines[1].split()[0])


def functions(obj, bindir, clones):
    out = {}
    for line in run([tool(bindir, "llvm-nm"), "-S", "--defined-only", obj]).splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            name = fold(parts[3], clones)
            out[name] = out.get(name, 0) + int(parts[1], 16)
    return out


INLINE_RE = re.compile(r"'([^']+)' (inlined into|not inlined into|will not be inlined into) '([^']+)'(.*?)"
                       r"\s*\[-Rpass")


def read_remarks(path, caller, clones):
    """Per callee folded: a list of (inlined, "cost/threshold", reason) for calls inside caller."""
    out = {}
    with open(path, errors="replace") as f:
        for line in f:
            m = INLINE_RE.search(line)
            if not m or fold(m.group(3), clones) != caller:
                continue
            rest = m.group(4)
            c = re.search(r"cost=(-?\d+|never|always)", rest)
            t = re.search(r"threshold=(-?\d+)", rest)
            why = "" if m.group(2) == "inlined into" else re.sub(r"\s*\(cost=.*", "", rest).strip()
            pair = (c.group(1) if c else "?") + ("/" + t.group(1) if t else "")
            out.setdefault(fold(m.group(1), clones), []).append((m.group(2) == "inlined into", pair, why))
    return out


def decisions(sites):
    """One build's decisions for one callee, in a few words."""
    if not sites:
        return "no remark"
    yes = sum(1 for s in sites if s[0])
    pairs = " ".join(sorted({s[1] for s in sites}, key=lambda p: (len(p), p))[:4])
    whys = "; ".join(sorted({s[2] for s in sites if s[2]}))
    return f"+{yes} -{len(sites) - yes} {pairs}" + (f" ({whys})" if whys else "")


def inline_table(base, new, caller, top, every):
    names = sorted(set(base) | set(new))
    def inlined(d, n):
        return sum(1 for s in d.get(n, []) if s[0])
    rows = [n for n in names if every or inlined(base, n) != inlined(new, n)]
    nb, nn = (sum(inlined(d, n) for n in d) for d in (base, new))
    print(f"## inlining into {caller}: base {nb} calls inlined, {len(base)} callees; "
          f"new {nn} inlined, {len(new)} callees; {len(rows)} listed")
    for n in rows[:top]:
        print(f"  {n}\n      base: {decisions(base.get(n))}\n      new:  {decisions(new.get(n))}")
    if rows[top:]:
        print(f"  ({len(rows) - top} more)")
    print()


def section_kinds(obj, bindir):
    """Per section kind: [count, bytes, counted in the text column]."""
    out = {}
    row = re.compile(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([A-Za-z]*)\s")
    for line in run([tool(bindir, "llvm-readelf"), "-S", "-W", obj]).splitlines():
        m = row.match(line)
        if not m or "NULL" in (m.group(1), m.group(2)):
            continue
        name, kind, size, flags = m.group(1), m.group(2), int(m.group(3), 16), m.group(4)
        key = "." + name.split(".")[1] if name.startswith(".") and name.count(".") > 1 else name
        text = "A" in flags and "W" not in flags and kind != "NOBITS"
        c = out.setdefault(key, [0, 0, text])
        c[0] += 1
        c[1] += size
    return out


def eh_frame(obj, bindir):
    """(CIEs, their bytes, FDEs, their bytes) of the object's .eh_frame."""
    n = {"CIE": [0, 0], "FDE": [0, 0]}
    entry = re.compile(r"^[0-9a-f]{8} ([0-9a-f]{8,16}) [0-9a-f]{8,16} (CIE|FDE)")
    for line in run([tool(bindir, "llvm-dwarfdump"), "--eh-frame", obj]).splitlines():
        m = entry.match(line)
        if m:
            n[m.group(2)][0] += 1
            n[m.group(2)][1] += int(m.group(1), 16) + 4
    return n["CIE"] + n["FDE"]


def function_copies(obj, bindir, clones):
    """Folded name -> (binding, [size of each definition])."""
    out = {}
    bind = {"t": "local", "T": "global", "w": "weak", "W": "weak"}
    for line in run([tool(bindir, "llvm-nm"), "-S", "--defined-only", obj]).splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in bind:
            e = out.setdefault(fold(parts[3], clones), (bind[parts[2]], []))
            e[1].append(int(parts[1], 16))
    return out


def referenced(obj, bindir, clones):
    """Folded names that a relocation, or a branch or address the assembler resolved, refers to."""
    refs = set()
    for line in run([tool(bindir, "llvm-readelf"), "-r", "-W", obj]).splitlines():
        parts = line.split()
        if len(parts) >= 5 and re.fullmatch(r"[0-9a-f]{16}", parts[0]):
            refs.add(fold(parts[4], clones))
    head = re.compile(r"^[0-9a-f]+ <(.+)>:$")
    target = re.compile(r"<([^<>+]+)>$")
    current, pending = None, None
    for line in run([tool(bindir, "llvm-objdump"), "-d", "-r", "--no-show-raw-insn", obj]).splitlines():
        m = head.match(line)
        if m:
            current = m.group(1)
            continue
        if "R_X86_64_" in line or "R_AARCH64_" in line:
            pending = None  # the target shown is the unrelocated field, not a reference
            continue
        if pending:
            refs.add(fold(pending, clones))
        m = target.search(line.strip())
        pending = m.group(1) if m and m.group(1) != current else None
    if pending:
        refs.add(fold(pending, clones))
    return refs


def classes(base, new, bindir, clones, top):
    """Prints the section kinds, .eh_frame entries and function classes of BASE against NEW."""
    sb, sn = section_kinds(base, bindir), section_kinds(new, bindir)
    print("## sections by kind (text: counted in `size`'s text column)")
    print(f"{'difference':>12} {'base':>12} {'new':>12} {'#base':>7} {'#new':>7} text  kind")
    for k in sorted(set(sb) | set(sn), key=lambda k: (-abs(sn.get(k, [0, 0])[1] - sb.get(k, [0, 0])[1]), k)):
        b, n = sb.get(k, [0, 0, None]), sn.get(k, [0, 0, None])
        text = "yes" if (n[2] if n[2] is not None else b[2]) else "no"
        print(f"{n[1] - b[1]:>+12,} {b[1]:>12,} {n[1]:>12,} {b[0]:>7} {n[0]:>7} {text:4}  {k}")
    eb, en = eh_frame(base, bindir), eh_frame(new, bindir)
    print(f"\n## .eh_frame: CIEs {eb[0]} ({eb[1]:,} B) -> {en[0]} ({en[1]:,} B), "
          f"FDEs {eb[2]} ({eb[3]:,} B) -> {en[2]} ({en[3]:,} B)\n")
    fb, fn = function_copies(base, bindir, clones), function_copies(new, bindir, clones)
    refs = referenced(new, bindir, clones)
    cls = {}
    for name in set(fb) | set(fn):
        bb, bs = fb.get(name, (None, []))
        nb, ns = fn.get(name, (None, []))
        if not bs:
            c = "only in new, unreferenced" if name not in refs else "only in new"
        elif not ns:
            c = "only in base"
        elif len(ns) > len(bs):
            c = "more copies in new"
        else:
            c = "bigger" if sum(ns) > sum(bs) else "smaller" if sum(ns) < sum(bs) else "same"
        c = f"{c} ({nb or bb})"
        cls.setdefault(c, []).append((sum(ns) - sum(bs), name))
    print("## functions by class")
    print(f"{'difference':>12} {'functions':>9}  class")
    order = sorted(cls, key=lambda c: (-abs(sum(d for d, _ in cls[c])), c))
    for c in order:
        print(f"{sum(d for d, _ in cls[c]):>+12,} {len(cls[c]):>9}  {c}")
    print(f"{sum(d for c in cls for d, _ in cls[c]):>+12,} {'':>9}  total")
    same = sum(len(cls[c]) for c in cls if c.startswith("same"))
    print(f"\nthe same size as in base: {same} of base's {len(fb)} functions ({100 * same / max(len(fb), 1):.1f}%)")
    for c in order:
        if c.startswith("same"):
            continue
        print(f"\n### {c}, largest")
        for d, name in sorted(cls[c], key=lambda r: (-abs(r[0]), r[1]))[:top]:
            print(f"{d:>+12,}  {name}")


def table(title, base, new, top, total_base=None, total_new=None):
    rows = [(n, base.get(n, 0), new.get(n, 0)) for n in set(base) | set(new)]
    rows = [r for r in rows if r[1] != r[2]]
    rows.sort(key=lambda r: (-abs(r[2] - r[1]), r[0]))
    tb = sum(base.values()) if total_base is None else total_base
    tn = sum(new.values()) if total_new is None else total_new
    diff = tn - tb
    print(f"## {title}: base {tb:,}, new {tn:,}, difference {diff:+,} ({ratio(tn, tb)})")
    print(f"{'difference':>14} {'share':>7} {'base':>14} {'new':>14} {'ratio':>8}  name")
    for name, b, n in rows[:top]:
        share = f"{(n - b) * 100 / diff:+.1f}%" if diff else "-"
        print(f"{n - b:>+14,} {share:>7} {b:>14,} {n:>14,} {ratio(n, b):>8}  {name}")
    rest = rows[top:]
    if rest:
        r = sum(n - b for _, b, n in rest)
        print(f"{r:>+14,} {'':>7} {'':>14} {'':>14} {'':>8}  ({len(rest)} more)")
    print()


def ratio(n, b):
    return f"{n / b:.4f}x" if b else "new"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("mode", choices=["profile", "size", "summary", "inline", "classes", "stack"])
    p.add_argument("files", nargs="+")
    p.add_argument("--top", type=int, default=25)
    p.add_argument("--fold-clones", action="store_true")
    p.add_argument("--llvm-bindir", default=None)
    p.add_argument("--caller", default=None)
    p.add_argument("--all", action="store_true")
    a = p.parse_args()
    need = {"profile": 2, "size": 2, "summary": 4, "inline": 2, "classes": 2, "stack": 4}[a.mode]
    if len(a.files) != need:
        p.error(f"{a.mode} takes {need} files")
    if a.mode == "inline" and not a.caller:
        p.error("inline takes --caller NAME")
    if a.mode == "inline":
        b, n = (read_remarks(f, a.caller, a.fold_clones) for f in a.files)
        inline_table(b, n, a.caller, a.top, a.all)
    elif a.mode == "profile":
        (cb, tb), (cn, tn) = (read_callgrind(f, a.fold_clones) for f in a.files)
        table("self instructions per function", cb, cn, a.top, tb, tn)
    elif a.mode == "size":
        b, n = a.files
        table("bytes per section", sections(b, a.llvm_bindir), sections(n, a.llvm_bindir), a.top)
        fb, fn = (functions(f, a.llvm_bindir, a.fold_clones) for f in (b, n))
        table("code bytes per function", fb, fn, a.top)
        tb, tn = text_column(b, a.llvm_bindir), text_column(n, a.llvm_bindir)
        print(f"size text column: base {tb:,}, new {tn:,} ({ratio(tn, tb)})")
    elif a.mode == "classes":
        classes(a.files[0], a.files[1], a.llvm_bindir, a.fold_clones, a.top)
    elif a.mode == "stack":
        stack_table(a.files, a.llvm_bindir, a.fold_clones, a.top)
    else:
        _, tb = read_callgrind(a.files[0], False)
        _, tn = read_callgrind(a.files[1], False)
        sb, sn = (text_column(f, a.llvm_bindir) for f in a.files[2:])
        xb = sections(a.files[2], a.llvm_bindir).get(".text", 0)
        xn = sections(a.files[3], a.llvm_bindir).get(".text", 0)
        print(f"instructions {tb:,} -> {tn:,} = {ratio(tn, tb)}; .text {xb:,} -> {xn:,} = {ratio(xn, xb)}; "
              f"size text {sb:,} -> {sn:,} = {ratio(sn, sb)}")


if __name__ == "__main__":
    main()
