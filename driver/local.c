/* local: the local executor: runs the jobs of the job model as child processes on this
   machine, in the work directory. The split and the compiles overlap (local_build); the link
   follows (local_link). */
#define _XOPEN_SOURCE 700
#include "local.h"

#include "cache.h"
#include "cmd.h"
#include "finish.h"
#include "job.h"
#include "jobserver.h"
#include "proc.h"
#include "slurm.h"
#include "util.h"
#include "workdir.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A compile job that runs: clang -O<l> -c -x ir shard.K.bc -o shard.K.o, one process (cc1
   runs inside the clang driver). */
struct run {
  struct shard *s; /* NULL: slot free */
  pid_t pid;
  double t0; /* start time */
  struct job job;
};

/* Predicted peak memory of shard S's clang job in KiB (--max-mem): clang's own footprint plus
   a share per unit of the manifest's cost, a line fitted to measured jobs (docs/driver.md). */
static unsigned long long predicted_kib(const struct shard *s) {
  return 82989 + s->cost * 914 / 1000;
}

/* Starts shard S's compile job into R (with --executor slurm, as a job step). */
static void start(struct run *r, struct shard *s, const struct manifest *m, const struct opts *o) {
  struct job j;
  job_compile(&j, o, m, work_dir(), s->id);
  if (o->executor == EXEC_SLURM) {
    slurm_wrap(&j.step[0].argv, o, s->id, predicted_kib(s));
    free(j.step[0].fail);
    j.step[0].fail = fmt("shard %d: the Slurm step failed", s->id);
  }
  *r = (struct run){.s = s, .pid = proc_spawn(j.step[0].argv.v, j.step[0].log), .t0 = now()};
  r->job = j;
}

/* The launcher's compiles that failed with the compiler's own errors, and the first's
   message (diag.c prints their diagnostics after the build, as the compiler would). */
static int compile_errors;
static char *first_error;

/* Whether wait status ST of compile job R is the compiler's own failure, its diagnostics in
   the log (a launcher's compile that exits 1: an error or a warning made one), not a crash. */
static int compile_error(const struct opts *o, const struct run *r, int st) {
  if (!o->compile_cmd || o->executor == EXEC_SLURM || !WIFEXITED(st) || WEXITSTATUS(st) != 1)
    return 0;
  if (!compile_errors++)
    first_error = fmt("%s: %s", r->job.step[0].fail, proc_status(st));
  return 1;
}

/* How many of the launcher's compiles failed with the compiler's errors; *FIRST the first's
   message. */
int local_compile_errors(const char **first) {
  *first = first_error;
  return compile_errors;
}

/* Checks a finished compile job; dies naming the shard, its status and clang's stderr. */
static void check(const struct run *r, int st) {
  if (!st)
    return;
  status_break();
  die_log(r->job.step[0].log, "%s: %s", r->job.step[0].fail, proc_status(st));
}

/* On a terminal (and without -v), a ninja-style status line, rewritten in place:
   "[done/total] compiling shards (running)". Plain output (pipes, files, -v) gets none. */
static void progress(int done, int total, int running, int tty) {
  if (tty)
    status_progress(done, total, running);
}

/* The split job's opt processes ("parts") and the pipe on which they name each file they
   wrote. */
struct split {
  struct job job;
  pid_t *pids;
  int parts, left; /* started, still running */
  int failed, st;  /* the lowest failing part (-1: none) and its wait status */
  int fd;          /* read end of the pipe; -1 once every part closed it */
  char line[32];   /* a partial line */
  size_t len;
};

/* Starts the split: opt with the plugin annotates, partitions and splits INPUT into the work
   dir, in job_split_parts() processes (under a jobserver, no more than the tokens free now
   and the implicit slot: the shards are the same bytes whatever the number of parts). */
static void split_start(struct split *sp, const struct opts *o) {
  int parts = job_split_parts(o), p[2];
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
  job_split(&sp->job, o, work_dir(), 0, parts, 1);
  for (int i = 0; i < parts; i++)
    sp->pids[i] = proc_spawn_fd(sp->job.step[i].argv.v, sp->job.step[i].log, p[1]);
  close(p[1]);
}

