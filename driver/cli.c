/* cli: the command-line front end: shard [options] -o OUT INPUT into a pipeline
   description. Only the syntax is checked here (usage errors exit 2); what needs the file
   system (the default plugin, the --malloc library, the tools) is preflight's. */
#define _XOPEN_SOURCE 700
#include "cli.h"
#include "ir/limits.h"
#include "launcher.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USAGE                                                                                      \
  "usage: shard [-j N] [--shards N] [--split-parts N] [-O0|-O1|-O2|-O3] [--mv-targets T1,T2]\n"    \
  "             [-v] [-fno-pic|-fPIC|-fPIE] [-mcmodel=MODEL] [--presimplify] [--profile-use P]\n"  \
  "             [--profile-generate F [--profile-atomic]]\n"                                       \
  "             [--keep-temps DIR] [--report FILE] [--time-trace FILE]\n"                          \
  "             [--launcher CMD] [--executor auto|processes|threads|slurm]\n"                      \
  "             [--srun-args ARGS] [--max-mem SIZE] [--cache-dir DIR | --no-cache]\n"              \
  "             [--cache-size SIZE] [--llvm-bindir DIR] [--plugin PATH] [--malloc LIB]\n"          \
  "             [--emit-ninja FILE] [--work-dir DIR] -o OUT INPUT\n"                               \
  "       shard [options] [--] COMPILER ARGS... (a compiler launcher)\n"

/* Printed after a usage error. */
static const char usage_hint[] = USAGE "Try 'shard --help' for more information.\n";

/* Prints the --help text. */
void cli_help(void) {
  printf("%s\n"
         "Splits the LLVM module INPUT (.bc or .ll) into shards, compiles them in parallel\n"
         "and links one relocatable object OUT. Before a compiler (clang, clang++, clang-NN, a\n"
         "path to one), shard is its launcher: a compile of one C or C++ source to an object\n"
         "is sharded, any other command runs unchanged (docs/launcher.md). $SHARD_OPTIONS\n"
         "holds options read before the command line's.\n\n"
         "options:\n"
         "  -o OUT              output object file (required)\n"
         "  -j N                shard jobs run at once (default: online CPUs, or as many as\n"
         "                      the jobserver of a parent make or ninja allows)\n"
         "  --max-mem SIZE      run shard jobs at once only while their predicted peak memory\n"
         "                      adds up to at most SIZE bytes (suffix K, M, G, T: KiB, MiB...)\n"
         "  --shards N          number of shards; 0 lets the plugin choose (default 0)\n"
         "  --split-parts N     split in N parts at once, each with its own copy of the\n"
         "                      module; 0 chooses from -j and -O (default 0)\n"
         "  -O0 -O1 -O2 -O3     optimisation level, as clang -O<l> -c (default -O2)\n"
         "  -fno-pic -fPIC -fPIE  compile the shards with this relocation model, as clang\n"
         "                      -c -x ir with the flag (default: the module's PIC and PIE\n"
         "                      levels; its dso_local marks still decide)\n"
         "  -mcmodel=MODEL      compile the shards with this code model (tiny, small,\n"
         "                      kernel, medium, large), as clang -mcmodel=MODEL -c -x ir\n"
         "  --mv-targets T1,T2  CPU multiversioning: clone the functions predicted to gain\n"
         "                      for these targets (x86-64-v2, x86-64-v3, x86-64-v4, haswell,\n"
         "                      znver4, ...) and dispatch at run time\n"
         "  --presimplify       simplify once, in the split, the functions several shards\n"
         "                      hold (imports, copies); the shard compiles skip them\n"
         "  --profile-use P     apply the IR-level profile P (llvm-profdata merge of clang\n"
         "                      -fprofile-generate's) as clang -O<l> -fprofile-use=P does,\n"
         "                      to the whole module in the split (-O1..-O3)\n"
         "  --profile-generate F  instrument the whole module in the split as clang -O<l>\n"
         "                      -fprofile-generate does; the program writes the raw profile\n"
         "                      F (LLVM_PROFILE_FILE's patterns: DIR/default_%%m.profraw)\n"
         "  --profile-atomic    update the counters atomically (-fprofile-update=atomic)\n"
         "  --keep-temps DIR    work in DIR (created if missing) and keep its files\n"
         "  --work-dir DIR      make the (removed) work directory in DIR, not $TMPDIR: with\n"
         "                      --executor slurm, storage every node sees\n"
         "  -v                  print commands and phase timings to stderr\n"
         "  --report FILE       write JSON: per shard predicted cost, time, memory; summary\n"
         "  --time-trace FILE   write the phases and shard jobs as Chrome-trace JSON\n"
         "  --launcher CMD      run each shard compile as CMD clang ... (words split at\n"
         "                      spaces, no shell; e.g. a remote-execution wrapper)\n"
         "  --executor E        what runs the shard compiles: 'threads', all three phases\n"
         "                      in this process (libshard; a crash inside LLVM runs the\n"
         "                      build again as 'processes'); 'processes', child processes\n"
         "                      on this machine; 'slurm', each one a job step (srun, 1\n"
         "                      task, 1 CPU, the predicted memory), -j steps in flight, the\n"
         "                      work dir on storage the nodes see (docs/cluster.md);\n"
         "                      'auto' (default): threads unless an option here needs\n"
         "                      processes (docs/driver.md)\n"
         "  --srun-args ARGS    more srun arguments for every step, e.g. '-p PART -A ACCT'\n"
         "                      (words split at spaces; default: $SHARD_SRUN_ARGS)\n"
         "  --cache-dir DIR     cache compiled shards and outputs in DIR (default:\n"
         "                      $SHARD_CACHE_DIR, else $XDG_CACHE_HOME/shard/objects, else\n"
         "                      ~/.cache/shard/objects)\n"
         "  --no-cache          compile everything (also: SHARD_NO_CACHE=1)\n"
         "  --cache-size SIZE   keep the cache under SIZE, removing the least recently used\n"
         "                      entries (default 2G)\n"
         "  --emit-ninja FILE   split, then write the shard compiles and the link as a Ninja\n"
         "                      file instead of running them: ninja -f FILE builds OUT;\n"
         "                      work dir FILE.d unless --keep-temps DIR; no --report or\n"
         "                      --time-trace; -v shows the split only\n"
         "  --llvm-bindir DIR   LLVM tools directory (default: $SHARD_LLVM_BINDIR or\n"
         "                      %s)\n"
         "  --plugin PATH       pass plugin (default: <shard dir>/../lib/ShardPlugin.so)\n"
         "  --malloc LIB        allocator preloaded into opt, clang and the linker: a path,\n"
         "                      'auto' (mimalloc, tcmalloc or jemalloc where installed) or\n"
         "                      'none' (default: $SHARD_MALLOC, else auto)\n"
         "  --help              show this help\n"
         "  --version           show the version\n",
         USAGE, SHARD_LLVM_BINDIR);
}

