/* launcher: the compiler-launcher front end. Reads the compiler's command (response files
   expanded), decides whether it is a compile of one C or C++ source to an object whose every
   option the shards can honour, and then fills the pipeline description: the front-end step
   (the same command with -Xclang -disable-llvm-passes -emit-llvm, dependency files kept) and
   the compile command template (the command without the source, the output, the preprocessor
   and dependency-file options). Any other command is run unchanged (exec: the compiler's own
   output and exit status). docs/launcher.md lists what is sharded and what passes through. */
#define _XOPEN_SOURCE 700
#include "launcher.h"
#include "profiles.h"
#include "rsp.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The compiler's command as classified: its arguments (response files expanded), where the
   source and the output are, and why it passes through (NULL: it is sharded). */
struct cmdline {
  struct argv a;        /* a.v[0]: the compiler as given */
  int src;              /* index of the source, or 0 */
  const char *out;      /* -o's value, or NULL */
  int has_c;            /* -c */
  int deps;             /* -MD or -MMD */
  int dep_file;         /* -MF */
  int dep_target;       /* -MT or -MQ */
  int olevel;           /* the last -O, as shard's 0..3 */
  int size_opt;         /* the last -O is -Os or -Oz */
  struct profiles prof; /* its profile flags */
  int xclang_arg;       /* the next -Xclang is the argument of a front-end one */
  const char *gz;       /* the debug sections' compression the last option asks for, or NULL */
  char *why;            /* the reason to run the compiler unchanged, or NULL */
};

