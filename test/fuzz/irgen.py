"""Generated IR for the fuzzer (fuzz.py): modules with what the partitioner must handle."""

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
