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
import subprocess
import sys
import tempfile

TOOL_TIMEOUT = 300
RUN_TIMEOUT = 20


class Failure(Exception):
    """A check failed: check is a short name, msg the details."""

    def __init__(self, check, msg):
        super().__init__(msg)
        self.check, self.msg = check, msg


# --------------------------------------------------------------------------------------
# Tools


class Env:
    """Paths of the build and LLVM tools, shared by the workers."""

    def __init__(self, build, bindir):
        self.build = build
        self.bindir = bindir
        self.plugin = os.path.join(build, "lib", "ShardPlugin.so")
        self.shard = os.path.join(build, "bin", "shard")
        with open(self.plugin, "rb") as f:  # split limits this plugin knows
            self.tiny = b"tiny-cost" in f.read()

    def tool(self, name):
        return os.path.join(self.bindir, name)


def run(cmd, check_name, cwd=None, timeout=TOOL_TIMEOUT):
    """Runs cmd (a list); raises Failure(check_name) on a bad status, returns stdout."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure(check_name, "timed out after %d s: %s" % (timeout, " ".join(cmd)))
    if p.returncode != 0:
        err = p.stderr.decode(errors="replace").strip().splitlines()
        raise Failure(check_name, "%s exited with %d: %s" % (
            os.path.basename(cmd[0]), p.returncode, " | ".join(err[-6:])))
    return p.stdout.decode(errors="replace")


def bindir_of(build):
    """The LLVM tools directory a build was configured with (its CMake cache)."""
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("SHARD_LLVM_BINDIR:"):
                return line.split("=", 1)[1].strip()
    sys.exit("fuzz: error: no SHARD_LLVM_BINDIR in %s/CMakeCache.txt" % build)


# --------------------------------------------------------------------------------------
# Generated IR: what the partitioner must handle

TRIPLE = ('target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-'
          'f80:128-n8:16:32:64-S128"\ntarget triple = "x86_64-pc-linux-gnu"\n')


class IRGen:
    """A random module: functions of type i32(i32) with every linkage, variables (tables of
    function pointers, constants large and small, TLS, common), aliases, ifuncs, comdats,
    ctors/dtors, llvm.used, block addresses, module asm, declarations."""

    def __init__(self, rng):
        self.r = rng
        self.anon = 0  # unnamed globals so far
        self.meta = []  # metadata nodes !10, !11, ...

    def pick(self, table):
        """One key of {key: weight}."""
        total = sum(table.values())
        x = self.r.uniform(0, total)
        for k, w in table.items():
            x -= w
            if x <= 0:
                return k
        return k

    def name(self, prefix, i, anon_ok=True):
        """prefixI, or now and then None: unnamed (@N)."""
        if anon_ok and self.r.random() < 0.04:
            return None  # numbered when emitted
        return "%s%d" % (prefix, i)

    def generate(self):
        r = self.r
        size = self.pick({"empty": 2, "decls": 2, "tiny": 20, "small": 50, "medium": 26})
        if size == "empty":
            return TRIPLE
        nf = {"decls": 0, "tiny": r.randint(1, 3), "small": r.randint(3, 12),
              "medium": r.randint(12, 40)}[size]
        nv = 0 if size == "decls" else r.randint(0, max(1, nf))
        self.decl_f = ["ext%d" % i for i in range(r.randint(0, 3))]
        self.decl_v = ["extv%d" % i for i in range(r.randint(0, 2))]
        if size == "decls":
            self.decl_f = ["ext%d" % i for i in range(r.randint(1, 5))]
            out = [TRIPLE]
            out += ["declare i32 @%s(i32)" % n for n in self.decl_f]
            out += ["@%s = external global i32" % n for n in self.decl_v]
            return "\n".join(out) + "\n"
        self.plan_functions(nf)
        self.plan_variables(nv)
        self.plan_aliases()
        return self.emit()

    # Planning -----------------------------------------------------------------------

    def plan_functions(self, nf):
        r = self.r
        self.funcs = []
        for i in range(nf):
            link = self.pick({"": 40, "internal": 25, "private": 4, "linkonce_odr": 10,
                              "weak": 4, "weak_odr": 3, "linkonce": 2,
                              "available_externally": 2, "hidden": 4, "protected": 1})
            f = {"name": self.name("f", i, link != "available_externally"), "link": link,
                 "attrs": [], "comdat": False,
                 "size": self.pick({1: 20, 5: 30, 20: 20, 60: 15, 130: 10, 300: 5}),
                 "ba": False, "eh": False, "switch": r.random() < 0.1}
            if link in ("linkonce_odr", "weak_odr", "linkonce") and r.random() < 0.8:
                f["comdat"] = True
            if link in ("", "internal") and f["name"] and r.random() < 0.05:
                f["comdat"] = True  # a non-discardable comdat group
            a = self.pick({"": 50, "noinline": 30, "inlinehint": 8, "alwaysinline": 3,
                           "optnone": 2, "section": 3, "unnamed_addr": 6})
            if a == "optnone":
                f["attrs"] = ["noinline", "optnone"]
            elif a:
                f["attrs"] = [a]
            if link not in ("available_externally",) and r.random() < 0.06:
                f["ba"] = True
            if r.random() < 0.05:
                f["eh"] = True
            self.funcs.append(f)
        # Groups of comdats: sometimes put two functions in one comdat.
        for f in self.funcs:
            f["cgroup"] = None
            if f["comdat"] and f["name"]:
                f["cgroup"] = f["name"]
        named = [f for f in self.funcs if f["comdat"] and f["name"]
                 and f["link"] in ("linkonce_odr", "linkonce")]
        if len(named) >= 2 and r.random() < 0.3:
            named[1]["cgroup"] = named[0]["cgroup"]
        self.ctors = []
        for i in range(r.choice([0, 0, 0, 1, 2])):
            link = r.choice(["internal", "", "linkonce_odr"])
            self.ctors.append({"name": "ctor%d" % i, "link": link,
                               "comdat": link == "linkonce_odr"})
        self.ifuncs = []
        if self.funcs and r.random() < 0.15:
            for i in range(r.randint(1, 2)):
                self.ifuncs.append({"name": "ifn%d" % i, "res": "resolver%d" % i,
                                    "link": r.choice(["", "internal", "weak"]),
                                    "reslink": r.choice(["internal", "", "internal"]),
                                    "target": r.choice(self.funcs)})
        self.asm = self.funcs and r.random() < 0.05

    def plan_variables(self, nv):
        r = self.r
        self.vars = []
        for i in range(nv):
            kind = self.pick({"int": 30, "table": 20, "fptab": 15, "str": 10, "struct": 8,
                              "tls": 6, "big": 4, "assoc": 2,
                              "batab": 3 if any(f["ba"] for f in self.funcs) else 0})
            link = self.pick({"": 30, "internal": 35, "private": 8, "weak": 4,
                              "linkonce_odr": 5, "common": 3 if kind == "int" else 0,
                              "hidden": 4, "available_externally": 1})
            if kind == "batab":
                link = r.choice(["internal", "private"])
            if kind == "assoc":
                link = r.choice(["internal", ""])
            # Tables of block addresses follow the functions (LLVM 19 cannot parse them
            # before), so they are named: unnamed globals are numbered in order.
            v = {"name": self.name("v", i, link != "available_externally" and kind != "batab"),
                 "kind": kind,
                 "link": link,
                 "const": kind in ("table", "str", "big", "batab") or r.random() < 0.3,
                 "unnamed": r.choice(["", "unnamed_addr", "local_unnamed_addr"]),
                 "comdat": link == "linkonce_odr" and r.random() < 0.7,
                 "section": kind in ("int", "table", "str", "big") and r.random() < 0.03}
            if kind == "str":
                v["unnamed"] = "unnamed_addr"
            if link == "common":
                v["const"] = False
                v["comdat"] = False
            if v["comdat"] and not v["name"]:
                v["comdat"] = False
            self.vars.append(v)
        self.mutable = [v for v in self.vars if v["kind"] in ("int", "tls") and not v["const"]]

    def plan_aliases(self):
        r = self.r
        self.aliases = []
        targets = [f for f in self.funcs if f["link"] != "available_externally"]
        vtargets = [v for v in self.vars if v["link"] not in ("available_externally", "common")
                    and v["kind"] not in ("tls", "batab")]
        for i in range(r.choice([0, 0, 0, 1, 2, 3])):
            link = self.pick({"": 5, "internal": 3, "private": 1, "weak": 2, "weak_odr": 1,
                              "linkonce_odr": 1, "hidden": 1})
            if targets and (not vtargets or r.random() < 0.6):
                self.aliases.append({"name": "a%d" % i, "link": link, "fn": True,
                                     "target": r.choice(targets)})
            elif vtargets:
                self.aliases.append({"name": "a%d" % i, "link": link, "fn": False,
                                     "target": r.choice(vtargets)})
        # An alias of an (external or internal) alias.
        inner = [a for a in self.aliases if a["link"] in ("", "internal", "hidden")]
        if inner and r.random() < 0.3:
            t = r.choice(inner)
            self.aliases.append({"name": "aa%d" % len(self.aliases), "fn": t["fn"],
                                 "link": r.choice(["", "internal"]), "target": t,
                                 "of_alias": True})

    # Emission -----------------------------------------------------------------------

    def ref(self, e):
        return "@" + e["name"] if e.get("name") else "@%d" % e["num"]

    def linkage(self, link):
        if link == "hidden":
            return "hidden "
        if link == "protected":
            return "protected "
        return link + " " if link else ""

    def fn_callees(self):
        """Things a function body may call: functions, aliases and ifuncs of i32(i32)."""
        c = [self.ref(f) for f in self.funcs]
        c += [self.ref(a) for a in self.aliases if a["fn"]]
        c += ["@" + i["name"] for i in self.ifuncs]
        c += ["@" + n for n in self.decl_f]
        if self.asm:
            c.append("@asm_fn")
        return c

    def emit(self):
        r = self.r
        out = [TRIPLE]
        # Number the unnamed globals in emission order: variables, then functions.
        for e in self.vars + self.funcs:
            if not e["name"]:
                e["num"] = self.anon
                self.anon += 1
        comdats = sorted({f["cgroup"] for f in self.funcs if f["cgroup"]} |
                         {v["name"] for v in self.vars if v["comdat"]} |
                         {c["name"] for c in self.ctors if c["comdat"]})
        for c in comdats:
            out.append("$%s = comdat %s" % (c, "any" if r.random() < 0.9 else "nodeduplicate"))
        if self.asm:
            asm_local = r.choice(self.funcs)
            out += ['module asm ".text"', 'module asm ".globl asm_fn"',
                    'module asm ".type asm_fn,@function"', 'module asm "asm_fn:"',
                    'module asm "  leal 1(%rdi), %eax"', 'module asm "  ret"']
            if asm_local["name"] and asm_local["link"] in ("internal", "private"):
                out.append('module asm ".set asm_ref_%s, %s"' % (asm_local["name"],
                                                                  asm_local["name"]))
                self.asm_local = asm_local
            else:
                self.asm_local = None
            out.append("declare i32 @asm_fn(i32)")
        late = [v for v in self.vars if v["kind"] == "batab"]
        for v in self.vars:
            if v not in late:
                out.append(self.emit_var(v))
        for n in self.decl_v:
            out.append("@%s = external global i32" % n)
        for a in self.aliases:
            t, link = a["target"], self.linkage(a["link"])
            if a["fn"]:
                a["ty"], target = "i32 (i32)", "ptr " + self.ref(t)
            elif "ty" in t:  # an alias of an alias
                a["ty"], target = t["ty"], "ptr " + self.ref(t)
            elif t["kind"] in ("table", "big", "fptab") and r.random() < 0.5:
                a["ty"] = "i32"
                target = "getelementptr (%s, ptr %s, i64 0, i64 1)" % (self.var_type(t),
                                                                        self.ref(t))
            else:
                a["ty"], target = self.var_type(t), "ptr " + self.ref(t)
            out.append("@%s = %salias %s, %s" % (a["name"], link, a["ty"], target))
        for i in self.ifuncs:
            out.append("@%s = %sifunc i32 (i32), ptr @%s" % (i["name"], self.linkage(i["link"]),
                                                             i["res"]))
            out.append("define %sptr @%s() {\n  ret ptr %s\n}" % (
                self.linkage(i["reslink"]), i["res"], self.ref(i["target"])))
        for n in self.decl_f:
            out.append("declare i32 @%s(i32)" % n)
        if any(f["eh"] for f in self.funcs):
            out.append("declare i32 @__gxx_personality_v0(...)")
        for v in late:  # before the bodies, which read it; emitted after them
            v["text"] = self.emit_var(v)
        for f in self.funcs:
            out.append(self.emit_fn(f))
        out += [v["text"] for v in late]
        for c in self.ctors:
            body = "  ret void"
            if self.mutable:
                body = "  store i32 7, ptr %s\n  ret void" % self.ref(r.choice(self.mutable))
            out.append("define %svoid @%s()%s {\n%s\n}" % (
                self.linkage(c["link"]), c["name"], " comdat" if c["comdat"] else "", body))
        self.emit_structors(out)
        self.emit_used(out)
        out += ["!%d = %s" % (10 + i, m) for i, m in enumerate(self.meta)]
        reloc = r.choice(["static", "pic", "pie", "pie"])
        if reloc != "static":
            out.append('!llvm.module.flags = !{!0%s}\n!0 = !{i32 8, !"PIC Level", i32 2}' % (
                ", !1" if reloc == "pie" else ""))
        if reloc == "pie":
            out.append('!1 = !{i32 7, !"PIE Level", i32 2}')
        return "\n".join(out) + "\n"

    def var_type(self, v):
        k = v["kind"]
        if k in ("int", "tls", "assoc"):
            return "i32"
        if k == "table":
            return "[%d x i32]" % v["n"]
        if k == "big":
            return "[%d x i32]" % v["n"]
        if k in ("fptab", "batab"):
            return "[%d x ptr]" % v["n"]
        if k == "str":
            return "[%d x i8]" % v["n"]
        if k == "struct":
            return "{ ptr, i32 }"

    def emit_var(self, v):
        r = self.r
        k = v["kind"]
        if k == "int" or k == "tls" or k == "assoc":
            init = "0" if v["link"] == "common" else str(r.randint(0, 1000))
        elif k in ("table", "big"):
            v["n"] = r.randint(1, 16) if k == "table" else r.choice([1100, 3000, 20000])
            init = "[" + ", ".join("i32 %d" % r.randint(-50, 50) for _ in range(v["n"])) + "]"
        elif k == "fptab":
            cands = self.fn_callees() or ["null"]
            v["n"] = r.randint(1, 4)
            init = "[" + ", ".join("ptr " + r.choice(cands) for _ in range(v["n"])) + "]"
        elif k == "batab":
            f = r.choice([f for f in self.funcs if f["ba"]])
            v["n"] = 2
            v["ba_fn"] = f
            init = "[ptr blockaddress(%s, %%b1), ptr blockaddress(%s, %%b2)]" % (self.ref(f),
                                                                                 self.ref(f))
        elif k == "str":
            s = "s%d" % r.randint(0, 99)
            v["n"] = len(s) + 1
            init = 'c"%s\\00"' % s
        elif k == "struct":
            others = [o for o in self.vars if o is not v and o["kind"] != "tls"]
            p = self.ref(r.choice(others)) if others else "null"
            init = "{ ptr %s, i32 %d }" % (p, r.randint(0, 9))
        words = [self.linkage(v["link"]).strip()]
        if k == "tls":
            words.append(r.choice(["thread_local", "thread_local(localdynamic)",
                                   "thread_local(initialexec)", "thread_local(localexec)"]))
        if v["unnamed"]:
            words.append(v["unnamed"])
        words.append("constant" if v["const"] else "global")
        s = "%s = %s %s %s" % (self.ref(v), " ".join(w for w in words if w), self.var_type(v),
                               init)
        if v["comdat"]:
            s += ", comdat"
        if v["section"]:
            s += ', section "%s"' % (".rodata.fuzz" if v["const"] else ".data.fuzz")
        if k == "assoc":  # kept with what it describes
            # Only functions that stay defined: LLVM breaks (the verifier, or a crash in
            # code generation) when an !associated target is dropped as unused, and a
            # shard may leave a linkonce or small internal target unused in its owner
            # where the whole module uses it (docs/robustness.md). A mergeable constant
            # (a string) as the target makes ld.lld -r fail, as a final link would.
            t = r.choice([f for f in self.funcs if f["name"]
                          and f["link"] in ("", "hidden", "weak")] or [None])
            s += ', section "fuzz_assoc"'
            if t:
                self.meta.append("!{ptr %s}" % self.ref(t))
                s += ", !associated !%d" % (9 + len(self.meta))
        return s

    def emit_fn(self, f):
        """A body: a chain of i32 values through calls, loads, stores and arithmetic."""
        r = self.r
        callees = self.fn_callees()
        loads = [v for v in self.vars if v["kind"] in ("int", "tls", "table", "big")]
        fptabs = [v for v in self.vars if v["kind"] == "fptab"]
        batabs = [v for v in self.vars if v["kind"] == "batab"]
        lines, n, cur = [], 0, "%x"

        def new():
            nonlocal n
            n += 1
            return "%%t%d" % n
        for _ in range(f["size"]):
            op = self.pick({"arith": 10, "call": 4 if callees else 0, "load": 3 if loads else 0,
                            "ctor": 0.5 if self.ctors else 0,
                            "store": 1 if self.mutable else 0,
                            "icall": 1 if fptabs else 0, "addr": 1 if self.mutable else 0})
            t = new()
            if op == "arith":
                lines.append("  %s = %s i32 %s, %d" % (t, r.choice(["add", "mul", "xor", "and"]),
                                                       cur, r.randint(1, 99)))
            elif op == "call":
                lines.append("  %s = call i32 %s(i32 %s)" % (t, r.choice(callees), cur))
            elif op == "load":
                v = r.choice(loads)
                if v["kind"] in ("table", "big"):
                    lines.append("  %s = load i32, ptr getelementptr (%s, ptr %s, i64 0, i64 %d)"
                                 % (t, self.var_type(v), self.ref(v), r.randrange(v["n"])))
                else:
                    lines.append("  %s = load i32, ptr %s" % (t, self.ref(v)))
                lines.append("  %s.a = add i32 %s, %s" % (t, t, cur))
                t += ".a"
            elif op == "store":
                lines.append("  store i32 %s, ptr %s" % (cur, self.ref(r.choice(self.mutable))))
                continue
            elif op == "icall":
                v = r.choice(fptabs)
                lines.append("  %s.p = load ptr, ptr getelementptr ([%d x ptr], ptr %s, i64 0, "
                             "i64 %d)" % (t, v["n"], self.ref(v), r.randrange(v["n"])))
                lines.append("  %s = call i32 %s.p(i32 %s)" % (t, t, cur))
            elif op == "ctor":  # a constructor also called directly: copied or imported
                lines.append("  call void @%s()" % r.choice(self.ctors)["name"])
                continue
            elif op == "addr":
                g = r.choice(callees)
                lines.append("  %s = ptrtoint ptr %s to i32" % (t, g))
            cur = t
        body = "\n".join(lines)
        tail = "  ret i32 %s" % cur
        pers = ""
        refs = [self.ref(e) for e in self.vars if e["name"]]
        if refs and r.random() < 0.03:
            pers = " prefix ptr " + r.choice(refs)
        if f["ba"]:
            # Its own block addresses, through a table if there is one for it.
            tabs = [v for v in batabs if v.get("ba_fn") is f]
            if tabs:
                sel = ("  %%bp = load ptr, ptr getelementptr ([2 x ptr], ptr %s, i64 0, i64 1)"
                       % self.ref(tabs[0]))
            else:
                sel = ("  %%c = icmp eq i32 %s, 0\n  %%bp = select i1 %%c, ptr blockaddress(%s, "
                       "%%b1), ptr blockaddress(%s, %%b2)" % (cur, self.ref(f), self.ref(f)))
            tail = ("%s\n  indirectbr ptr %%bp, [label %%b1, label %%b2]\nb1:\n  ret i32 %s\n"
                    "b2:\n  ret i32 0" % (sel, cur))
        elif f["switch"]:
            tail = ("  switch i32 %s, label %%d [i32 0, label %%s0\n    i32 1, label %%s1]\n"
                    "s0:\n  ret i32 1\ns1:\n  ret i32 2\nd:\n  ret i32 %s" % (cur, cur))
        elif f["eh"] and callees:
            pers += " personality ptr @__gxx_personality_v0"
            tail = ("  %%iv = invoke i32 %s(i32 %s)\n          to label %%ok unwind label %%lp\n"
                    "ok:\n  ret i32 %%iv\nlp:\n  %%l = landingpad { ptr, i32 } cleanup\n"
                    "  resume { ptr, i32 } %%l" % (r.choice(callees), cur))
        attrs = " " + " ".join(a for a in f["attrs"] if a not in ("section", "unnamed_addr")) \
            if f["attrs"] else ""
        pre = " unnamed_addr" if "unnamed_addr" in f["attrs"] else ""
        post = ' section ".text.fuzz"' if "section" in f["attrs"] else ""
        if f["cgroup"]:
            post += " comdat" if f["cgroup"] == f["name"] else " comdat($%s)" % f["cgroup"]
        return "define %si32 %s(i32 %%x)%s%s%s%s {\nentry:\n%s\n%s\n}" % (
            self.linkage(f["link"]), self.ref(f), pre, attrs.rstrip(), post, pers, body, tail)

    def emit_structors(self, out):
        r = self.r
        for arr in ("llvm.global_ctors", "llvm.global_dtors"):
            ents = []
            for c in self.ctors:
                if r.random() < 0.6:
                    key = "ptr @%s" % c["name"] if c["comdat"] and r.random() < 0.7 else "ptr null"
                    ents.append("{ i32, ptr, ptr } { i32 %d, ptr @%s, %s }" % (
                        r.choice([65535, 101, 200]), c["name"], key))
            if self.decl_f and r.random() < 0.1:
                ents.append("{ i32, ptr, ptr } { i32 65535, ptr @%s, ptr null }" % self.decl_f[0])
            if ents:
                out.append("@%s = appending global [%d x { i32, ptr, ptr }] [%s]" % (
                    arr, len(ents), ", ".join(ents)))

    def emit_used(self, out):
        r = self.r
        cands = [e for e in self.funcs + self.vars
                 if e["name"] and e["link"] != "available_externally"]
        for arr in ("llvm.used", "llvm.compiler.used"):
            ents = set()
            if cands and r.random() < 0.15:
                ents = {self.ref(e) for e in r.sample(cands, min(len(cands), r.randint(1, 3)))}
            if arr == "llvm.compiler.used" and self.asm and self.asm_local:
                ents.add(self.ref(self.asm_local))
            if ents:
                out.append('@%s = appending global [%d x ptr] [%s], section "llvm.metadata"' % (
                    arr, len(ents), ", ".join("ptr " + e for e in sorted(ents))))


# --------------------------------------------------------------------------------------
# Generated C (and C++) programs: a main that prints


class CGen:
    """A random program: static and external helpers, tables, function pointers, bounded
    recursion, static and thread-local state, a constructor; main prints results. Only
    unsigned arithmetic and bounded indices: no undefined behaviour."""

    def __init__(self, rng, cxx):
        self.r, self.cxx = rng, cxx

    def generate(self):
        r = self.r
        nf = r.randint(2, 14)
        out = ["#include <stdio.h>", "typedef unsigned (*fn_t)(unsigned, unsigned);"]
        tabs = []
        for i in range(r.randint(0, 4)):
            n = r.choice([3, 5, 8, 16, 40, 1500])
            vals = ", ".join(str(r.randint(0, 999)) for _ in range(n))
            q = r.choice(["static const", "const", "static", ""])
            out.append("%s unsigned tab%d[%d] = {%s};" % (q, i, n, vals))
            tabs.append(("tab%d" % i, n))
        gvars = []
        for i in range(r.randint(0, 4)):
            q = r.choice(["static", "", "static", "__thread", "static __thread", "tentative"])
            if q == "tentative":  # common with -fcommon (C)
                out.append("unsigned g%d;" % i)
            else:
                out.append("%s unsigned g%d = %d;" % (q, i, r.randint(0, 99)))
            gvars.append("g%d" % i)
        strs = ["s%d" % r.randint(0, 9) for _ in range(r.randint(1, 3))]
        out.append("static const char *const names[] = {%s};" % ", ".join('"%s"' % s
                                                                          for s in strs))
        funcs = []
        for i in range(nf):
            q = self.pick_qual()
            name = "f%d" % i
            out.append("%s unsigned %s(unsigned x, unsigned d);" % (q, name))
            funcs.append((name, q))
        if r.random() < 0.5 and nf > 1:
            ptrs = ", ".join(r.choice(funcs)[0] for _ in range(r.randint(1, 4)))
            out.append("static fn_t const ptrs[] = {%s};" % ptrs)
            has_ptrs = ptrs.count(",") + 1
        else:
            has_ptrs = 0
        for i, (name, q) in enumerate(funcs):
            body = []
            for _ in range(r.randint(1, 6)):
                body.append(self.stmt(i, funcs, tabs, gvars, has_ptrs))
            if r.random() < 0.1:
                body = ["static void *lab[] = {&&l0, &&l1};", "goto *lab[x & 1];",
                        "l0: x += 3;", "l1: x ^= 5;"] + body
            out.append("%s unsigned %s(unsigned x, unsigned d) {\n  %s\n  return x;\n}" % (
                q, name, "\n  ".join(body)))
        if not self.cxx and r.random() < 0.3:
            out.append("unsigned alias_f0(unsigned, unsigned) __attribute__((alias(\"f0\")));")
        if gvars and r.random() < 0.3:
            out.append("__attribute__((constructor)) static void init(void) { %s += 11; }"
                       % gvars[0])
        main = ["int main(void) {", "  unsigned acc = 0;"]
        for i in range(r.randint(1, 5)):
            f = r.choice(funcs)[0]
            main.append('  printf("%%s %%u\\n", names[%d], %s(%du, %d));' % (
                i % len(strs), f, r.randint(0, 1000), r.randint(1, 5)))
        for g in gvars:
            main.append('  printf("%s=%%u\\n", %s);' % (g, g))
        main.append("  return 0;\n}")
        out += main
        return "\n".join(out) + "\n"

    def pick_qual(self):
        r = self.r
        c = r.random()
        if self.cxx and c < 0.3:
            return r.choice(["inline", "static inline"])
        if c < 0.45:
            return "static"
        if c < 0.55:
            return "__attribute__((noinline)) static"
        if c < 0.6:
            return "__attribute__((weak))"
        if c < 0.65:
            return "__attribute__((noinline))"
        return ""

    def stmt(self, i, funcs, tabs, gvars, nptrs):
        r = self.r
        k = r.randint(0, 9)
        if k == 0 and i > 0:  # calls go down the list, or recurse with d decreasing
            return "if (d) x += %s(x %% 97u, d - 1);" % funcs[r.randrange(i)][0]
        if k == 1:
            return "if (d) x ^= %s(x >> 1, d - 1);" % funcs[i][0]
        if k == 2 and tabs:
            t, n = r.choice(tabs)
            return "x += %s[x %% %du];" % (t, n)
        if k == 3 and gvars:
            g = r.choice(gvars)
            return "%s += x & 15u; x += %s;" % (g, g)
        if k == 4 and nptrs:
            return "if (d) x += ptrs[x %% %du](x, d - 1);" % nptrs
        if k == 5:
            return "for (unsigned i = 0; i < (x & 15u); i++) x = x * %du + i;" % r.randint(3, 9)
        if k == 6:
            return ("switch (x & 3u) { case 0: x += 5; break; case 1: x *= 3; break; "
                    "default: x ^= 0x55u; }")
        if k == 7:
            return "x += __builtin_popcount(x) + (x >> %d);" % r.randint(1, 9)
        return "x = x * %du + %du;" % (r.randint(1, 99), r.randint(0, 99))


# --------------------------------------------------------------------------------------
# Reading shard and input modules


LINKAGES = {"private", "internal", "available_externally", "linkonce", "weak", "common",
            "appending", "extern_weak", "linkonce_odr", "weak_odr", "external"}
LOCAL = {"private", "internal"}
LINKONCE = {"linkonce", "linkonce_odr"}
NAME = r'(@(?:"(?:[^"\\]|\\.)*"|[-\w.$]+))'
ENTRY_RE = re.compile(r'\{ i32 (\d+), ptr (@[^,\s]+|null), ptr (@[^\s}]+|null) \}')


class Mod:
    """The global values of a disassembled module: definitions (name -> kind, linkage,
    visibility, comdat), declarations, ctors/dtors and used entries, module asm."""

    def __init__(self, text):
        self.defs, self.decls = {}, set()
        self.ctors, self.dtors, self.used = [], [], []
        self.asm = []
        for line in text.splitlines():
            if line.startswith("define "):
                m = re.match(r"define ([^@]*)" + NAME + r"\(", line)
                words = m.group(1).split()
                self.add_def(m.group(2), "function", words,
                             re.search(r"\bcomdat\b", line[m.end():]) is not None)
            elif line.startswith("declare "):
                m = re.match(r"declare [^@]*" + NAME + r"\(", line)
                self.decls.add(m.group(1))
            elif line.startswith("module asm "):
                self.asm.append(line)
            elif line.startswith("@"):
                m = re.match(NAME + r" = (.*)$", line)
                if not m:
                    continue
                name, rest = m.group(1), m.group(2)
                words = []
                kind = None
                for w in rest.split():
                    if w in ("global", "constant", "alias", "ifunc"):
                        kind = w
                        break
                    words.append(w)
                if kind is None:
                    continue
                if name in ("@llvm.global_ctors", "@llvm.global_dtors"):
                    ents = ENTRY_RE.findall(rest)
                    (self.ctors if "ctors" in name else self.dtors).extend(ents)
                    continue
                if name in ("@llvm.used", "@llvm.compiler.used"):
                    self.used += re.findall(r"ptr " + NAME, rest)
                    continue
                if kind in ("global", "constant") and ("external" in words or
                                                       "extern_weak" in words):
                    self.decls.add(name)
                    continue
                self.add_def(name, "variable" if kind in ("global", "constant") else kind,
                             words, ", comdat" in rest)

    def add_def(self, name, kind, words, comdat):
        link = next((w for w in words if w in LINKAGES), "external")
        vis = next((w for w in words if w in ("hidden", "protected")), "default")
        self.defs[name] = (kind, link, vis, comdat)


def anonymous(name):
    return re.fullmatch(r"@\d+", name) is not None


def read_manifest(path):
    """(number of shards, {new name: old name or '-'}, shard lines) of a manifest."""
    shards, promos, lines = None, {}, 0
    with open(path) as f:
        head = f.readline().strip()
        if head != "shard-manifest 1":
            raise Failure("manifest", "bad first line %r" % head)
        for line in f:
            w = line.split()
            if w[:1] == ["shards"]:
                shards = int(w[1])
            elif w[:1] == ["promoted"]:
                promos["@" + w[1]] = w[2]
            elif w[:1] == ["shard"]:
                if int(w[1]) != lines:
                    raise Failure("manifest", "shard line %d out of order" % lines)
                lines += 1
    return shards, promos, lines


# --------------------------------------------------------------------------------------
# Checks


def check_split(inp, shards, promos, linked):
    """Checks the shard modules (Mod) against the input (Mod); raises Failure."""
    suffix = re.compile(r"\.shard\.[0-9a-f]{16}(\.\d+)?$")

    def private(name):
        """Private and unnamed globals: the split may rename them (after their referrer),
        and their names never reach the symbol table."""
        return anonymous(name) or name not in inp.defs or inp.defs[name][1] == "private"

    def orig(name):
        """A shard's name for a global as the input names it (promoted private and
        unnamed globals keep their new name)."""
        if name in promos:
            base = suffix.sub("", name)
            return name if private(base) else base
        return name
    anon = {x for x in promos if private(suffix.sub("", x))}
    # Defined outside the module: declarations and available_externally definitions.
    outside = inp.decls | {x for x, d in inp.defs.items() if d[1] == "available_externally"}
    holders, imports = {}, []
    for k, s in enumerate(shards):
        for name, (kind, link, vis, _) in s.defs.items():
            o = orig(name)
            if link == "private" or anonymous(name):
                continue
            if o in anon:
                if link == "available_externally":
                    imports.append((k, name, o))
                else:
                    holders.setdefault(o, []).append((k, name, link, vis))
                continue
            if o not in inp.defs:
                raise Failure("extra-definition", "shard %d defines %s, which the input does "
                              "not define" % (k, name))
            if link == "available_externally" and inp.defs[o][1] != link:
                imports.append((k, name, o))
                continue
            if inp.defs[o][0] != kind:
                raise Failure("kind", "shard %d: %s is a %s, in the input a %s" % (
                    k, name, kind, inp.defs[o][0]))
            holders.setdefault(o, []).append((k, name, link, vis))
    public = {}  # original name -> shard holding it with a linkage other shards can use
    for o, (kind, link, vis, comdat) in inp.defs.items():
        if private(o) or link == "available_externally":
            continue
        h = holders.get(o, [])
        if not h:
            raise Failure("lost-definition", "%s %s (%s) is defined in no shard" % (kind, o,
                                                                                    link))
        if link in LOCAL:
            renamed = [x for x in h if x[1] != o or x[1] in promos]
            if renamed:
                # A local comdat group may be copied into several shards (the linker
                # keeps one group); anything else is defined once.
                if (len(h) != 1 and not comdat) or any(x[2] != "external" or x[3] != "hidden"
                                                       for x in h):
                    raise Failure("promotion", "promoted %s %s: expected one hidden external "
                                  "definition, got %s" % (link, o, h))
                new = h[0][1]
                if new not in promos:
                    raise Failure("promotion", "%s renamed to %s in shard %d but not in the "
                                  "manifest" % (o, new, h[0][0]))
                want = o[1:] if (link == "internal" and new != o) else "-"
                if promos[new] != want:
                    raise Failure("promotion", "manifest says %s %s, expected %s" % (
                        new, promos[new], want))
                public[o] = h[0]
            elif any(x[2] != link for x in h):
                raise Failure("linkage", "%s %s became %s" % (link, o, h))
        elif link in LINKONCE:
            ok = {link, "weak_odr" if link == "linkonce_odr" else "weak"}
            bad = [x for x in h if x[2] not in ok or x[3] != vis]
            if bad:
                raise Failure("linkage", "%s %s %s became %s" % (link, vis, o, bad))
            strong = [x for x in h if x[2] not in LINKONCE]
            if strong:
                public[o] = strong[0]
        else:
            if len(h) != 1:
                raise Failure("duplicate-definition", "%s %s is defined in shards %s" % (
                    link, o, [x[0] for x in h]))
            if h[0][2] != link or h[0][3] != vis:
                raise Failure("linkage", "%s %s %s became %s %s in shard %d" % (
                    link, vis, o, h[0][2], h[0][3], h[0][0]))
            public[o] = h[0]
    for o in anon:
        h = holders.get(o, [])
        if not h or any(x[2] in LOCAL or x[3] != "hidden" for x in h):
            raise Failure("promotion", "promoted unnamed global %s defined as %s" % (o, h))
        public[o] = h[0]
    for k, name, o in imports:
        if o not in public:
            raise Failure("dangling-import", "shard %d imports %s (available_externally) but "
                          "no shard exports %s" % (k, name, o))
    for k, s in enumerate(shards):
        for name in s.decls:
            if name.startswith("@llvm.") or name in outside:
                continue
            o = orig(name)
            if anonymous(name) and not any(anonymous(x) for x in inp.decls):
                raise Failure("unnamed-declaration", "shard %d declares unnamed %s: another "
                              "shard's unnamed definition, which no name can reach" % (k, name))
            if o not in public:
                raise Failure("dangling-declaration", "shard %d declares %s, which no shard "
                              "defines with a linkage it can use (input: %s; holders: %s)" % (
                                  k, name, inp.defs.get(o, ("-", "undefined"))[:2],
                                  holders.get(o)))
    # Structors run once, or once per linked comdat copy.
    for arr in ("ctors", "dtors"):
        want = {}
        for e in getattr(inp, arr):
            want[e] = want.get(e, 0) + 1
        got = {}
        for s in shards:
            for p, fn, key in getattr(s, arr):
                e = (p, orig(fn) if fn != "null" else fn, orig(key) if key != "null" else key)
                got[e] = got.get(e, 0) + 1
        for e in set(want) | set(got):
            w, g = want.get(e, 0), got.get(e, 0)
            key_comdat = e[2] in inp.defs and inp.defs[e[2]][3]
            if w == 0 or g < w or (g > w and not key_comdat):
                raise Failure("structors", "llvm.global_%s entry %s: %d in the input, %d in "
                              "the shards" % (arr, e, w, g))
    for u in inp.used:
        if anonymous(u) or u in inp.decls:
            continue
        if not any(u in {orig(x) for x in s.used} for s in shards):
            raise Failure("used", "llvm.used entry %s is in no shard" % u)
    if inp.asm:
        with_asm = [k for k, s in enumerate(shards) if s.asm]
        if len(with_asm) != 1 or shards[with_asm[0]].asm != inp.asm:
            raise Failure("module-asm", "module asm in shards %s" % with_asm)
    # The linked shards define the input's symbols and leave nothing new undefined.
    def strong(m):
        return {x for x, d in m.defs.items() if d[1] not in LOCAL | LINKONCE |
                {"available_externally"} and not anonymous(x)}
    inp_strong, got = strong(inp), strong(linked)
    missing = inp_strong - got
    extra = got - inp_strong - set(promos) - {x for x, d in inp.defs.items() if d[1] in LINKONCE}
    if missing or extra:
        raise Failure("linked-symbols", "linked shards lack %s, add %s" % (
            sorted(missing)[:5], sorted(extra)[:5]))
    undef = {x for x in linked.decls if not x.startswith("@llvm.")} - outside
    if undef:
        raise Failure("linked-undefined", "linked shards leave %s undefined" % sorted(undef)[:5])


def nm_symbols(env, obj):
    """{name: type} of the defined external symbols of an object; Failure on duplicates."""
    out = run([env.tool("llvm-nm"), "--defined-only", "--extern-only", obj], "nm")
    syms = {}
    for line in out.splitlines():
        w = line.split()
        if len(w) < 2:
            continue
        t, name = w[-2], w[-1]
        if name in syms:
            raise Failure("duplicate-symbol", "%s defines %s twice" % (os.path.basename(obj),
                                                                      name))
        syms[name] = t
    return syms


def check_objects(env, ref, out, inp):
    """The driver's object has the reference's external symbols, with the same types;
    linkonce (C++ inline) definitions may differ, as in the README."""
    a, b = nm_symbols(env, ref), nm_symbols(env, out)
    if inp.ctors:
        # The serial build may evaluate a constructor at compile time (GlobalOpt) and
        # move a variable it sets from .bss to .data; a shard without the variable cannot.
        for syms in (a, b):
            for x, t in syms.items():
                syms[x] = {"B": "D", "b": "d"}.get(t, t)
    loose = {x[1:] for x, d in inp.defs.items() if d[1] in LINKONCE}
    # Unnamed globals get symbols __unnamed_N numbered per module: global in the serial
    # build, named and made local by the split (no other unit can name them). DW.ref.*
    # (weak, hidden) comes with landing pads that the serial build may optimise away.
    diff = [(x, a.get(x), b.get(x)) for x in sorted(set(a) | set(b))
            if a.get(x) != b.get(x) and x not in loose
            and not re.fullmatch(r"__unnamed_\d+|DW\.ref\..*", x)]
    if diff:
        raise Failure("symbols", "clang -c vs shard (name, clang, shard): %s" % diff[:6])
    # Promoted internal symbols get their names back (private and unnamed ones keep the
    # new name, as local symbols).
    left = []
    for line in run([env.tool("llvm-nm"), out], "nm").splitlines():
        m = re.search(r"(\S+)\.shard\.[0-9a-f]{16}(\.\d+)?$", line)
        if m and inp.defs.get("@" + m.group(1), (0, 0))[1] == "internal":
            left.append(line)
    if left:
        raise Failure("symbols", "promoted names not restored: %s" % left[:3])


# --------------------------------------------------------------------------------------
# One module and its cases


def split_params(r, tiny):
    """Random split limits (all at 0 sometimes: the naive split)."""
    if r.random() < 0.1:
        p = {"import-cost": 0, "local-import-cost": 0, "dup-cost": 0, "import-depth": 0,
             "const-bytes": 0}
        if tiny:
            p["tiny-cost"] = 0
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
    nshards, promos, lines = read_manifest(os.path.join(sd, "manifest"))
    if n and nshards != n or lines != nshards:
        raise Failure("manifest", "%s shards, %d shard lines, asked for %d" % (nshards, lines, n))
    bcs = [os.path.join(sd, "shard.%d.bc" % k) for k in range(nshards)]
    linked = os.path.join(sd, "linked.bc")
    run([env.tool("llvm-link"), "--disable-debug-info-type-map"] + bcs + ["-o", linked],
        "link")
    mods = dis(env, bcs + [linked])
    check_split(inp_mod, mods[:-1], promos, mods[-1])
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
            case = {"i": i, "n": n, "params": split_params(r, env.tiny), "mv": mv,
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