/* Returns the file name part of PATH. */
static const char *base(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* Whether B is NAME optionally followed by "-" and a version (digits and dots). */
static int named(const char *b, const char *name) {
  size_t n = strlen(name);
  if (strncmp(b, name, n))
    return 0;
  if (!b[n])
    return 1;
  if (b[n] != '-' || !isdigit((unsigned char)b[n + 1]))
    return 0;
  return strspn(b + n + 1, "0123456789.") == strlen(b + n + 1);
}

/* Whether basename B is a clang driver: clang, clang++, clang-NN, clang++-NN. */
static int is_clang(const char *b) { return named(b, "clang") || named(b, "clang++"); }

/* Whether ARG names a compiler (by its basename): clang, clang++, clang-NN, gcc, g++, cc,
   c++ (and their -NN forms). Only clang is sharded; the others are run unchanged. */
int launcher_is_compiler(const char *arg) {
  static const char *const names[] = {"clang", "clang++", "gcc", "g++", "cc", "c++", NULL};
  const char *b = base(arg);
  for (const char *const *n = names; *n; n++)
    if (named(b, *n))
      return 1;
  return 0;
}

/* Sets the reason C passes through (the first one found is kept). */
PRINTF(2, 3) static void pass(struct cmdline *c, const char *f, ...) {
  if (c->why)
    return;
  va_list ap;
  va_start(ap, f);
  char buf[512];
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  c->why = xstrdup(buf);
}

/* Whether NAME is a C or C++ source (or a preprocessed one) by its extension. */
static int is_source(const char *name) {
  static const char *const ext[] = {"c", "i",   "cc", "cp", "cpp",  "cxx", "c++",
                                    "C", "CPP", "ii", "CC", "cppm", NULL};
  const char *dot = strrchr(base(name), '.');
  for (const char *const *e = ext; dot && *e; e++)
    if (!strcmp(dot + 1, *e))
      return 1;
  return 0;
}

/* Options whose value is the next argument when not joined to it. */
/* clang-format off */
static const char *const separate[] = {
    "-o", "-x", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
    "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-iframework",
    "-isystem-after", "-ivfsoverlay", "-include-pch", "-imultilib", "-cxx-isystem", "-MF", "-MT",
    "-MQ", "-MJ", "-Xclang", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-mllvm", "-target",
    "-arch", "-L", "-l", "-u", "-z", "-T", "-e", "-F", "-B", "--sysroot", "-gcc-toolchain",
    "--gcc-toolchain", "-serialize-diagnostics", "-working-directory", "-dependency-file",
    "-Xopenmp-target", "-Xarch_host", "-Xarch_device", NULL};
/* clang-format on */

/* Whether option A takes the next argument as its value. */
static int takes_value(const char *a) {
  for (const char *const *s = separate; *s; s++)
    if (!strcmp(a, *s))
      return 1;
  return 0;
}

/* Options that the shard build cannot honour as the compiler does (other outputs, other
   stages, whole-program or per-output files, profiles that each compile's pipeline matches
   to the whole module's functions): the compiler runs unchanged. A trailing '*' matches any
   rest. */
/* clang-format off */
static const char *const unchanged[] = {
    "-E", "-S", "-emit-llvm", "-fsyntax-only", "-M", "-MM", "-MJ*", "-###", "-v", "--analyze",
    "-flto", "-flto=*", "-fembed-bitcode*", "-gsplit-dwarf*", "-save-temps*", "-ftime-trace*",
    "-fmodules*", "-fsave-optimization-record*", "-foptimization-record-file*", "-ftest-coverage",
    "--coverage", "-fprofile-arcs", "-fprofile-generate-*", "-fprofile-continuous",
    "-fcs-profile-generate*", "-fprofile-sample-use*", "-fauto-profile*", "-fprofile-remapping-file*",
    "-fmemory-profile-use*", "-fstack-usage", "-frecord-command-line", "-grecord-command-line",
    "-serialize-diagnostics", "--serialize-diagnostics",
    "-working-directory", "-fdriver-only", "-emit-ast", "-print-*", "--print-*", "-dump*",
    "--version", "--help", "-cuda*", "--cuda*", "-fopenmp-targets*", "-fembed-offload-object*",
    "-o-", NULL};
/* clang-format on */

/* Whether option A is one that makes the command run unchanged. */
static int forces_unchanged(const char *a) {
  for (const char *const *u = unchanged; *u; u++) {
    size_t n = strlen(*u);
    if ((*u)[n - 1] == '*' ? !strncmp(a, *u, n - 1) : !strcmp(a, *u))
      return 1;
  }
  return 0;
}

/* The -O level A sets as shard's 0..3 (-Os, -Oz: 2; -Og, -O: 1; -Ofast: 3), or -1. */
static int olevel_of(const char *a) {
  if (a[0] != '-' || a[1] != 'O')
    return -1;
  if (!a[2] || !strcmp(a + 2, "g"))
    return 1;
  if (!strcmp(a + 2, "s") || !strcmp(a + 2, "z"))
    return 2;
  if (!strcmp(a + 2, "fast"))
    return 3;
  if (isdigit((unsigned char)a[2]) && !a[3])
    return a[2] > '3' ? 3 : a[2] - '0';
  return -1;
}

/* The compression of debug sections that TYPE names: "zlib", "zstd", "none", or "?" (one the
   link does not know). */
static const char *compression(const char *type) {
  static const char *const known[] = {"zlib", "zstd", "none", NULL};
  for (const char *const *k = known; *k; k++)
    if (!strcmp(type, *k))
      return *k;
  return "?";
}

/* The compression of debug sections that option ITEM of the assembler's asks for, or NULL. */
static const char *as_compression(const char *item) {
  if (!strcmp(item, "--nocompress-debug-sections"))
    return "none";
  if (item[1] == '-')
    item++;
  if (strncmp(item, "-compress-debug-sections", 24))
    return NULL;
  return !item[24] ? "zlib" : item[24] == '=' ? compression(item + 25) : NULL;
}

/* The compression of debug sections that option A (value V, or NULL) asks for: -gz[=TYPE],
   or the assembler's [no]compress-debug-sections through -Wa, (the last of its items) or
   -Xassembler; NULL when it asks for none. */
static const char *debug_compression(const char *a, const char *v) {
  if (!strcmp(a, "-gz"))
    return "zlib";
  if (!strncmp(a, "-gz=", 4))
    return compression(a + 4);
  if (!strcmp(a, "-Xassembler") && v)
    return as_compression(v);
  if (strncmp(a, "-Wa,", 4))
    return NULL;
  char *items = xstrdup(a + 4), *save = NULL;
  const char *last = NULL, *t;
  for (char *w = strtok_r(items, ",", &save); w; w = strtok_r(NULL, ",", &save))
    if ((t = as_compression(w)))
      last = t;
  free(items);
  return last;
}

/* Takes -Xclang's value V into C: the front end's own options that precompiled headers and
   AST plugins add (CMake's target_precompile_headers: -Xclang -include-pch -Xclang PCH -Xclang
   -include -Xclang HEADER) go to the front end only; any other makes the compiler run
   unchanged. */
static void take_xclang(struct cmdline *c, const char *v) {
  static const char *const alone[] = {"-fno-pch-timestamp", "-fno-validate-pch",
                                      "-fpch-validate-input-files-content",
                                      "-fallow-pch-with-compiler-errors", NULL};
  static const char *const with_arg[] = {"-include-pch", "-include", "-add-plugin", NULL};
  if (c->xclang_arg) {
    c->xclang_arg = 0;
    return;
  }
  for (const char *const *k = with_arg; *k; k++)
    if (!strcmp(v, *k))
      c->xclang_arg = 1;
  c->xclang_arg |= !strncmp(v, "-plugin-arg-", 12);
  for (const char *const *k = alone; *k && !c->xclang_arg; k++)
    if (!strcmp(v, *k))
      return;
  if (!c->xclang_arg)
    pass(c, "'-Xclang %s'", v);
}

/* Takes option A (value V, or NULL) into C's summary. */
static void take_option(struct cmdline *c, const char *a, const char *v) {
  int l = olevel_of(a);
  if (c->xclang_arg && strcmp(a, "-Xclang"))
    pass(c, "'-Xclang' without the argument of the one before");
  if (!strcmp(a, "-Xclang"))
    take_xclang(c, v);
  else if (forces_unchanged(a))
    pass(c, "'%s'", a);
  else if (profiles_take(&c->prof, a)) {
    if (c->prof.why)
      pass(c, "%s", c->prof.why);
  } else if (!strcmp(a, "-c"))
    c->has_c = 1;
  else if (!strcmp(a, "-o"))
    c->out = v;
  else if (!strncmp(a, "-o", 2))
    c->out = a + 2;
  else if (l >= 0)
    c->olevel = l, c->size_opt = !strcmp(a, "-Os") || !strcmp(a, "-Oz");
  else if (!strcmp(a, "-MD") || !strcmp(a, "-MMD"))
    c->deps = 1;
  else if (!strncmp(a, "-MF", 3))
    c->dep_file = 1;
  else if (!strncmp(a, "-MT", 3) || !strncmp(a, "-MQ", 3))
    c->dep_target = 1;
  if (!strncmp(a, "-x", 2)) {
    const char *lang = a[2] ? a + 2 : v;
    if (strcmp(lang, "c") && strcmp(lang, "c++"))
      pass(c, "'-x %s'", lang);
  }
  if (c->out && !strcmp(c->out, "-"))
    pass(c, "output to stdout");
  /* Compressed debug sections: the link of the shards compresses them again. */
  const char *gz = debug_compression(a, v);
  if (gz && !strcmp(gz, "?"))
    pass(c, "'%s' (a compression of debug sections the link does not know)", a);
  else if (gz)
    c->gz = strcmp(gz, "none") ? gz : NULL;
}

/* Reads the expanded command in C: the inputs and the options that decide. */
static void classify(struct cmdline *c) {
  c->olevel = 0;
  for (int i = 1; i < c->a.n; i++) {
    const char *a = c->a.v[i], *v = NULL;
    if (a[0] != '-' || !a[1]) {
      if (!strcmp(a, "-"))
        pass(c, "source from stdin");
      else if (!is_source(a))
        pass(c, "input '%s' is not a C or C++ source", a);
      else if (c->src)
        pass(c, "more than one source");
      c->src = i;
      continue;
    }
    if (takes_value(a)) {
      if (i + 1 >= c->a.n) {
        pass(c, "'%s' without its value", a);
        break;
      }
      v = c->a.v[++i];
    }
    take_option(c, a, v);
  }
  if (c->xclang_arg)
    pass(c, "'-Xclang' without the argument of the one before");
  profiles_check(&c->prof, c->olevel, c->size_opt);
  if (c->prof.why)
    pass(c, "%s", c->prof.why);
  if (!c->why && !c->has_c)
    pass(c, "no -c (a link)");
  if (!c->why && !c->src)
    pass(c, "no source");
}

/* Whether option A (of the front end only) goes to the shard compiles too: not the
   preprocessor's, the dependency files' or the language's (clang rejects -std= with -x ir),
   nor -Xclang (of a sharded command, only the front end's: take_xclang). */
static int for_shards(const char *a) {
  /* clang-format off */
  static const char *const fe[] = {
      "-D", "-U", "-I", "-i", "-M", "-std=", "-ansi", "-x", "-nostdinc", "-nostdlibinc", "-undef",
      "-Wp,", "-Xpreprocessor", "-H", "-trigraphs", "-F", "-c", "-o", "-Xclang", NULL};
  /* clang-format on */
  for (const char *const *p = fe; *p; p++)
    if (!strncmp(a, *p, strlen(*p)))
      return 0;
  return 1;
}

/* The object file the compiler writes: -o's value, else the source's name with ".o". */
static char *object_name(const struct cmdline *c) {
  if (c->out)
    return xstrdup(c->out);
  char *o = xstrdup(base(c->a.v[c->src]));
  char *dot = strrchr(o, '.');
  *dot = 0;
  char *r = fmt("%s.o", o);
  free(o);
  return r;
}

/* The dependency file -MD writes without -MF: the object's name with ".d" for its extension. */
static char *dep_name(const char *obj) {
  char *d = xstrdup(obj), *dot = strrchr(d, '.');
  if (dot && dot > d + (base(d) - d))
    *dot = 0;
  char *r = fmt("%s.d", d);
  free(d);
  return r;
}

/* Fills O's front-end step and compile command template from C, with the compiler PATH. */
static void describe(struct opts *o, const struct cmdline *c, const char *path) {
  struct argv fe = {0}, tp = {0};
  av_push(&fe, path);
  av_push(&tp, path);
  for (int i = 1; i < c->a.n; i++) {
    const char *a = c->a.v[i];
    int val = a[0] == '-' && takes_value(a) && i + 1 < c->a.n;
    int shards = i != c->src && for_shards(a);
    if (strncmp(a, "-o", 2)) { /* -o, -oFILE: the front end writes the module */
      av_push(&fe, a);
      if (val)
        av_push(&fe, c->a.v[i + 1]);
    }
    if (shards) {
      av_push(&tp, a);
      if (val)
        av_push(&tp, c->a.v[i + 1]);
    }
    i += val;
  }
  o->out = object_name(c);
  o->source = c->a.v[c->src];
  if (c->deps && !c->dep_file) /* else it would be named after the module */
    av_push(&fe, "-MF"), av_take(&fe, dep_name(o->out));
  if (c->deps && !c->dep_target) /* clang's default target: the object, quoted */
    av_push(&fe, "-MQ"), av_push(&fe, o->out);
  const char *tail[] = {"-Xclang", "-disable-llvm-passes", "-emit-llvm", NULL};
  for (const char *const *t = tail; *t; t++)
    av_push(&fe, *t);
  o->frontend = fe.v;
  o->compile_cmd = tp.v;
  o->olevel = c->olevel;
  o->profile_use = c->prof.use;
  o->profile_gen = c->prof.gen;
  o->profile_atomic = c->prof.atomic;
  o->compress_debug = c->gz;
  o->split_min = LAUNCHER_SPLIT_MIN;
  o->one_shard_input = !o->mv_targets; /* multiversioning changes the code on purpose */
}

/* The path of program NAME as exec would find it in $PATH, or NULL. */
static char *which(const char *name) {
  if (strchr(name, '/'))
    return access(name, X_OK) ? NULL : xstrdup(name);
  const char *path = getenv("PATH");
  char *dirs = xstrdup(path && *path ? path : "/usr/bin:/bin"), *save = NULL;
  for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
    char *p = fmt("%s/%s", *d ? d : ".", name);
    if (!access(p, X_OK)) {
      free(dirs);
      return p;
    }
    free(p);
  }
  free(dirs);
  return NULL;
}