/* Prints the --version line (with the allocator preflight resolved). */
void cli_version(const struct opts *o) {
  printf("shard %s (LLVM %d, tools in %s, malloc %s)\n", SHARD_VERSION, SHARD_LLVM_MAJOR,
         SHARD_LLVM_BINDIR, o->malloc_lib ? o->malloc_lib : "none");
}

/* Parses a decimal integer in [lo, hi] for option NAME, or exits 2. */
static int num(const char *name, const char *s, int lo, int hi) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end || errno || v < lo || v > hi)
    die_usage("invalid value '%s' for %s (expected an integer in %d..%d)", s, name, lo, hi);
  return (int)v;
}

/* Parses the SIZE of option NAME: a positive integer with an optional K, M, G or T (powers
   of 1024), or exits 2. */
static unsigned long long size_arg(const char *name, const char *s) {
  static const char units[] = "KMGT";
  char *end = NULL;
  errno = 0;
  unsigned long long v = isdigit((unsigned char)*s) ? strtoull(s, &end, 10) : 0;
  int shift = 0;
  if (v && !errno && *end) {
    const char *u = strchr(units, toupper((unsigned char)*end));
    if (u)
      shift = 10 * (int)(u - units + 1), end++;
  }
  if (!v || errno || *end || v > (~0ULL >> shift))
    die_usage("invalid value '%s' for %s (expected a size such as 4G, 512M or a number of bytes)",
              s, name);
  return v << shift;
}

/* The arguments before this index came from $SHARD_OPTIONS (0: none did). */
static int env_end;

/* Matches option NAME at argv[*i] as "NAME VALUE", "NAME=VALUE" (long) or "NAMEVALUE"
   (short); returns the value or NULL when argv[*i] is not NAME. */
