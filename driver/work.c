/* work: the work directory (temporary or --keep-temps) and the parallel shard jobs. */
#define _XOPEN_SOURCE 700
#include "work.h"
#include "cache.h"
#include "cmd.h"
#include "jobserver.h"
#include "proc.h"
#include "report.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *dir;       /* the work directory */
static int keep;        /* --keep-temps: leave DIR in place */
static char *tmpout;    /* output temp file to remove on failure, or NULL */
static int status_line; /* a status line is on the terminal: errors start a new line */

/* Removes the temporary output and (unless kept) the work directory (at exit). */
void work_cleanup(void) {
  if (tmpout)
    unlink(tmpout);
  if (dir && !keep)
    rm_tree(dir);
}

/* Makes --keep-temps DIR (and its missing parents) or dies saying why. */
static void make_kept(const char *path) {
  struct stat st;
  char *bad = mkdirs(path);
  if (bad)
    die("cannot create directory '%s': %s", bad, strerror(errno));
  if (stat(path, &st) < 0)
    die("cannot use '%s' as a directory: %s", path, strerror(errno));
  if (!S_ISDIR(st.st_mode))
    die("cannot use '%s' as a directory: %s", path, strerror(ENOTDIR));
}

/* Makes the work directory: --keep-temps DIR, or a fresh mkdtemp under $TMPDIR. */
void work_init(const struct opts *o) {
  if (o->keep) {
    make_kept(o->keep);
    dir = xstrdup(o->keep);
    keep = 1;
    /* A stale manifest from an earlier run must not be mistaken for this run's. */
    char *m = work_path("manifest");
    unlink(m);
    free(m);
  } else {
    const char *t = getenv("TMPDIR");
    char *tmpl = fmt("%s/shard-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmpl)) /* named by its parent: mkdtemp leaves TMPL undefined */
      die("cannot create a temporary directory in '%s': %s (set TMPDIR)", t && *t ? t : "/tmp",
          strerror(errno));
    dir = tmpl;
  }
  /* The directory is passed inside the pass pipeline text, which these characters split. */
  if (strpbrk(dir, ",()<>"))
    die("work directory '%s' contains one of ,()<> which opt's pass pipeline cannot carry", dir);
}

/* Returns the work directory. */
const char *work_dir(void) { return dir; }

/* Returns the path of NAME inside the work directory. */
char *work_path(const char *name) { return fmt("%s/%s", dir, name); }

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
  double t0; /* start time */
};

/* qsort order of shard pointers: by predicted cost, largest first, then by lower K (the order
   phase 2 starts them in). */
int work_by_cost(const void *a, const void *b) {
  const struct shard *x = *(const struct shard *const *)a, *y = *(const struct shard *const *)b;
  if (x->cost != y->cost)
    return x->cost < y->cost ? 1 : -1;
  return x->id - y->id;
}

