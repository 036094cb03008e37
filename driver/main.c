/* shard: splits one LLVM module into shards, compiles them in parallel, links one object.
   Phase 1 (opt + plugin) writes the shards and a manifest, phase 2 compiles each shard with
   clang -c (one process per shard), phase 3 links them with ld.lld -r and restores promoted
   symbols with objcopy. */
#define _XOPEN_SOURCE 700
#include "manifest.h"
#include "opts.h"
#include "proc.h"
#include "report.h"
#include "util.h"
#include "work.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *tools[] = {"opt", "clang", "ld.lld", "llvm-objcopy"};

/* The path of program NAME: NAME itself when it contains a '/', else the first executable
   NAME in $PATH (as a shell would find it); NULL with errno set when there is none. */
static char *find_program(const char *name) {
  if (strchr(name, '/')) {
    if (access(name, X_OK) == 0)
      return xstrdup(name);
    return NULL;
  }
  const char *path = getenv("PATH");
  char *dirs = xstrdup(path && *path ? path : "/usr/bin:/bin"), *save = NULL;
  for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
    char *p = fmt("%s/%s", *d ? d : ".", name);
    if (access(p, X_OK) == 0)
      return p;
    free(p);
  }
  errno = ENOENT;
  return NULL;
}

/* Dies unless PATH can be created or replaced: its directory is writable and PATH is not
   a directory. */
static void check_writable(const char *path) {
  struct stat st;
  char *d = xstrdup(path), *slash = strrchr(d, '/');
  const char *dir = slash ? (slash == d ? "/" : (*slash = 0, d)) : ".";
  if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
    die("cannot write '%s': %s", path, strerror(ENOTDIR));
  if (access(dir, W_OK | X_OK) < 0)
    die("cannot write '%s': %s", path, strerror(errno));
  free(d);
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    die("cannot write '%s': %s", path, strerror(EISDIR));
}

/* Checks before any work that the input, the output directory, the tools and the plugin are
   usable, so that the common mistakes fail fast with a clear message. */
