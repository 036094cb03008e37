/* work: the work directory (temporary or --keep-temps) and the parallel shard jobs. */
#define _XOPEN_SOURCE 700
#include "work.h"
#include "proc.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *dir;     /* the work directory */
static int keep;      /* --keep-temps: leave DIR in place */
static char *tmpout;  /* output temp file to remove on failure, or NULL */
static int status_line; /* a status line is on the terminal: errors start a new line */

/* Removes the temporary output and (unless kept) the work directory (at exit). */
void work_cleanup(void) {
  if (tmpout)
    unlink(tmpout);
  if (dir && !keep)
    rm_tree(dir);
}

/* Creates DIR and its missing parents (like mkdir -p). */
static void mkdirs(const char *path) {
  char *p = xstrdup(path);
  for (char *s = p + 1; *s; s++) {
    if (*s != '/')
      continue;
    *s = 0;
    if (mkdir(p, 0777) < 0 && errno != EEXIST)
      die("cannot create directory '%s': %s", p, strerror(errno));
    *s = '/';
  }
  if (mkdir(p, 0777) < 0 && errno != EEXIST)
    die("cannot create directory '%s': %s", p, strerror(errno));
  struct stat st;
  if (stat(p, &st) < 0)
    die("cannot use '%s' as a directory: %s", p, strerror(errno));
  if (!S_ISDIR(st.st_mode))
    die("cannot use '%s' as a directory: %s", p, strerror(ENOTDIR));
  free(p);
}

/* Makes the work directory: --keep-temps DIR, or a fresh mkdtemp under $TMPDIR. */
void work_init(const struct opts *o) {
  if (o->keep) {
    mkdirs(o->keep);
    dir = xstrdup(o->keep);
    keep = 1;
    /* A stale manifest from an earlier run must not be mistaken for this run's. */
    char *m = work_path("manifest");
    unlink(m);
    free(m);
  } else {
    const char *t = getenv("TMPDIR");
    char *tmpl = fmt("%s/shard-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmpl))
      die("cannot create a temporary directory '%s': %s", tmpl, strerror(errno));
    dir = tmpl;
  }
  /* The directory is passed inside the pass pipeline text, which these characters split. */
  if (strpbrk(dir, ",()<>"))
    die("work directory '%s' contains one of ,()<> which opt's pass pipeline cannot carry",
        dir);
}

/* Returns the work directory. */
const char *work_dir(void) {
  return dir;
}

/* Returns the path of NAME inside the work directory. */
char *work_path(const char *name) {
  return fmt("%s/%s", dir, name);
}

/* Records the output temp file so that it is removed if we fail (NULL once renamed). */
void work_set_tmpout(const char *path) {
  free(tmpout);
  tmpout = path ? xstrdup(path) : NULL;
}

/* One shard job: clang -O<l> -c -x ir shard.K.bc -o shard.K.o, one process (cc1 runs inside
   the clang driver). */
struct job {
  struct shard *s; /* NULL: slot free */
  pid_t pid;
  double t0;       /* start time */
};

/* Orders shards by predicted cost, largest first, then by lower K. */
static int by_cost(const void *a, const void *b) {
  const struct shard *x = *(const struct shard *const *)a, *y = *(const struct shard *const *)b;
  if (x->cost != y->cost)
    return x->cost < y->cost ? 1 : -1;
  return x->id - y->id;
}

/* The clang flag for the manifest's relocation model (as clang -c picks it for the source). */
static const char *reloc_flag(enum reloc r) {
  return r == RELOC_PIE ? "-fPIE" : r == RELOC_PIC ? "-fPIC" : "-fno-pic";
}

/* Starts shard S's clang job into J. The target comes from the manifest's triple (clang
   would otherwise override the module's with its default); CPU and features are not passed:
   every function carries its target-cpu and target-features attributes. */
static void start(struct job *j, struct shard *s, const struct manifest *m,
                  const struct opts *o) {
  struct argv a = {0};
  int k = s->id;
  for (char **w = o->launcher; w && *w; w++)
    av_push(&a, *w);
  av_pushf(&a, "%s/clang", o->bindir);
  if (m->triple)
    av_pushf(&a, "--target=%s", m->triple);
  av_pushf(&a, "-O%d", o->olevel);
  av_push(&a, "-c");
  av_push(&a, "-x");
  av_push(&a, "ir");
  av_pushf(&a, "%s/shard.%d.bc", dir, k);
  av_push(&a, "-o");
  av_pushf(&a, "%s/shard.%d.o", dir, k);
  av_push(&a, reloc_flag(m->reloc));
  /* ld -r cannot carry an address-significance table (it keeps a stale one that lld
     --icf=safe ignores with a warning), so the shards do not emit one, as llc did not. */
  av_push(&a, "-fno-addrsig");
  /* A crash would otherwise leave a reproducer (a copy of the shard) in $TMPDIR; the shard
     itself is the reproducer (--keep-temps keeps it, -v shows the command). */
  av_push(&a, "-fno-crash-diagnostics");
  char *log = fmt("%s/shard.%d.clang.log", dir, k);
  *j = (struct job){.s = s, .pid = proc_spawn(a.v, log), .t0 = now()};
  free(log);
  av_free(&a);
}

/* Checks a finished job; dies naming the shard, its status and clang's stderr. */
static void check(const struct job *j, int st) {
  if (!st)
    return;
  int k = j->s->id;
  char *log = fmt("%s/shard.%d.clang.log", dir, k);
  if (status_line)
    fputc('\n', stderr);
  die_log(log, "shard %d: clang failed: %s", k, proc_status(st));
}

/* On a terminal (and without -v), a ninja-style status line, rewritten in place:
   "[done/total] compiling shards (running)". Plain output (pipes, files, -v) gets none. */
static void progress(int done, int total, int running, int tty) {
  if (!tty)
    return;
  status_line = done < total;
  fprintf(stderr, "\r[%d/%d] compiling shards (%d running)\x1b[K", done, total, running);
  if (done == total)
    fputc('\n', stderr);
  fflush(stderr);
}

/* Phase 2: compiles every shard, at most -j jobs at once, largest predicted cost first. */
void work_compile(struct manifest *m, const struct opts *o) {
  int n = m->nshards, nj = o->jobs < n ? o->jobs : n, next = 0, running = 0, done = 0;
  int tty = !o->verbose && isatty(STDERR_FILENO);
  struct shard **order = xmalloc(n * sizeof *order);
  struct job *jobs = xmalloc(nj * sizeof *jobs);
  for (int i = 0; i < n; i++)
    order[i] = &m->shards[i];
  qsort(order, n, sizeof *order, by_cost);
  for (int i = 0; i < nj; i++)
    jobs[i].s = NULL;
  while (next < n || running > 0) {
    for (int i = 0; i < nj && next < n; i++)
      if (!jobs[i].s) {
        start(&jobs[i], order[next++], m, o);
        running++;
      }
    progress(done, n, running, tty);
    int st;
    pid_t pid = proc_wait(&st);
    for (int i = 0; i < nj; i++) {
      struct job *j = &jobs[i];
      if (!j->s || pid != j->pid)
        continue;
      check(j, st);
      j->s->started = j->t0;
      j->s->secs = now() - j->t0;
      j->s->slot = i;
      j->s->maxrss = proc_last_maxrss();
      if (o->verbose)
        note("shard %d done: %.3f s, %ld MiB peak", j->s->id, j->s->secs, j->s->maxrss / 1024);
      j->s = NULL;
      running--;
      progress(++done, n, running, tty);
      break;
    }
  }
  free(order);
  free(jobs);
}
