/* work: the work directory (temporary or --keep-temps) and the parallel shard jobs. */
#define _XOPEN_SOURCE 700
#include "work.h"
#include "proc.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *dir;     /* the work directory */
static int keep;      /* --keep-temps: leave DIR in place */
static char *tmpout;  /* output temp file to remove on failure, or NULL */

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

/* One shard job: opt -O<l> shard.K.bc -o - | llc ... -o shard.K.o */
struct job {
  const struct shard *s;
  pid_t opt, llc;   /* 0 once reaped */
  int opt_st, llc_st;
  int llc_first;    /* llc ended before opt */
};

/* Orders shards by predicted cost, largest first, then by lower K. */
static int by_cost(const void *a, const void *b) {
  const struct shard *x = *(const struct shard *const *)a, *y = *(const struct shard *const *)b;
  if (x->cost != y->cost)
    return x->cost < y->cost ? 1 : -1;
  return x->id - y->id;
}

/* Starts shard S's opt | llc pipeline into J. */
static void start(struct job *j, const struct shard *s, const struct manifest *m,
                  const struct opts *o) {
  struct argv a = {0}, b = {0};
  int k = s->id, fds[2];
  av_pushf(&a, "%s/opt", o->bindir);
  av_pushf(&a, "-O%d", o->olevel);
  av_pushf(&a, "%s/shard.%d.bc", dir, k);
  av_push(&a, "-o");
  av_push(&a, "-");
  av_pushf(&b, "%s/llc", o->bindir);
  av_pushf(&b, "-O%d", o->olevel);
  av_push(&b, "-filetype=obj");
  av_push(&b, m->pic ? "-relocation-model=pic" : "-relocation-model=static");
  if (m->cpu)
    av_pushf(&b, "-mcpu=%s", m->cpu);
  if (m->features)
    av_pushf(&b, "-mattr=%s", m->features);
  av_push(&b, "-o");
  av_pushf(&b, "%s/shard.%d.o", dir, k);
  if (o->verbose) {
    char *x = av_join(a.v), *y = av_join(b.v);
    fprintf(stderr, "%s | %s\n", x, y);
    free(x);
    free(y);
  }
  char *olog = fmt("%s/shard.%d.opt.log", dir, k), *llog = fmt("%s/shard.%d.llc.log", dir, k);
  proc_pipe(fds);
  *j = (struct job){.s = s};
  j->opt = proc_spawn(a.v, -1, fds[1], olog);
  close(fds[1]);
  j->llc = proc_spawn(b.v, fds[0], -1, llog);
  close(fds[0]);
  free(olog);
  free(llog);
  av_free(&a);
  av_free(&b);
}

/* Checks a finished job; dies naming the shard, the tool, its status and its stderr. When
   both tools failed, the one that ended first is the cause (llc failing makes opt's writes
   fail or die of SIGPIPE; opt failing leaves llc a truncated input); the other is shown
   after it. */
static void check(const struct job *j) {
  int k = j->s->id, st[2] = {j->opt_st, j->llc_st};
  static const char *const name[2] = {"opt", "llc"};
  if (!st[0] && !st[1])
    return;
  int opt_pipe = WIFSIGNALED(st[0]) && WTERMSIG(st[0]) == SIGPIPE;
  int first = !st[0] || (opt_pipe && st[1]) ? 1 : !st[1] ? 0 : j->llc_first;
  char *log = fmt("%s/shard.%d.%s.log", dir, k, name[first]);
  err("shard %d: %s failed: %s", k, name[first], proc_status(st[first]));
  print_file(log);
  if (st[!first] && !(first == 1 && opt_pipe)) { /* opt's SIGPIPE only echoes llc's end */
    log = fmt("%s/shard.%d.%s.log", dir, k, name[!first]);
    fprintf(stderr, "shard: note: shard %d: %s also failed: %s\n", k, name[!first],
            proc_status(st[!first]));
    print_file(log);
  }
  exit(1);
}

/* Phase 2: compiles every shard, at most -j jobs at once, largest predicted cost first. */
void work_compile(const struct manifest *m, const struct opts *o) {
  int n = m->nshards, nj = o->jobs < n ? o->jobs : n, next = 0, running = 0;
  const struct shard **order = xmalloc(n * sizeof *order);
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
    int st;
    pid_t pid = proc_wait(&st);
    for (int i = 0; i < nj; i++) {
      struct job *j = &jobs[i];
      if (!j->s || (pid != j->opt && pid != j->llc))
        continue;
      if (pid == j->opt)
        j->opt = 0, j->opt_st = st;
      else
        j->llc = 0, j->llc_st = st, j->llc_first = j->opt != 0;
      if (!j->opt && !j->llc) {
        check(j);
        j->s = NULL;
        running--;
      }
      break;
    }
  }
  free(order);
  free(jobs);
}
