"""The fuzzer's checks (fuzz.py): the shards against their input, the objects against clang's."""
import os
import re

from tools import Failure, run

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
    """(number of shards, {new name: old name or '-'}, shard lines, {grouped new names}) of a
    manifest."""
    shards, promos, lines, grouped = None, {}, 0, set()
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
            elif w[:1] == ["grouped"]:
                grouped.add("@" + w[1])
            elif w[:1] == ["shard"]:
                if int(w[1]) != lines:
                    raise Failure("manifest", "shard line %d out of order" % lines)
                lines += 1
    return shards, promos, lines, grouped


# --------------------------------------------------------------------------------------
# Checks


def check_split(inp, shards, promos, linked, grouped=frozenset()):
    """Checks the shard modules (Mod) against the input (Mod); raises Failure. A grouped
    promotion (a shared local) is linkonce_odr in a comdat in each shard that holds it, or
    weak_odr in its owner where another shard only declares it."""
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
        for name, (kind, link, vis, comdat) in s.defs.items():
            o = orig(name)
            if link == "private" or anonymous(name):
                continue
            if o in anon:
                if link == "available_externally":
                    imports.append((k, name, o))
                else:
                    holders.setdefault(o, []).append((k, name, link, vis, comdat))
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
            holders.setdefault(o, []).append((k, name, link, vis, comdat))
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
            if renamed and renamed[0][1] in grouped:
                new = renamed[0][1]
                if any(x[1] != new or x[2] not in ("linkonce_odr", "weak_odr") or
                       x[3] != "hidden" or not x[4] for x in h):
                    raise Failure("promotion", "shared %s %s: expected hidden linkonce_odr "
                                  "definitions in a comdat, got %s" % (link, o, h))
                kept = [x for x in h if x[2] == "weak_odr"]
                if kept:
                    public[o] = kept[0]
            elif renamed:
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