/* Phases 1 and 2 together: what the plugin writes and the jobs that compile it. */
struct build {
  struct manifest *m;
  const struct opts *o;
  struct split sp;
  int compile;                 /* run the compiles (not with --emit-ninja) */
  int limit;                   /* the most processes at once */
  int tty;                     /* show the progress line */
  unsigned long long max, mem; /* --max-mem and the predicted memory of the running jobs */
  int have_manifest;
  /* The plan has one shard and O->one_shard_input: the split stops, nothing compiles. */
  int one;
  char *seen;           /* per shard: written (notified or the split ended) */
  int *early, nearly;   /* shard numbers notified before the manifest */
  struct shard **ready; /* written, not in the cache, not started; the largest last */
  int nready;
  struct cache_key *keys; /* per shard, with the cache on */
  struct run *runs;       /* one slot per shard */
  int running, done, hits, peak;
  struct run failed; /* a job that failed while the split ran (s != NULL) */
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
    char *obj = shard_file(work_dir(), k, ".o"), *bc = shard_file(work_dir(), k, ".bc");
    b->keys[k] = job_shard_key(b->o, m, bc, NULL, 0);
    free(bc);
    m->shards[k].cache = cache_get(b->keys[k], obj) ? CACHE_HIT : CACHE_MISS;
    free(obj);
    if (m->shards[k].cache == CACHE_HIT) {
      char *log = shard_file(work_dir(), k, ".clang.log");
      if (b->o->compile_cmd) /* launcher: the diagnostics its compile printed */
        cache_get_log(b->keys[k], log);
      free(log);
      b->hits++;
      return;
    }
  }
  int i = b->nready++; /* kept sorted: the largest job last */
  while (i > 0 && job_by_cost(&b->ready[i - 1], &(struct shard *){&m->shards[k]}) < 0) {
    b->ready[i] = b->ready[i - 1];
    i--;
  }
  b->ready[i] = &m->shards[k];
}

/* The manifest is written: reads and checks it (the target first, before any job). */
static void manifest_written(struct build *b) {
  char *path = work_path("manifest");
  manifest_read(path, b->m);
  free(path);
  manifest_check_target(b->m, b->o->input);
  int n = b->m->nshards;
  b->have_manifest = 1;
  b->seen = xcalloc(n, 1);
  b->ready = xmalloc(n * sizeof *b->ready);
  b->runs = xcalloc(n, sizeof *b->runs);
  b->keys = cache_on() ? xmalloc(n * sizeof *b->keys) : NULL;
  if (n == 1 && b->o->one_shard_input) { /* the caller compiles the input itself */
    b->one = 1;
    for (int i = 0; i < b->sp.parts; i++)
      if (b->sp.pids[i])
        kill(b->sp.pids[i], SIGKILL);
    return;
  }
  for (int i = 0; i < b->nearly; i++)
    shard_written(b, b->early[i]);
}

/* Takes one line a part wrote: "manifest", or the number of a shard it wrote. */
static void split_line(struct build *b, const char *line) {
  char *end;
  long k = strtol(line, &end, 10);
  if (b->one) /* the split was stopped: what it wrote since does not matter */
    return;
  if (!strcmp(line, "manifest"))
    manifest_written(b);
  else if (end == line || *end)
    die("opt reported '%s' while splitting '%s'", line, b->o->input);
  else if (b->have_manifest)
    shard_written(b, (int)k);
  else {
    b->early = xrealloc(b->early, (b->nearly + 1) * sizeof *b->early);
    b->early[b->nearly++] = (int)k;
  }
}

/* Reads the lines the parts wrote until none is left. */
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
      split_line(b, sp->line);
      sp->len -= nl + 1 - sp->line;
      memmove(sp->line, nl + 1, sp->len);
    }
    if (sp->len == sizeof sp->line - 1)
      die("opt reported a line too long while splitting '%s'", b->o->input);
  }
}

/* -v: the split's time, its shards and part 0's log. */
static void split_notes(const struct manifest *m, const struct split *sp, const struct marks *t) {
  note("phase 1 (split): %.3f s in %d part%s, %d shard%s, %zu promoted symbol%s",
       t->split - t->start, sp->parts, sp->parts == 1 ? "" : "s", m->nshards,
       m->nshards == 1 ? "" : "s", m->npromos, m->npromos == 1 ? "" : "s");
  for (int k = 0; k < m->nshards; k++)
    note("  shard %d: cost %llu, %llu functions", k, m->shards[k].cost, m->shards[k].funcs);
  print_file(sp->job.step[0].log);
}