static void preflight(struct opts *o) {
  struct stat st;
  int fd = open(o->input, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    die("cannot read '%s': %s", o->input, strerror(errno));
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
    die("cannot read '%s': %s", o->input, strerror(EISDIR));
  close(fd);
  check_writable(o->out);
  if (o->report)
    check_writable(o->report);
  if (o->trace)
    check_writable(o->trace);
  for (size_t i = 0; i < sizeof tools / sizeof *tools; i++) {
    char *t = fmt("%s/%s", o->bindir, tools[i]);
    if (access(t, X_OK) < 0)
      die("cannot find LLVM tool '%s': %s (use --llvm-bindir DIR)", t, strerror(errno));
    free(t);
  }
  if (o->launcher) {
    char *l = find_program(o->launcher[0]);
    if (!l)
      die("cannot find the launcher '%s': %s", o->launcher[0], strerror(errno));
    o->launcher[0] = l;
  }
  if (access(o->plugin, R_OK) < 0)
    die("cannot find the plugin '%s': %s (use --plugin PATH)", o->plugin, strerror(errno));
}

/* How many opt processes split the module. Each holds the whole module and makes the same
   plan, then writes every P-th shard. One process for small inputs on small machines (the
   memory of one module copy matters more there than a second of splitting); two for inputs
   over 8 MiB, where phase 1 takes seconds; with 4 or more job slots, half of them, up to 8,
   where phase 1 would otherwise bound the speed-up (part 0 then verifies the input and writes
   the manifest while the others write the shards). */
static int split_parts(const struct opts *o) {
  struct stat st;
  int big = stat(o->input, &st) == 0 && st.st_size > (8 << 20);
  if (o->jobs < 4)
    return big && o->jobs >= 2 ? 2 : 1;
  return o->jobs / 2 < 8 ? o->jobs / 2 : 8;
}

/* Phase 1: opt with the plugin annotates, partitions and splits INPUT into the work dir. */
static void split(const struct opts *o) {
  int parts = split_parts(o), failed = -1, st0 = 0;
  pid_t *pids = xmalloc(parts * sizeof *pids);
  for (int i = 0; i < parts; i++) {
    struct argv a = {0};
    av_pushf(&a, "%s/opt", o->bindir);
    av_pushf(&a, "-load-pass-plugin=%s", o->plugin);
    char *mv = o->mv_targets ? fmt("shard-mv-annotate<targets=%s>,shard-mv,", o->mv_targets)
                             : xstrdup("");
    if (parts == 1)
      av_pushf(&a, "-passes=%sshard-cost,shard-partition<shards=%d>,shard-split<dir=%s>", mv,
               o->shards, work_dir());
    else
      av_pushf(&a,
               "-passes=%sshard-cost,shard-partition<shards=%d>,shard-split<dir=%s;parts=%d;"
               "part=%d>",
               mv, o->shards, work_dir(), parts, i);
    free(mv);
    av_push(&a, "-disable-output");
    if (i > 0) /* part 0 verifies the input; the others read the same bytes */
      av_push(&a, "-disable-verify");
    av_push(&a, o->input);
    char *name = i ? fmt("split.%d.log", i) : xstrdup("split.log"), *log = work_path(name);
    pids[i] = proc_spawn(a.v, log);
    av_free(&a);
    free(name);
    free(log);
  }
  for (int left = parts; left > 0;) {
    int st;
    pid_t pid = proc_wait(&st);
    for (int i = 0; i < parts; i++)
      if (pids[i] == pid) {
        left--;
        if (st && (failed < 0 || i < failed))
          failed = i, st0 = st;
      }
  }
  free(pids);
  if (failed >= 0) { /* the lowest failing part: part 0's log when all failed alike */
    char *name = failed ? fmt("split.%d.log", failed) : xstrdup("split.log");
    die_log(work_path(name), "opt failed to split '%s': %s", o->input, proc_status(st0));
  }
  if (o->verbose)
    print_file(work_path("split.log"));
}

/* Checks that every shard module named by the manifest exists. */
static void check_shards(const struct manifest *m) {
  for (int k = 0; k < m->nshards; k++) {
    char *name = fmt("shard.%d.bc", k), *p = work_path(name);
    if (access(p, R_OK) < 0)
      die("the manifest lists shard %d but '%s' is missing: %s", k, p, strerror(errno));
    free(name);
    free(p);
  }
}

/* Writes the objcopy symbol list files; names objcopy's list syntax cannot carry ('#' starts
   a comment there) go on the command line instead. */
static void sym_args(const struct manifest *m, struct argv *a) {
  char *lp = work_path("localize.syms"), *rp = work_path("redefine.syms");
  FILE *lf = fopen(lp, "w"), *rf = fopen(rp, "w");
  int nl = 0, nr = 0;
  if (!lf || !rf)
    die("cannot create '%s': %s", lf ? rp : lp, strerror(errno));
  for (size_t i = 0; i < m->npromos; i++) {
    const struct promo *p = &m->promos[i];
    int hash = strchr(p->new, '#') || (p->old && strchr(p->old, '#'));
    if (hash)
      av_pushf(a, "--localize-symbol=%s", p->new);
    else
      fprintf(lf, "%s\n", p->new), nl++;
    if (p->old && hash)
      av_pushf(a, "--redefine-sym=%s=%s", p->new, p->old);
    else if (p->old)
      fprintf(rf, "%s %s\n", p->new, p->old), nr++;
  }
  if (fclose(lf) || fclose(rf))
    die("cannot write the symbol lists in '%s': %s", lp, strerror(errno));
  /* objcopy matches both lists against the names before renaming. */
  if (nl)
    av_pushf(a, "--localize-symbols=%s", lp);
  if (nr)
    av_pushf(a, "--redefine-syms=%s", rp);
  free(lp);
  free(rp);
}

/* Phase 3: links the shard objects (K ascending), restores promoted symbols and publishes OUT
   atomically via a temp file in OUT's directory. */
static void link_out(const struct manifest *m, const struct opts *o) {
  char *in;
  if (m->nshards > 1) {
    struct argv a = {0};
    av_pushf(&a, "%s/ld.lld", o->bindir);
    av_push(&a, "-r");
    for (int k = 0; k < m->nshards; k++) {
      char *name = fmt("shard.%d.o", k);
      av_push(&a, work_path(name));
      free(name);
    }
    in = work_path("linked.o");
    av_push(&a, "-o");
    av_push(&a, in);
    char *log = work_path("link.log");
    int st = proc_run(a.v, log);
    if (st)
      die_log(log, "ld.lld failed to link the shards: %s", proc_status(st));
  } else {
    in = work_path("shard.0.o");
  }
  struct argv c = {0};
  char *tmp = fmt("%s.shard-tmp-%ld", o->out, (long)getpid());
  av_pushf(&c, "%s/llvm-objcopy", o->bindir);
  sym_args(m, &c);
  av_push(&c, in);
  av_push(&c, tmp);
  work_set_tmpout(tmp);
  char *log = work_path("objcopy.log");
  int st = proc_run(c.v, log);
  if (st)
    die_log(log, "llvm-objcopy failed to restore the promoted symbols: %s", proc_status(st));
  /* Last chance for an interrupt to win; past this point OUT is complete. */
  proc_block(1);
  proc_interrupt_point();
  if (rename(tmp, o->out) < 0)
    die("cannot write '%s': %s", o->out, strerror(errno));
  work_set_tmpout(NULL);
}

/* atexit handler: stops children first, then removes what they were writing. */
static void cleanup(void) {
  proc_kill_all();
  work_cleanup();
}

int main(int argc, char **argv) {
  struct opts o;
  struct manifest m;
  opts_parse(&o, argc, argv);
  proc_init(o.verbose);
  atexit(cleanup);
  preflight(&o);
  work_init(&o);
  double t0 = now();
  split(&o);
  char *mp = work_path("manifest");
  manifest_read(mp, &m);
  check_shards(&m);
  double t1 = now();
  if (o.verbose) {
    note("phase 1 (split): %.3f s, %d shard%s, %zu promoted symbol%s", t1 - t0, m.nshards,
         m.nshards == 1 ? "" : "s", m.npromos, m.npromos == 1 ? "" : "s");
    for (int k = 0; k < m.nshards; k++)
      note("  shard %d: cost %llu, %llu functions", k, m.shards[k].cost, m.shards[k].funcs);
  }

  work_compile(&m, &o);
  double t2 = now();
  if (o.verbose)
    note("phase 2 (compile): %.3f s, at most %d job%s at once", t2 - t1,
         o.jobs < m.nshards ? o.jobs : m.nshards, o.jobs == 1 || m.nshards == 1 ? "" : "s");

  link_out(&m, &o);
  struct marks t = {t0, t1, t2, now()};
  if (o.verbose)
    note("phase 3 (link): %.3f s; total %.3f s", t.link - t2, t.link - t0);
  if (o.report)
    report_write(o.report, &m, &t, o.jobs < m.nshards ? o.jobs : m.nshards);
  if (o.trace)
    trace_write(o.trace, &m, &t);
  return 0;
}