/* Starts shard S's clang job (cmd_compile) into J. */
static void start(struct job *j, struct shard *s, const struct manifest *m, const struct opts *o) {
  struct argv a = {0};
  int k = s->id;
  cmd_compile(&a, o, m, dir, k);
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

/* The cache key of shard K's object: its module's bytes, the compile command without the
   launcher (which must not change the output) and paths, and clang's identity. */
static struct cache_key shard_key(const struct manifest *m, const struct opts *o, int k) {
  struct argv a = {0};
  int skip = 0;
  for (char **w = o->launcher; w && *w; w++)
    skip++;
  cmd_compile(&a, o, m, "@", 0); /* the same paths for every shard */
  struct cache_hasher *h = cache_hasher_new("shard");
  cache_hash_tool(h, a.v[skip]);
  if (opts_presimplifies(o)) /* the plugin takes part in the compile */
    cache_hash_tool(h, o->plugin);
  for (int i = skip; i < a.n; i++)
    cache_hash_str(h, a.v[i]);
  char *bc = fmt("%s/shard.%d.bc", dir, k);
  cache_hash_file(h, bc);
  free(bc);
  av_free(&a);
  return cache_hasher_done(h);
}

/* Predicted peak memory of shard S's clang job in KiB (--max-mem): base + k * cost, with
   base = 82989 KiB and k = 0.914 KiB per unit of the manifest's cost. Fitted by least squares
   to one measured run: sqlite3.c (better-sqlite3 12.11.1, clang -O2 -Xclang
   -disable-llvm-passes -emit-llvm), shard -j2 --report with mimalloc preloaded (the default
   where installed), LLVM 22 on x86-64: 16 shards of cost 24205..39776 peaked at 102..124 MiB
   (peak_rss_kib against predicted_cost; r = 0.80, every shard within -4.6/+8.4 MiB of the
   line; with glibc's malloc they peak 2..10 MiB lower). Base is mostly clang itself; costs
   outside that range are extrapolated. */
static unsigned long long predicted_kib(const struct shard *s) {
  return 82989 + s->cost * 914 / 1000;
}

/* Phase 1's opt processes ("parts") and the pipe on which they name each file they wrote. */
struct split {
  pid_t *pids;
  int parts, left; /* started, still running */
  int failed, st;  /* the lowest failing part (-1: none) and its wait status */
  int fd;          /* read end of the pipe; -1 once every part closed it */
  char line[32];   /* a partial line */
  size_t len;
};

/* The log of phase 1's part I: split.log for part 0 (the one -v prints), split.I.log else. */
static char *split_log(int i) {
  return i ? fmt("%s/split.%d.log", dir, i) : fmt("%s/split.log", dir);
}

/* Starts phase 1: opt with the plugin annotates, partitions and splits INPUT into the work
   dir, in cmd_split_parts() processes (under a jobserver, no more than the tokens free now
   and the implicit slot: the shards are the same bytes whatever the number of parts). */
static void split_start(struct split *sp, const struct opts *o) {
  int parts = cmd_split_parts(o), p[2];
  if (js_active()) {
    int have = 1;
    while (have < parts && js_get())
      have++;
    parts = have;
  }
  if (pipe(p) < 0)
    die("cannot create a pipe: %s", strerror(errno));
  fcntl(p[0], F_SETFD, FD_CLOEXEC);
  fcntl(p[1], F_SETFD, FD_CLOEXEC); /* the parts get it as their fd 3 */
  fcntl(p[0], F_SETFL, O_NONBLOCK);
  *sp = (struct split){.pids = xmalloc(parts * sizeof *sp->pids),
                       .parts = parts,
                       .left = parts,
                       .failed = -1,
                       .fd = p[0]};
  for (int i = 0; i < parts; i++) {
    struct argv a = {0};
    cmd_split(&a, o, dir, parts, i, 1);
    char *log = split_log(i);
    sp->pids[i] = proc_spawn_fd(a.v, log, p[1]);
    av_free(&a);
    free(log);
  }
  close(p[1]);
}

/* Dies with the log of the lowest failing part (part 0's when all failed alike). */
static void split_fail(const struct split *sp, const struct opts *o) {
  die_log(split_log(sp->failed), "opt failed to split '%s': %s", o->input, proc_status(sp->st));
}

/* Phases 1 and 2 together: what the plugin writes and the jobs that compile it. */
struct build {
  struct manifest *m;
  const struct opts *o;
  struct split sp;
  int have_manifest;
  char *seen;           /* per shard: written (notified or the split ended) */
  int *early, nearly;   /* shard numbers notified before the manifest */
  struct shard **ready; /* written, not in the cache, not started; the largest last */
  int nready;
  struct cache_key *keys; /* per shard, with the cache on */
  struct job *jobs;       /* one slot per shard */
  int running, done, hits, peak;
  struct job failed; /* a job that failed while the split ran (s != NULL) */
  int failed_st;
  double first; /* when the first job started */
};

/* Shard K is written: takes it from the cache or queues its job. */
static void shard_written(struct build *b, int k) {
  struct manifest *m = b->m;
  if (k < 0 || k >= m->nshards || b->seen[k])
    die("opt reported shard %d, which the manifest of '%s' does not list or was reported "
        "before",
        k, b->o->input);
  b->seen[k] = 1;
  if (b->keys) {
    b->keys[k] = shard_key(m, b->o, k);
    char *obj = fmt("%s/shard.%d.o", dir, k);
    m->shards[k].cache = cache_get(b->keys[k], obj) ? CACHE_HIT : CACHE_MISS;
    free(obj);
    if (m->shards[k].cache == CACHE_HIT) {
      b->hits++;
      return;
    }
  }
  int i = b->nready++; /* kept sorted: the largest job last */
  while (i > 0 && work_by_cost(&b->ready[i - 1], &(struct shard *){&m->shards[k]}) < 0) {
    b->ready[i] = b->ready[i - 1];
    i--;
  }
  b->ready[i] = &m->shards[k];
}

/* The manifest is written: reads and checks it (the target first, before any job). */
static void manifest_written(struct build *b) {
  char *path = fmt("%s/manifest", dir);
  manifest_read(path, b->m);
  free(path);
  manifest_check_target(b->m, b->o->input);
  int n = b->m->nshards;
  b->have_manifest = 1;
  b->seen = xcalloc(n, 1);
  b->ready = xmalloc(n * sizeof *b->ready);
  b->jobs = xcalloc(n, sizeof *b->jobs);
  b->keys = cache_on() ? xmalloc(n * sizeof *b->keys) : NULL;
  for (int i = 0; i < b->nearly; i++)
    shard_written(b, b->early[i]);
}

/* Reads the lines the parts wrote ("manifest", or a shard number) until none is left. */
static void split_read(struct build *b) {
  struct split *sp = &b->sp;
  for (;;) {
    ssize_t r = read(sp->fd, sp->line + sp->len, sizeof sp->line - 1 - sp->len);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      if (r == 0 || errno != EAGAIN) { /* every part closed the pipe */
        close(sp->fd);
        sp->fd = -1;
      }
      return;
    }
    sp->len += r;
    char *nl;
    while ((nl = memchr(sp->line, '\n', sp->len))) {
      *nl = 0;
      char *end;
      long k = strtol(sp->line, &end, 10);
      if (!strcmp(sp->line, "manifest"))
        manifest_written(b);
      else if (end == sp->line || *end)
        die("opt reported '%s' while splitting '%s'", sp->line, b->o->input);
      else if (b->have_manifest)
        shard_written(b, (int)k);
      else {
        b->early = xrealloc(b->early, (b->nearly + 1) * sizeof *b->early);
        b->early[b->nearly++] = (int)k;
      }
      sp->len -= nl + 1 - sp->line;
      memmove(sp->line, nl + 1, sp->len);
    }
    if (sp->len == sizeof sp->line - 1)
      die("opt reported a line too long while splitting '%s'", b->o->input);
  }
}