static const char *val(int argc, char **argv, int *i, const char *name) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (strncmp(a, name, n))
    return NULL;
  if (a[n] == 0) {
    if (*i + 1 >= argc || *i + 1 == env_end) /* not the command line's next word */
      die_usage("option '%s' needs a value%s", name, *i < env_end ? " in SHARD_OPTIONS" : "");
    return argv[++*i];
  }
  if (name[1] == '-')
    return a[n] == '=' ? a + n + 1 : NULL;
  return a + n;
}

/* Checks a --mv-targets list (names separated by commas) and returns it with ':' between
   the names, as pipeline text needs (',' separates passes there). The plugin checks that
   each name is a target it knows. */
static char *mv_list(const char *v) {
  if (!*v)
    die_usage("empty --mv-targets list");
  char *l = xstrdup(v);
  for (char *c = l; *c; c++) {
    if (*c == ',' && (c == l || c[-1] == ':' || !c[1]))
      die_usage("empty target name in --mv-targets '%s'", v);
    if (*c == ',')
      *c = ':';
    else if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' && *c != '.')
      die_usage("invalid character '%c' in --mv-targets '%s'", *c, v);
  }
  return l;
}

/* Splits a --launcher command at spaces and tabs into a NULL-terminated argv (no shell,
   no quoting: the command is a program and its plain arguments). */
static char **words(const char *v, const char *name) {
  size_t n = 0;
  char **w = xmalloc((strlen(v) / 2 + 2) * sizeof *w);
  for (char *t = strtok(xstrdup(v), " \t"); t; t = strtok(NULL, " \t"))
    w[n++] = t;
  if (!n)
    die_usage("empty %s command", name);
  w[n] = NULL;
  return w;
}

/* Checks a -mcmodel= value: one of clang's code model names (the target may still refuse it). */
static const char *code_model(const char *v) {
  if (opts_code_model(v))
    return v;
  die_usage("invalid value '%s' for -mcmodel= (expected tiny, small, kernel, medium or large)", v);
}

/* What parsing the command line keeps beside the pipeline description. */
struct parse {
  struct opts *o;
  int cache_given; /* --cache-dir */
  int no_cache;    /* --no-cache */
  int olevel;      /* -O<l> was given */
};

/* The absolute path of --profile-use's file P, which the split's pass text carries. */
static const char *profile_arg(const char *p) {
  char *path = realpath(p, NULL);
  if (!path)
    die("cannot read the profile '%s': %s", p, strerror(errno));
  if (strpbrk(path, ";,<>"))
    die_usage("--profile-use: the path '%s' holds one of ';,<>', which the pass text cannot carry",
              path);
  return path;
}

/* Takes A when it is an option without a value; returns whether it was one. */
static int flag(struct parse *p, const char *a) {
  if (!strcmp(a, "-v"))
    p->o->verbose = 1;
  else if (a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3])
    p->o->olevel = a[2] - '0', p->olevel = 1;
  else if (!strcmp(a, "--no-cache"))
    p->no_cache = 1;
  else if (!strcmp(a, "--presimplify"))
    p->o->presimplify = 1;
  else if (!strcmp(a, "--profile-atomic"))
    p->o->profile_atomic = 1;
  else if (!strcmp(a, "-fno-pic") || !strcmp(a, "-fPIC") || !strcmp(a, "-fPIE"))
    p->o->reloc = a;
  else if (!strncmp(a, "-mcmodel=", 9))
    p->o->cmodel = code_model(a + 9);
  else
    return 0;
  return 1;
}

/* Takes argv[*i] (and its value) when it is an option whose value is checked or converted;
   returns whether it was one. */
