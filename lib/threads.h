/* threads: the threads executor's shared state: one build in the host process. Phase 1 (the
   plugin's split, plugin.c) runs in parts on threads and hands each shard's bitcode to the
   worker threads (workers.c) as it arrives; phase 3 (threads.c) links their objects. */
#ifndef SHARD_LIB_THREADS_H
#define SHARD_LIB_THREADS_H

#include "internal.h"

#include "cache.h"
#include "engine.h"
#include "jobserver.h"
#include "manifest.h"
#include "opts.h"
#include "shard-plugin.h"

#include <pthread.h>

/* One shard's job. */
struct tjob {
  char *bc; /* its module as bitcode, until compiled */
  size_t size;
  struct shard_engine_buf obj;
  int claimed; /* a part of the split writes it */
};

/* A worker thread: slot I of build B. */
struct tworker {
  struct tbuild *b;
  int i;
  pthread_t thread;
};

/* One part of phase 1 (plugin.c): part I of the build's parts, on its own thread (part 0: the
   calling one) with its own module (part 0: the input). */
struct tpart {
  struct tbuild *b;
  int i;
  LLVMModuleRef m; /* part 0's; the others parse the build's bitcode */
  char *passes;
  int held;    /* holds its job slot from the start */
  int started; /* runs on THREAD */
  pthread_t thread;
  int rc, stopped; /* its split failed; the build stopped it (the failure is not its own) */
  char *err;
};

/* One build. The mutex guards everything below it. */
struct tbuild {
  const struct shard_config *c;
  struct opts o;
  const char *input; /* the input's name in messages */
  const char *data;  /* the input file's bytes (NULL: a host's module), SIZE of them */
  size_t size;
  const char *dir; /* the work directory's name: keep_temps, else "shard" (not written) */
  struct manifest m;
  struct cache cache;       /* root NULL: off */
  struct cache_key out_key; /* the output's, when it is looked up */
  struct cache_key *keys;   /* per shard, with the cache on */
  struct tjob *jobs;        /* per shard, once the manifest came */
  shard_plugin_split_fn split_fn;
  LLVMMemoryBufferRef bitcode; /* the input as bitcode, for the parts but 0 */
  /* Job slots: the host's callbacks, or a make jobserver's tokens (tokens.c), or none. */
  shard_acquire_fn acquire;
  shard_release_fn release;
  void *slot_user;
  int limit; /* jobs at once, the split's parts included */
  struct jobserver js;
  struct tworker *workers;
  int nthreads;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int have_manifest;
  int implicit;       /* the jobserver's implicit slot is free */
  int *ready, nready; /* shards arrived, not started; the largest last */
  int budget;         /* jobs that may start now (-j less the split and the running ones) */
  int parts;          /* the split's parts */
  int splitting;      /* the parts still running */
  int part_failed;    /* a part failed by itself: the others stop but part 0 */
  int part0_done;     /* part 0 ended: no manifest comes after */
  int verified;       /* the input passed the verifier: the shards need none of their own */
  int stop;           /* a job failed or was cancelled: start no more */
  int halt;           /* stop the split too (cancelled, or what it gave is wrong) */
  int cancelled;
  char *err; /* the first job's error */
  int running, done, peak, hits;
  double start, split, first, compile;
};

/* plugin.c */
shard_plugin_split_fn plugin_split_fn(const char *path, char **error);
int plugin_split(struct tbuild *b, LLVMModuleRef m, char **error);

/* workers.c */
void workers_start(struct tbuild *b);
void workers_add(struct tbuild *b, int k, char *bc, size_t size);
void workers_join(struct tbuild *b);

/* tokens.c */
int tokens_open(struct tbuild *b);
int tokens_acquire(void *user);
int tokens_take(struct tbuild *b, int n);
void tokens_release(void *user);
void tokens_close(struct tbuild *b);

/* outputs.c */
int outputs_cache_open(struct tbuild *b, char **error);
int outputs_lookup(struct tbuild *b, const char *data, size_t size, struct shard_engine_buf *out);
int outputs_shard(struct tbuild *b, int k, const char *bc, size_t size);
void outputs_objects(struct tbuild *b);
int outputs_finish(struct tbuild *b, const struct shard_engine_buf *out, char **error);
void outputs_keep(const struct tbuild *b, const char *path, const char *data, size_t size);

/* threads.c */
int threads_compile(LLVMModuleRef m, const char *input, const char *data, size_t size,
                    const struct shard_config *c, struct shard_engine_buf *out, char **error);

#endif
