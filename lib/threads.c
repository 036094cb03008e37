/* threads: the threads executor: the command line's three phases inside the host process,
   without files. Phase 1 runs the plugin's split on the module in parts (plugin.c) with the
   pass texts cmd_split builds for the command line; the shards' bitcode goes to the worker threads
   (workers.c) as it comes, so that compiles overlap the split; phase 3 links the objects and
   restores the promoted symbols with the engine. Same argv, same passes, same bytes. */
#define _GNU_SOURCE
#include "threads.h"

#include "cmd.h"
#include "finish.h"
#include "job.h"
#include "util.h"

#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The command line's pipeline description for C: what cmd_split and cmd_compile read (jobs:
   C's, else online CPUs, as the command line's -j). */
static void fill_opts(struct opts *o, const struct shard_config *c, const char *input) {
  opts_init(o);
  if (c->jobs)
    o->jobs = c->jobs;
  o->jobs_given = c->jobs != 0;
  o->shards = c->shards;
  o->split_parts = c->split_parts;
  o->executor = EXEC_THREADS; /* (job_split_parts) */
  o->olevel = c->opt_level;
  o->presimplify = c->presimplify;
  o->profile_use = c->profile_use;
  o->profile_gen = c->profile_generate;
  o->profile_atomic = c->profile_atomic;
  o->reloc = lib_reloc_flag(c);
  o->cmodel = lib_code_model(c);
  if (c->llvm_bindir)
    o->bindir = c->llvm_bindir;
  o->plugin = fmt("%s/ShardPlugin.so", lib_self_dir());
  if (c->mv_targets) { /* the pipeline text separates them with ':' */
    o->mv_targets = xstrdup(c->mv_targets);
    for (char *s = o->mv_targets; *s; s++)
      if (*s == ',')
        *s = ':';
  }
  o->input = input;
  o->out = "-";
}

/* Phases 1 and 2: the split in parts (plugin.c; part 0 on the calling thread, each part
   holding one of the -j jobs and, with the host's callbacks, one host slot), the compiles on
   the workers; 0, or 1 with *ERROR set. M is consumed: disposed of as soon as the split ends,
   while the workers compile, so that neither the link nor the peak memory of the compiles
   waits for it. */
static int split_and_compile(struct tbuild *b, LLVMModuleRef m, char **error) {
  b->split_fn = plugin_split_fn(b->o.plugin, error);
  if (!b->split_fn) {
    LLVMDisposeModule(m);
    return 1;
  }
  if (b->acquire && b->acquire(b->slot_user)) { /* part 0's slot */
    *error = lib_msg("shard: cancelled (the host's job-slot callback refused a slot)");
    LLVMDisposeModule(m);
    return 1;
  }
  char *serr = NULL;
  int rc = plugin_split(b, m, &serr);
  b->split = now();
  LLVMDisposeModule(m);
  workers_join(b);
  b->compile = now();
  for (int k = 0; !rc && !b->stop && k < b->m.nshards; k++)
    if (!b->jobs[k].obj.data) {
      b->err =
          lib_msg("shard: error: the manifest lists shard %d but the split did not give it", k);
      b->stop = 1;
    }
  if (serr && !b->halt) /* a broken input is reported as such, not as what it caused */
    *error = lib_msg("shard: error: cannot split '%s': %s", b->input, serr);
  else if (b->cancelled)
    *error = lib_msg("shard: cancelled (the host's job-slot callback refused a slot)");
  else if (b->err)
    *error = b->err, b->err = NULL;
  else if (rc || !b->have_manifest)
    *error = lib_msg("shard: error: the split of '%s' gave no manifest", b->input);
  free(serr);
  if (!*error)
    outputs_objects(b);
  return *error != NULL;
}

/* Phase 3: links the objects (K ascending) and restores the promoted symbols into *OUT. */
static int link_objects(struct tbuild *b, struct shard_engine_buf *out, char **error) {
  int n = b->m.nshards;
  struct shard_engine_buf *objs = xcalloc(n, sizeof *objs);
  char **names = xcalloc(n, sizeof *names);
  struct shard_engine_promo *promos = xcalloc(b->m.npromos + 1, sizeof *promos);
  for (int k = 0; k < n; k++) {
    objs[k] = b->jobs[k].obj;
    names[k] = shard_file(b->dir, k, ".o");
  }
  for (size_t i = 0; i < b->m.npromos; i++)
    promos[i] = (struct shard_engine_promo){b->m.promos[i].new, b->m.promos[i].old};
  char *log = NULL;
  int rc = shard_engine_link(objs, (const char *const *)names, n, promos, b->m.npromos, out, &log);
  if (rc)
    *error = lib_msg("shard: error: cannot link the shards of '%s': %s", b->input, log ? log : "");
  char *gerr = rc ? NULL : finish_buffer(out->data, &out->size, &b->m);
  if (gerr) {
    *error = lib_msg("shard: error: cannot make the shared locals' groups of '%s' private: %s",
                     b->input, gerr);
    free(gerr);
    shard_engine_free(out->data);
    *out = (struct shard_engine_buf){0};
    rc = 1;
  }
  shard_engine_free(log);
  for (int k = 0; k < n; k++)
    free(names[k]);
  free(names);
  free(objs);
  free(promos);
  return rc != 0;
}