/* Every part ended: dies with the log of the lowest failing part (part 0's when all failed
   alike), else takes every shard the manifest lists as written (a plugin run without notify=,
   as under a wrapper, reported none). */
static void split_ended(struct build *b, struct marks *t) {
  struct split *sp = &b->sp;
  t->split = now();
  t->parts = sp->parts;
  while (sp->fd >= 0)
    split_read(b);
  if (sp->failed >= 0) {
    const struct step *s = &sp->job.step[sp->failed];
    die_log(s->log, "%s: %s", s->fail, proc_status(sp->st));
  }
  if (!b->have_manifest)
    manifest_written(b);
  for (int k = 0; k < b->m->nshards; k++) {
    job_check_shard(work_dir(), k);
    if (!b->seen[k])
      shard_written(b, k);
  }
  if (b->o->verbose)
    split_notes(b->m, sp, t);
  if (b->failed.s) /* a job failed meanwhile: now that the input is known good, say so */
    check(&b->failed, b->failed_st);
}

/* Starts the largest ready job. */
static void start_next(struct build *b) {
  struct shard *s = b->ready[--b->nready];
  int i = 0;
  while (b->runs[i].s)
    i++;
  start(&b->runs[i], s, b->m, b->o);
  if (!b->running && !b->done)
    b->first = b->runs[i].t0;
  if (++b->running > b->peak)
    b->peak = b->running;
}

/* A job ended: records its time and memory and stores its object in the cache; a failure
   dies, or waits for the split to end when it still runs (a broken input is reported as
   such, not as the clang error it caused). */
static void job_ended(struct build *b, struct run *r, int st) {
  int slurm = b->o->executor == EXEC_SLURM;
  b->running--;
  r->s->maxrss = slurm ? 0 : proc_last_maxrss();
  if (slurm) /* the wrapper's node, step and peak memory, out of the log */
    slurm_take_marker(r->job.step[0].log, r->s);
  if (st && compile_error(b->o, r, st)) { /* the other jobs go on: every shard's errors */
    job_free(&r->job);
    r->s = NULL;
    b->done++;
    return;
  }
  if (st && b->sp.left) {
    if (!b->failed.s)
      b->failed = *r, b->failed_st = st;
    else
      job_free(&r->job);
    r->s = NULL;
    return;
  }
  check(r, st);
  if (slurm)
    slurm_check_output(r->job.out.v[0], r->s->id, r->job.step[0].log);
  r->s->started = r->t0;
  r->s->secs = now() - r->t0;
  r->s->slot = r - b->runs;
  if (b->o->verbose && r->s->node)
    note("shard %d done: %.3f s, %ld MiB peak, on %s (step %s)", r->s->id, r->s->secs,
         r->s->maxrss / 1024, r->s->node, r->s->step ? r->s->step : "unknown");
  else if (b->o->verbose)
    note("shard %d done: %.3f s, %ld MiB peak", r->s->id, r->s->secs, r->s->maxrss / 1024);
  if (b->keys)
    cache_put(b->keys[r->s->id], r->job.out.v[0]);
  if (b->keys && b->o->compile_cmd)
    cache_put_log(b->keys[r->s->id], r->job.step[0].log);
  job_free(&r->job);
  r->s = NULL;
  b->done++;
}

/* Starts ready jobs, largest first, while the limits allow: -j (or the jobserver's tokens),
   and with --max-mem only after the split and while the predicted memory fits (one always
   runs). Returns whether a job waits for a jobserver token that may come. */
static int start_ready(struct build *b) {
  int slurm = b->o->executor == EXEC_SLURM; /* -j steps: the split runs here, not there */
  while (b->compile && !b->one && b->nready && !b->failed.s &&
         (slurm ? 0 : b->sp.left) + b->running < b->limit && !(b->max && b->sp.left)) {
    struct shard *s = b->ready[b->nready - 1];
    unsigned long long need = predicted_kib(s) * 1024;
    if (b->max && b->running && b->mem + need > b->max)
      return 0; /* wait for memory */
    /* The running processes use the implicit slot and the tokens held. */
    if (!slurm && js_active() && b->sp.left + b->running > js_held() && !js_get())
      return js_fd() >= 0;
    if (b->max && need > b->max && b->o->verbose)
      note("shard %d is predicted to need %llu MiB, over --max-mem: running it alone", s->id,
           need >> 20);
    start_next(b);
    b->mem += need;
  }
  return 0;
}

