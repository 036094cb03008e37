/* workers: phase 2 of the threads executor: worker threads compile the shards with the
   engine (clang's backend in process), the largest ready shard first, as they arrive from
   the split. At most -j jobs run at once, each part of the split counting as one while it
   runs (as the local executor counts its opt processes); with the host's job-slot callbacks,
   every job holds one slot while it runs, and a refused slot stops the build ("cancelled"). */
#define _GNU_SOURCE
#include "threads.h"

#include "cmd.h"
#include "job.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* The engine hook's context: the host's module callback for shard K of N. */
struct hook {
  const struct shard_config *c;
  int k, n;
  char *err;
};

/* Runs the host's module callback on a shard's module. */
static int host_hook(LLVMModuleRef mod, void *user) {
  struct hook *h = user;
  return h->c->module_fn(mod, h->k, h->n, h->c->module_user, &h->err);
}

/* Compiles shard K with exactly the argv cmd_compile builds for the command line, verified
   first unless TRUSTED (the split's shards of a verified input are valid); NULL, or the error
   (a new string). */
static char *compile(struct tbuild *b, int k, int trusted) {
  struct tjob *j = &b->jobs[k];
  struct argv a = {0};
  char *bc = shard_file(b->dir, k, ".bc"), *obj = shard_file(b->dir, k, ".o");
  cmd_compile(&a, &b->o, &b->m, bc, obj);
  struct hook h = {b->c, k, b->m.nshards, NULL};
  struct shard_engine_compile_opts eo = {.argv = (const char *const *)a.v,
                                         .argc = a.n,
                                         .pipeline = b->c->pipeline,
                                         .hook = b->c->module_fn ? host_hook : NULL,
                                         .user = &h,
                                         .trusted = trusted};
  char *log = NULL, *err = NULL;
  if (shard_engine_compile(&eo, j->bc, j->size, &j->obj, &log))
    err = lib_msg("shard: error: shard %d: clang failed%s%s%s%s", k, log ? ":\n" : "",
                  log ? log : "", h.err ? "\n" : "", h.err ? h.err : "");
  shard_engine_free(log);
  free(h.err);
  free(j->bc);
  j->bc = NULL;
  free(bc);
  free(obj);
  av_free(&a);
  return err;
}

/* Tells the host's progress callback the counts (called locked). */
static void progress(const struct tbuild *b) {
  if (b->c->progress)
    b->c->progress(b->done, b->m.nshards - b->hits, b->running, b->c->progress_user);
}

/* Whether a worker has nothing more to do (called locked). */
static int finished(const struct tbuild *b) { return b->stop || (!b->splitting && !b->nready); }

/* A worker thread (slot I of B): takes the largest ready shard while the budget allows,
   compiles it. */
static void *worker(void *arg) {
  struct tworker *w = arg;
  struct tbuild *b = w->b;
  pthread_mutex_lock(&b->mu);
  for (;;) {
    while (!finished(b) && !(b->nready && b->budget > 0))
      pthread_cond_wait(&b->cv, &b->mu);
    if (finished(b))
      break;
    int k = b->ready[--b->nready];
    b->budget--;
    pthread_mutex_unlock(&b->mu);
    int refused = b->acquire && b->acquire(b->slot_user);
    pthread_mutex_lock(&b->mu);
    if (refused) {
      b->cancelled = b->stop = b->halt = 1;
      b->budget++;
      pthread_cond_broadcast(&b->cv);
      break;
    }
    if (b->stop) { /* another job failed meanwhile */
      b->budget++;
      if (b->release)
        b->release(b->slot_user);
      break;
    }
    double t0 = now();
    int trusted = b->verified;
    if (!b->running && !b->done)
      b->first = t0;
    if (++b->running > b->peak)
      b->peak = b->running;
    progress(b);
    pthread_mutex_unlock(&b->mu);
    char *err = compile(b, k, trusted);
    double t1 = now(); /* before the slot goes back: the next job starts after */
    if (b->release)
      b->release(b->slot_user);
    pthread_mutex_lock(&b->mu);
    struct shard *s = &b->m.shards[k];
    s->started = t0;
    s->secs = t1 - t0;
    s->slot = w->i;
    b->running--;
    b->budget++;
    b->done++;
    if (err && !b->err)
      b->err = err, b->stop = 1;
    else
      free(err);
    if (!b->stop)
      progress(b);
    pthread_cond_broadcast(&b->cv);
  }
  pthread_mutex_unlock(&b->mu);
  return NULL;
}

/* Starts the workers once the manifest is known (called locked): -j of them, no more than
   the shards. */
void workers_start(struct tbuild *b) {
  int n = b->limit < b->m.nshards ? b->limit : b->m.nshards;
  b->workers = xcalloc(n, sizeof *b->workers);
  b->ready = xcalloc(b->m.nshards, sizeof *b->ready);
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setstacksize(&at, 16 << 20); /* clang's backend recurses deeply */
  for (; b->nthreads < n; b->nthreads++) {
    struct tworker *w = &b->workers[b->nthreads];
    *w = (struct tworker){b, b->nthreads, 0};
    if (pthread_create(&w->thread, &at, worker, w))
      break;
  }
  pthread_attr_destroy(&at);
  if (!b->nthreads && !b->err)
    b->err = lib_msg("shard: error: cannot start a worker thread"), b->stop = b->halt = 1;
}

/* Shard K's bitcode arrived (called locked): queues it, the largest predicted cost last. */
void workers_add(struct tbuild *b, int k, char *bc, size_t size) {
  b->jobs[k].bc = bc;
  b->jobs[k].size = size;
  int i = b->nready++;
  struct shard *s = &b->m.shards[k];
  while (i > 0 && job_by_cost(&(struct shard *){&b->m.shards[b->ready[i - 1]]}, &s) < 0) {
    b->ready[i] = b->ready[i - 1];
    i--;
  }
  b->ready[i] = k;
  pthread_cond_broadcast(&b->cv);
}

/* Waits for the workers to end. */
void workers_join(struct tbuild *b) {
  for (int i = 0; i < b->nthreads; i++)
    pthread_join(b->workers[i].thread, NULL);
}
