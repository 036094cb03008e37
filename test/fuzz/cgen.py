"""Generated C and C++ programs for the fuzzer (fuzz.py): a main that prints."""

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