/* Process PID ended with wait status ST: a part of the split or a compile job. */
static void ended(struct build *b, pid_t pid, int st, struct marks *t) {
  struct split *sp = &b->sp;
  for (int i = 0; i < sp->parts; i++)
    if (sp->pids[i] == pid) {
      sp->pids[i] = 0;
      if (st && !b->one && (sp->failed < 0 || i < sp->failed))
        sp->failed = i, sp->st = st;
      if (--sp->left == 0 && !b->one)
        split_ended(b, t);
      else if (!sp->left)
        t->split = now(), t->parts = sp->parts;
    }
  for (int i = 0; b->compile && b->have_manifest && i < b->m->nshards; i++)
    if (b->runs[i].s && b->runs[i].pid == pid) {
      b->mem -= predicted_kib(b->runs[i].s) * 1024;
      job_ended(b, &b->runs[i], st);
      progress(b->done, b->m->nshards - b->hits, b->running, b->tty);
    }
}

/* Phases 1 and 2, overlapped: opt splits the input (split_start) and reports each shard it
   has written; each shard then comes from the cache or is compiled, largest predicted cost
   first, while the split goes on. At most -j processes run at once, the opt parts included
   (with a jobserver and no -j: 1 + the tokens held, a token taken only for a job ready to
   start and given back as soon as none needs it); with --max-mem, jobs start after the
   split and only while the predicted memory of the running ones fits (one always runs).
   With COMPILE 0 (--emit-ninja), only the split. Sets T->split and T->first; returns the
   most jobs that ran at once, or -1 when the plan has one shard and O->one_shard_input asks
   to stop there (the split is stopped, nothing compiled: the caller compiles the input). */
int local_build(struct manifest *m, const struct opts *o, struct marks *t, int compile) {
  struct build b = {.m = m, .o = o, .compile = compile, .max = o->max_mem};
  split_start(&b.sp, o);
  b.limit = js_active() && !o->jobs_given && o->executor != EXEC_SLURM ? 1 << 30 : o->jobs;
  b.tty = compile && !o->verbose && isatty(STDERR_FILENO);
  while (b.sp.left || b.running || (compile && b.nready)) {
    int need_token = start_ready(&b);
    while (js_held() > 0 && js_held() > b.sp.left + b.running - 1) /* none needs them */
      js_put();
    if (b.running || b.done)
      progress(b.done, b.have_manifest ? m->nshards - b.hits : 0, b.running, b.tty);
    int st, fds[2] = {b.sp.fd, need_token ? js_fd() : -1};
    pid_t pid = proc_wait_fds(fds, 2, &st);
    if (pid)
      ended(&b, pid, st, t);
    else if (b.sp.fd >= 0)
      split_read(&b);
  }
  js_put_all(); /* nothing runs */
  t->first = b.done ? b.first : t->split;
  job_free(&b.sp.job);
  free(b.sp.pids);
  free(b.seen);
  free(b.early);
  free(b.ready);
  free(b.runs);
  free(b.keys);
  return b.one ? -1 : b.peak;
}

/* Runs step S to its end; dies with its log when it fails. */
static void run_step(const struct step *s) {
  int st = proc_run(s->argv.v, s->log);
  if (st)
    die_log(s->log, "%s: %s", s->fail, proc_status(st));
}

/* Phase 3: links the shard objects (K ascending) and restores the promoted symbols into a
   temporary file next to OUT, which it returns (for the caller to rename onto OUT). */
char *local_link(const struct manifest *m, const struct opts *o) {
  struct argv syms = {0};
  struct job j;
  char *tmp = work_tmp_name(o->out);
  cmd_syms(&syms, m, work_dir());
  job_link(&j, o, work_dir(), m->nshards, syms.v, tmp);
  if (j.nsteps > 1)
    run_step(&j.step[0]); /* ld.lld -r */
  cmd_write_syms(m, work_dir());
  work_set_tmpout(tmp);
  run_step(&j.step[j.nsteps - 1]); /* llvm-objcopy */
  char *err = finish_file(tmp, m);
  if (err)
    die("cannot make the shared locals' groups private: %s", err);
  job_free(&j);
  av_free(&syms);
  return tmp;
}