/* The LLVM major version of the clang at PATH: from "clang version NN." in its --version
   output; 0 when it says none. */
static int version_of(const char *path) {
  char *cmd = fmt("'%s' --version 2>/dev/null", path);
  FILE *p = strchr(path, '\'') ? NULL : popen(cmd, "r");
  free(cmd);
  if (!p)
    return 0;
  char line[512];
  int major = 0;
  while (!major && fgets(line, sizeof line, p)) {
    char *v = strstr(line, "clang version ");
    if (v)
      major = atoi(v + strlen("clang version "));
  }
  pclose(p);
  return major;
}

/* The LLVM major of the clang at PATH: the tools directory's when PATH resolves into it,
   else the one its name or --version gives. */
static int major_of(const char *path, const char *bindir) {
  char real[PATH_MAX], dir[PATH_MAX];
  if (realpath(path, real) && realpath(bindir, dir)) {
    char *slash = strrchr(real, '/');
    *slash = 0;
    if (!strcmp(real, dir))
      return SHARD_LLVM_MAJOR;
  }
  const char *dash = strrchr(base(path), '-');
  if (dash && isdigit((unsigned char)dash[1]))
    return atoi(dash + 1);
  return version_of(path);
}

/* Runs the compiler's command CMD as it is (exec: its output and its exit status). */
static noreturn void run_unchanged(char **cmd, const char *why, int verbose) {
  if (verbose)
    note("running the compiler unchanged: %s", why);
  execvp(cmd[0], cmd);
  fprintf(stderr, "shard: error: cannot run '%s': %s\n", cmd[0], strerror(errno));
  exit(errno == ENOENT ? 127 : 126);
}

/* Reads the compiler's command CMD (cmd[0] the compiler): a compile that can be sharded fills
   O for the pipeline (and returns); any other runs unchanged and does not return. */
void launcher_setup(struct opts *o, char **cmd) {
  struct cmdline c = {0};
  av_push(&c.a, cmd[0]);
  for (char **a = cmd + 1; *a; a++) {
    char *bad = rsp_expand(&c.a, *a);
    if (bad) /* the compiler says what it makes of it */
      pass(&c, "cannot read the response file '%s'", bad);
    free(bad);
  }
  if (!is_clang(base(cmd[0])))
    run_unchanged(cmd, "not clang", o->verbose);
  classify(&c);
  if (c.why)
    run_unchanged(cmd, c.why, o->verbose);
  char *path = which(cmd[0]);
  if (!path)
    run_unchanged(cmd, "not found", o->verbose);
  int major = major_of(path, o->bindir);
  if (major != SHARD_LLVM_MAJOR) {
    char *why = fmt("clang %d, not shard's LLVM %d", major, SHARD_LLVM_MAJOR);
    run_unchanged(cmd, why, o->verbose);
  }
  describe(o, &c, path);
}