static int converted(struct parse *p, int argc, char **argv, int *i) {
  struct opts *o = p->o;
  const char *v;
  if ((v = val(argc, argv, i, "-o"))) {
    if (!*v)
      die_usage("empty output file name");
    o->out = v;
  } else if ((v = val(argc, argv, i, "-j"))) {
    o->jobs = num("-j", v, 1, 1 << 16);
    o->jobs_given = 1;
  } else if ((v = val(argc, argv, i, "--max-mem"))) {
    o->max_mem = size_arg("--max-mem", v);
  } else if ((v = val(argc, argv, i, "--cache-dir"))) {
    if (!*v)
      die_usage("empty --cache-dir directory");
    o->cache_dir = v;
    p->cache_given = 1;
  } else if ((v = val(argc, argv, i, "--cache-size"))) {
    o->cache_size = size_arg("--cache-size", v);
  } else if ((v = val(argc, argv, i, "--profile-use"))) {
    o->profile_use = profile_arg(v);
  } else if ((v = val(argc, argv, i, "--profile-generate"))) {
    if (!*v || strpbrk(v, ";,<>"))
      die_usage("--profile-generate: '%s' is empty or holds one of ';,<>', which the pass text "
                "cannot carry",
                v);
    o->profile_gen = v;
  } else if ((v = val(argc, argv, i, "--shards"))) {
    o->shards = num("--shards", v, 0, SHARD_MAX_SHARDS);
  } else if ((v = val(argc, argv, i, "--split-parts"))) {
    o->split_parts = num("--split-parts", v, 0, SHARD_MAX_PARTS);
  } else if ((v = val(argc, argv, i, "--mv-targets"))) {
    o->mv_targets = mv_list(v);
  } else if ((v = val(argc, argv, i, "--launcher"))) {
    o->launcher = words(v, "--launcher");
  } else if ((v = val(argc, argv, i, "--srun-args"))) {
    o->srun_args = words(v, "--srun-args");
  } else if ((v = val(argc, argv, i, "--executor"))) {
    if (!strcmp(v, "processes"))
      o->executor = EXEC_PROCESSES;
    else if (!strcmp(v, "slurm"))
      o->executor = EXEC_SLURM;
    else if (!strcmp(v, "threads"))
      o->executor = EXEC_THREADS;
    else if (!strcmp(v, "auto"))
      o->executor = EXEC_AUTO;
    else
      die_usage("invalid value '%s' for --executor (expected auto, processes, slurm or threads)",
                v);
  } else {
    return 0;
  }
  return 1;
}

/* Takes argv[*i] (and its value) when it is an option whose value is kept as it is; returns
   whether it was one. */
static int plain(struct opts *o, int argc, char **argv, int *i) {
  const struct {
    const char *name, **field;
  } opt[] = {{"--report", &o->report},      {"--time-trace", &o->trace},
             {"--emit-ninja", &o->ninja},   {"--keep-temps", &o->keep},
             {"--llvm-bindir", &o->bindir}, {"--plugin", &o->plugin},
             {"--malloc", &o->malloc_arg},  {"--work-dir", &o->work_root}};
  for (size_t k = 0; k < sizeof opt / sizeof *opt; k++) {
    const char *v = val(argc, argv, i, opt[k].name);
    if (v) {
      *opt[k].field = v;
      return 1;
    }
  }
  return 0;
}

/* With --executor slurm and no --srun-args, takes the words of $SHARD_SRUN_ARGS (either front
   end). */
static void srun_env(struct opts *o) {
  const char *env = getenv("SHARD_SRUN_ARGS");
  if (o->executor == EXEC_SLURM && !o->srun_args && env && strspn(env, " \t") < strlen(env))
    o->srun_args = words(env, "$SHARD_SRUN_ARGS");
}

/* Checks what no single option shows: the output and the input are there, the file names are
   not empty, --emit-ninja goes without the options of the jobs it does not run. */
static void check_usage(struct opts *o) {
  if (!o->out)
    die_usage("no output file (use -o OUT)");
  if (!o->input)
    die_usage("no input file");
  if ((o->keep && !*o->keep) || (o->work_root && !*o->work_root))
    die_usage("empty %s directory", o->keep && !*o->keep ? "--keep-temps" : "--work-dir");
  if ((o->report && !*o->report) || (o->trace && !*o->trace))
    die_usage("empty %s file name", o->report && !*o->report ? "--report" : "--time-trace");
  if (o->ninja && !*o->ninja)
    die_usage("empty --emit-ninja file name");
  if (o->ninja && (o->report || o->trace || o->max_mem))
    die_usage("%s cannot be used with --emit-ninja (ninja runs the shard jobs)",
              o->report  ? "--report"
              : o->trace ? "--time-trace"
                         : "--max-mem");
  if (o->executor == EXEC_THREADS && (o->ninja || o->launcher || o->max_mem || o->plugin))
    die_usage("%s cannot be used with --executor threads (docs/driver.md)",
              o->ninja      ? "--emit-ninja"
              : o->launcher ? "--launcher"
              : o->max_mem  ? "--max-mem"
                            : "--plugin");
  if (o->profile_gen && (o->profile_use || !o->olevel))
    die_usage("--profile-generate %s", o->olevel ? "cannot be used with --profile-use"
                                                 : "needs -O1, -O2 or -O3 (the split's pipelines)");
  if (o->profile_atomic && !o->profile_gen)
    die_usage("--profile-atomic needs --profile-generate");
  if (o->ninja && o->executor == EXEC_SLURM)
    die_usage("--executor slurm cannot be used with --emit-ninja (ninja runs the shard jobs)");
  srun_env(o);
  if (o->ninja && !o->keep) /* the split stays for ninja: FILE.d */
    o->keep = fmt("%s.d", o->ninja);
}