/* Every part ended: dies if one failed, else takes every shard the manifest lists as
   written (a plugin run without notify=, as under a wrapper, reported none). */
static void split_ended(struct build *b, struct marks *t) {
  struct split *sp = &b->sp;
  t->split = now();
  while (sp->fd >= 0)
    split_read(b);
  if (sp->failed >= 0)
    split_fail(sp, b->o);
  if (!b->have_manifest)
    manifest_written(b);
  struct manifest *m = b->m;
  for (int k = 0; k < m->nshards; k++) {
    char *p = fmt("%s/shard.%d.bc", dir, k);
    if (access(p, R_OK) < 0)
      die("the manifest lists shard %d but '%s' is missing: %s", k, p, strerror(errno));
    free(p);
    if (!b->seen[k])
      shard_written(b, k);
  }
  if (b->o->verbose) {
    note("phase 1 (split): %.3f s, %d shard%s, %zu promoted symbol%s", t->split - t->start,
         m->nshards, m->nshards == 1 ? "" : "s", m->npromos, m->npromos == 1 ? "" : "s");
    for (int k = 0; k < m->nshards; k++)
      note("  shard %d: cost %llu, %llu functions", k, m->shards[k].cost, m->shards[k].funcs);
    char *log = split_log(0);
    print_file(log);
    free(log);
  }
  if (b->failed.s) /* a job failed meanwhile: now that the input is known good, say so */
    check(&b->failed, b->failed_st);
}

/* Starts the largest ready job. */
static void start_next(struct build *b) {
  struct shard *s = b->ready[--b->nready];
  int i = 0;
  while (b->jobs[i].s)
    i++;
  start(&b->jobs[i], s, b->m, b->o);
  if (!b->running && !b->done)
    b->first = b->jobs[i].t0;
  if (++b->running > b->peak)
    b->peak = b->running;
}