/* B's job slots and the most jobs at once: the host's callbacks (and -j, or online CPUs);
   without them, a make jobserver's tokens when MAKEFLAGS names one (as many jobs as it gives,
   capped by an explicit -j, as the command line); else -j or online CPUs. */
static void slots_init(struct tbuild *b) {
  const struct shard_config *c = b->c;
  b->limit = b->o.jobs;
  if (c->acquire) {
    b->acquire = c->acquire, b->release = c->release, b->slot_user = c->slot_user;
  } else if (tokens_open(b)) {
    b->acquire = tokens_acquire, b->release = tokens_release, b->slot_user = b;
    if (!c->jobs)
      b->limit = 1 << 30; /* the tokens decide (the workers: one per shard at most) */
  }
}

/* Frees what B holds. */
static void build_free(struct tbuild *b) {
  tokens_close(b);
  for (int k = 0; b->jobs && k < b->m.nshards; k++) {
    free(b->jobs[k].bc);
    shard_engine_free(b->jobs[k].obj.data);
  }
  free(b->jobs);
  free(b->keys);
  cache_done(&b->cache);
  free(b->workers);
  free(b->ready);
  free(b->err);
  free((char *)b->o.plugin);
  free(b->o.mv_targets);
  manifest_free(&b->m);
  pthread_mutex_destroy(&b->mu);
  pthread_cond_destroy(&b->cv);
}

/* Whether the output is in B's cache (input bytes DATA, SIZE; NULL: M as bitcode, the file
   the command line would read): sets *OUT then. */
static int from_cache(struct tbuild *b, LLVMModuleRef m, const char *data, size_t size,
                      struct shard_engine_buf *out) {
  if (!b->cache.root)
    return 0;
  LLVMMemoryBufferRef bc = data ? NULL : LLVMWriteBitcodeToMemoryBuffer(m);
  if (bc)
    data = LLVMGetBufferStart(bc), size = LLVMGetBufferSize(bc);
  int hit = outputs_lookup(b, data, size, out);
  if (bc)
    LLVMDisposeMemoryBuffer(bc);
  return hit;
}

/* 0 when this LLVM generates code for M's target (none given: the host's), or 1 with *ERROR
   set: checked before the split, as the command line's opt fails on it. */
static int check_target(LLVMModuleRef m, const char *input, char **error) {
  const char *triple = LLVMGetTarget(m);
  char *why = triple && *triple ? shard_engine_target_error(triple) : NULL;
  if (!why)
    return 0;
  *error = lib_msg("shard: error: '%s' targets '%s', which this LLVM generates no code for: %s",
                   input, triple, why);
  shard_engine_free(why);
  return 1;
}

/* Compiles module M (INPUT in messages; consumed; DATA and SIZE its bytes as the command line
   reads them, or NULL) as C says into *OUT; 0, or 1 with *ERROR set. */
int threads_compile(LLVMModuleRef m, const char *input, const char *data, size_t size,
                    const struct shard_config *c, struct shard_engine_buf *out, char **error) {
  struct tbuild b = {.c = c,
                     .input = input,
                     .data = data,
                     .size = size,
                     .dir = c->keep_temps ? c->keep_temps : "shard",
                     .verified = !lib_verify_late(c)};
  pthread_mutex_init(&b.mu, NULL);
  pthread_cond_init(&b.cv, NULL);
  fill_opts(&b.o, c, input);
  slots_init(&b);
  b.start = now();
  int rc = check_target(m, input, error) || outputs_cache_open(&b, error);
  if (!rc && !from_cache(&b, m, data, size, out)) {
    rc = split_and_compile(&b, m, error);
    m = NULL;
    if (!rc)
      rc = link_objects(&b, out, error) || outputs_finish(&b, out, error);
    if (rc && out->data) {
      shard_engine_free(out->data);
      *out = (struct shard_engine_buf){0};
    }
  }
  if (m)
    LLVMDisposeModule(m);
  build_free(&b);
  return rc;
}
