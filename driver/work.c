/* work: the work directory (temporary or --keep-temps) and the parallel shard jobs. */
#define _XOPEN_SOURCE 700
#include "work.h"
#include "cache.h"
#include "cmd.h"
#include "jobserver.h"
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
    if (!mkdtemp(tmpl)) /* named by its parent: mkdtemp leaves TMPL undefined */
      die("cannot create a temporary directory in '%s': %s (set TMPDIR)", t && *t ? t : "/tmp",
          strerror(errno));
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

/* qsort order of shard pointers: by predicted cost, largest first, then by lower K (the order
   phase 2 starts them in). */
int work_by_cost(const void *a, const void *b) {
  const struct shard *x = *(const struct shard *const *)a, *y = *(const struct shard *const *)b;
  if (x->cost != y->cost)
    return x->cost < y->cost ? 1 : -1;
  return x->id - y->id;
}

/* Starts shard S's clang job (cmd_compile) into J. */
static void start(struct job *j, struct shard *s, const struct manifest *m,
                  const struct opts *o) {
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
  for (int i = skip; i < a.n; i++)
    cache_hash_str(h, a.v[i]);
  char *bc = fmt("%s/shard.%d.bc", dir, k);
  cache_hash_file(h, bc);
  free(bc);
  av_free(&a);
  return cache_hasher_done(h);
}

/* Takes every shard object the cache has (s->cache = CACHE_HIT) and returns the keys of all
   shards, for storing the others once compiled (NULL when the cache is off). */
static struct cache_key *cache_lookup(struct manifest *m, const struct opts *o) {
  if (!cache_on())
    return NULL;
  struct cache_key *keys = xmalloc(m->nshards * sizeof *keys);
  for (int k = 0; k < m->nshards; k++) {
    keys[k] = shard_key(m, o, k);
    char *obj = fmt("%s/shard.%d.o", dir, k);
    m->shards[k].cache = cache_get(keys[k], obj) ? CACHE_HIT : CACHE_MISS;
    free(obj);
  }
  return keys;
}

/* Predicted peak memory of shard S's clang job in KiB (--max-mem): base + k * cost, with
   base = 82951 KiB and k = 0.737 KiB per unit of the manifest's cost. Fitted by least squares
   to one measured run: sqlite3.c (better-sqlite3 12.11.1, clang -O2 -Xclang
   -disable-llvm-passes -emit-llvm), shard -j2 --report, LLVM 22 on x86-64: 16 shards of cost
   24441..34303 peaked at 99..113 MiB (peak_rss_kib against predicted_cost; r = 0.57, every
   shard within -3.2/+8.6 MiB of the line). Base is mostly clang itself; costs outside that
   range are extrapolated. */
static unsigned long long predicted_kib(const struct shard *s) {
  return 82951 + s->cost * 737 / 1000;
}

/* Phase 2: compiles every shard, largest predicted cost first, with at most -j jobs at once
   (with a jobserver and no -j: 1 + the tokens held, a token taken only for a job ready to
   start and given back as soon as none needs it), and with --max-mem only while the
   predicted memory of the running jobs fits (one job always runs). Returns the most jobs
   that ran at once. */
int work_compile(struct manifest *m, const struct opts *o) {
  struct cache_key *keys = cache_lookup(m, o);
  int n = 0, next = 0, running = 0, done = 0, peak = 0;
  struct shard **order = xmalloc((m->nshards + 1) * sizeof *order);
  for (int i = 0; i < m->nshards; i++) /* what the cache did not have */
    if (m->shards[i].cache != CACHE_HIT)
      order[n++] = &m->shards[i];
  qsort(order, n, sizeof *order, work_by_cost);
  int nj = js_active() && !o->jobs_given ? n : o->jobs < n ? o->jobs : n;
  unsigned long long max = o->max_mem, mem = 0; /* bytes; mem: predicted, running jobs */
  int tty = !o->verbose && isatty(STDERR_FILENO) && n > 0;
  struct job *jobs = xmalloc((nj + 1) * sizeof *jobs);
  for (int i = 0; i < nj; i++)
    jobs[i].s = NULL;
  while (next < n || running > 0) {
    int need_token = 0;
    while (next < n && running < nj) {
      unsigned long long need = predicted_kib(order[next]) * 1024;
      if (max && running && mem + need > max)
        break; /* wait for memory */
      /* The running jobs use the implicit slot and the tokens held. */
      if (js_active() && running > js_held() && !js_get()) {
        need_token = js_fd() >= 0;
        break;
      }
      if (max && need > max && o->verbose)
        note("shard %d is predicted to need %llu MiB, over --max-mem: running it alone",
             order[next]->id, need >> 20);
      int i = 0;
      while (jobs[i].s)
        i++;
      start(&jobs[i], order[next++], m, o);
      mem += need;
      if (++running > peak)
        peak = running;
    }
    while (js_held() > running - 1) /* nothing ready needs them: back to the jobserver */
      js_put();
    progress(done, n, running, tty);
    int st;
    pid_t pid = need_token ? proc_wait_fd(js_fd(), &st) : proc_wait(&st);
    for (int i = 0; i < nj && pid; i++) {
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
      if (keys) {
        char *obj = fmt("%s/shard.%d.o", dir, j->s->id);
        cache_put(keys[j->s->id], obj);
        free(obj);
      }
      mem -= predicted_kib(j->s) * 1024;
      j->s = NULL;
      running--;
      progress(++done, n, running, tty);
      break;
    }
  }
  free(order);
  free(jobs);
  free(keys);
  return peak;
}