/* Puts the words of $SHARD_OPTIONS (split at spaces and tabs) before the command line's
   arguments (build systems pass a launcher as a fixed prefix; the environment adds to it). */
static void with_env_options(int *argc, char ***argv) {
  const char *env = getenv("SHARD_OPTIONS");
  env_end = 0;
  if (!env || !*env)
    return;
  char **w = xmalloc((strlen(env) / 2 + *argc + 2) * sizeof *w);
  int n = 0;
  w[n++] = (*argv)[0];
  for (char *t = strtok(xstrdup(env), " \t"); t; t = strtok(NULL, " \t"))
    w[n++] = t;
  env_end = n;
  for (int i = 1; i < *argc; i++)
    w[n++] = (*argv)[i];
  w[n] = NULL;
  *argc = n;
  *argv = w;
}

/* As a launcher the compiler's arguments name the input, the output and the -O level:
   shard's own -o, -O and INPUT, and --emit-ninja, are usage errors before the compiler. */
static void check_launcher_usage(const struct parse *p) {
  const struct opts *o = p->o;
  if (o->out || o->input)
    die_usage("'%s' before the compiler: the compiler's arguments name the output and the input",
              o->out ? "-o" : o->input);
  if (p->olevel)
    die_usage("-O before the compiler: the compiler's arguments give the -O level");
  if (o->reloc || o->cmodel)
    die_usage("%s before the compiler: the compiler's arguments give the %s",
              o->reloc ? o->reloc : "-mcmodel=", o->reloc ? "relocation model" : "code model");
  if (o->ninja)
    die_usage("--emit-ninja cannot be used as a compiler launcher");
  if (o->profile_use || o->profile_gen || o->profile_atomic)
    die_usage("%s before the compiler: the compiler's profile flags name the profile",
              o->profile_use   ? "--profile-use"
              : o->profile_gen ? "--profile-generate"
                               : "--profile-atomic");
  if (o->executor == EXEC_THREADS)
    die_usage("--executor threads cannot be used as a compiler launcher (docs/driver.md)");
  if ((o->report && !*o->report) || (o->trace && !*o->trace) || (o->keep && !*o->keep) ||
      (o->work_root && !*o->work_root))
    die_usage("empty file name for --report, --time-trace, --keep-temps or --work-dir");
}

/* Fills O from the command line (after $SHARD_OPTIONS; the environment's defaults); returns
   what it asks for: --help and --version stop reading it; before a compiler, CLI_LAUNCH with
   *CMD the compiler's command (NULL-terminated). Usage errors exit 2. */
enum cli_action cli_parse(struct opts *o, int argc, char **argv, char ***cmd) {
  struct parse p = {.o = o};
  int dashdash = 0;
  set_usage(usage_hint);
  opts_init(o);
  with_env_options(&argc, &argv);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (i < env_end && (a[0] != '-' || !a[1] || !strcmp(a, "--")))
      die_usage("'%s' in SHARD_OPTIONS is not a shard option", a);
    if ((dashdash || a[0] != '-' || a[1] == 0) && !o->input && launcher_is_compiler(a)) {
      *cmd = argv + i;
      check_launcher_usage(&p);
      srun_env(o);
      opts_cache(o, p.cache_given, p.no_cache);
      return CLI_LAUNCH;
    }
    if (dashdash || a[0] != '-' || a[1] == 0) {
      if (o->input)
        die_usage("more than one input file ('%s')", a);
      o->input = a;
    } else if (!strcmp(a, "--")) {
      dashdash = 1;
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      return CLI_HELP;
    } else if (!strcmp(a, "--version")) {
      return CLI_VERSION;
    } else if (!flag(&p, a) && !converted(&p, argc, argv, &i) && !plain(o, argc, argv, &i)) {
      die_usage("unknown option '%s'", a);
    }
  }
  check_usage(o);
  opts_cache(o, p.cache_given, p.no_cache);
  return CLI_RUN;
}