/* A job ended: records its time and memory and stores its object in the cache; a failure
   dies, or waits for the split to end when it still runs (a broken input is reported as
   such, not as the clang error it caused). */
static void job_ended(struct build *b, struct job *j, int st) {
  b->running--;
  if (st && b->sp.left) {
    if (!b->failed.s)
      b->failed = *j, b->failed_st = st;
    j->s = NULL;
    return;
  }
  check(j, st);
  j->s->started = j->t0;
  j->s->secs = now() - j->t0;
  j->s->slot = j - b->jobs;
  j->s->maxrss = proc_last_maxrss();
  if (b->o->verbose)
    note("shard %d done: %.3f s, %ld MiB peak", j->s->id, j->s->secs, j->s->maxrss / 1024);
  if (b->keys) {
    char *obj = fmt("%s/shard.%d.o", dir, j->s->id);
    cache_put(b->keys[j->s->id], obj);
    free(obj);
  }
  j->s = NULL;
  b->done++;
}

/* Phases 1 and 2, overlapped: opt splits the input (split_start) and reports each shard it
   has written; each shard then comes from the cache or is compiled, largest predicted cost
   first, while the split goes on. At most -j processes run at once, the opt parts included
   (with a jobserver and no -j: 1 + the tokens held, a token taken only for a job ready to
   start and given back as soon as none needs it); with --max-mem, jobs start after the
   split and only while the predicted memory of the running ones fits (one always runs).
   With COMPILE 0 (--emit-ninja), only the split. Sets T->split and T->first; returns the
   most jobs that ran at once. */
int work_build(struct manifest *m, const struct opts *o, struct marks *t, int compile) {
  struct build b = {.m = m, .o = o};
  split_start(&b.sp, o);
  int limit = js_active() && !o->jobs_given ? 1 << 30 : o->jobs;
  unsigned long long max = o->max_mem, mem = 0; /* bytes; mem: predicted, running jobs */
  int tty = compile && !o->verbose && isatty(STDERR_FILENO);
  while (b.sp.left || b.running || (compile && b.nready)) {
    int need_token = 0;
    while (compile && b.nready && !b.failed.s && b.sp.left + b.running < limit &&
           !(max && b.sp.left)) {
      struct shard *s = b.ready[b.nready - 1];
      unsigned long long need = predicted_kib(s) * 1024;
      if (max && b.running && mem + need > max)
        break; /* wait for memory */
      /* The running processes use the implicit slot and the tokens held. */
      if (js_active() && b.sp.left + b.running > js_held() && !js_get()) {
        need_token = js_fd() >= 0;
        break;
      }
      if (max && need > max && o->verbose)
        note("shard %d is predicted to need %llu MiB, over --max-mem: running it alone", s->id,
             need >> 20);
      start_next(&b);
      mem += need;
    }
    while (js_held() > 0 && js_held() > b.sp.left + b.running - 1) /* none needs them */
      js_put();
    if (b.running || b.done)
      progress(b.done, b.have_manifest ? m->nshards - b.hits : 0, b.running, tty);
    int st, fds[2] = {b.sp.fd, need_token ? js_fd() : -1};
    pid_t pid = proc_wait_fds(fds, 2, &st);
    if (!pid) {
      if (b.sp.fd >= 0)
        split_read(&b);
      continue;
    }
    for (int i = 0; i < b.sp.parts; i++)
      if (b.sp.pids[i] == pid) {
        b.sp.pids[i] = 0;
        if (st && (b.sp.failed < 0 || i < b.sp.failed))
          b.sp.failed = i, b.sp.st = st;
        if (--b.sp.left == 0)
          split_ended(&b, t);
      }
    for (int i = 0; compile && b.have_manifest && i < m->nshards; i++)
      if (b.jobs[i].s && b.jobs[i].pid == pid) {
        mem -= predicted_kib(b.jobs[i].s) * 1024;
        job_ended(&b, &b.jobs[i], st);
        progress(b.done, m->nshards - b.hits, b.running, tty);
      }
  }
  js_put_all(); /* nothing runs */
  t->first = b.done ? b.first : t->split;
  free(b.sp.pids);
  free(b.seen);
  free(b.early);
  free(b.ready);
  free(b.jobs);
  free(b.keys);
  return b.peak;
}
