/* threads: the threads executor: the command line's three phases inside the host process,
   without files. Phase 1 runs the plugin's split on the module (plugin.c) with the pass text
   cmd_split builds for the command line; the shards' bitcode goes to the worker threads
   (workers.c) as it comes, so that compiles overlap the split; phase 3 links the objects and
   restores the promoted symbols with the engine. Same argv, same passes, same bytes. */
#define _GNU_SOURCE
#include "threads.h"

#include "cmd.h"
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
  o->olevel = c->opt_level;
  o->presimplify = c->presimplify;
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

/* The -passes text of cmd_split's one-part split, with "memory" in place of dir=PATH, and
   without quick-exit (opt's, not the host's: the host frees the module). */
static char *split_passes(const struct opts *o) {
  struct argv a = {0};
  cmd_split(&a, o, "\x01", 1, 0, 0);
  char *text = NULL;
  for (int i = 0; i < a.n && !text; i++)
    if (!strncmp(a.v[i], "-passes=", 8)) {
      char *at = strstr(a.v[i], "dir=\x01");
      *at = 0;
      text = fmt("%s%s%s", a.v[i] + 8, "memory", at + 5);
      char *q = strstr(text, ";quick-exit");
      if (q)
        memmove(q, q + 11, strlen(q + 11) + 1);
    }
  av_free(&a);
  return text;
}

/* The sink's manifest: parsed and checked, then the workers start. */
static int got_manifest(void *user, const char *text, size_t size) {
  struct tbuild *b = user;
  pthread_mutex_lock(&b->mu);
  char *err = b->have_manifest ? xstrdup("the split gave a second manifest")
                               : manifest_parse(text, size, "manifest", &b->m);
  if (!err)
    err = manifest_target_error(&b->m, b->input);
  if (!err) {
    b->have_manifest = 1;
    b->jobs = xcalloc(b->m.nshards, sizeof *b->jobs);
    b->keys = xcalloc(b->m.nshards, sizeof *b->keys);
    if (b->c->keep_temps) {
      char *p = lib_msg("%s/manifest", b->dir);
      outputs_keep(b, p, text, size);
      free(p);
    }
    workers_start(b);
  } else if (!b->err) {
    b->err = lib_msg("shard: error: %s", err);
    b->stop = b->halt = 1;
  }
  free(err);
  int halt = b->halt;
  pthread_mutex_unlock(&b->mu);
  return halt;
}

/* The sink's shard K: queued for the workers. After a failed job the split goes on (so that
   a broken input is reported as such, as the command line does), queueing nothing; after a
   refused slot it stops. */
static int got_shard(void *user, int k, char *bc, size_t size) {
  struct tbuild *b = user;
  pthread_mutex_lock(&b->mu);
  if (!b->stop && (!b->have_manifest || k < 0 || k >= b->m.nshards || b->jobs[k].bc ||
                   b->jobs[k].obj.data)) {
    b->err = lib_msg("shard: error: the split gave shard %d, which the manifest of '%s' does not "
                     "list or was given before",
                     k, b->input);
    b->stop = b->halt = 1;
  }
  if (b->stop || outputs_shard(b, k, bc, size))
    free(bc);
  else
    workers_add(b, k, bc, size);
  int halt = b->halt;
  pthread_mutex_unlock(&b->mu);
  return halt;
}

/* Phases 1 and 2: the split on the calling thread (holding one of the -j jobs and, with the
   host's callbacks, one host slot), the compiles on the workers; 0, or 1 with *ERROR set. */
static int split_and_compile(struct tbuild *b, LLVMModuleRef m, char **error) {
  shard_plugin_split_fn split = plugin_split_fn(b->o.plugin, error);
  if (!split)
    return 1;
  if (b->acquire && b->acquire(b->slot_user)) {
    *error = lib_msg("shard: cancelled (the host's job-slot callback refused a slot)");
    return 1;
  }
  char *passes = split_passes(&b->o), *serr = NULL;
  b->budget = b->limit - 1;
  b->splitting = 1;
  struct shard_plugin_sink sink = {b, got_manifest, got_shard};
  int rc = split(m, passes, &sink, &serr);
  b->split = now();
  if (b->release)
    b->release(b->slot_user);
  workers_split_done(b);
  workers_join(b);
  b->compile = now();
  free(passes);
  for (int k = 0; !rc && !b->stop && k < b->m.nshards; k++)
    if (!b->jobs[k].obj.data) {
      b->err = lib_msg("shard: error: the manifest lists shard %d but the split did not give it",
                       k);
      b->stop = 1;
    }
  if (rc && !b->halt) /* a broken input is reported as such, not as what it caused */
    *error = lib_msg("shard: error: cannot split '%s': %s", b->input, serr ? serr : "");
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
  shard_engine_free(log);
  for (int k = 0; k < n; k++)
    free(names[k]);
  free(names);
  free(objs);
  free(promos);
  return rc != 0;
}

/* B's job slots and the most jobs at once: the host's callbacks (and -j, or online CPUs);
   without them and without -j, a make jobserver's tokens when MAKEFLAGS names one (as many
   jobs as it gives, as the command line); else -j or online CPUs. */
static void slots_init(struct tbuild *b) {
  const struct shard_config *c = b->c;
  b->limit = b->o.jobs;
  if (c->acquire) {
    b->acquire = c->acquire, b->release = c->release, b->slot_user = c->slot_user;
  } else if (!c->jobs && tokens_open(b)) {
    b->acquire = tokens_acquire, b->release = tokens_release, b->slot_user = b;
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

/* Compiles module M (INPUT in messages; consumed; DATA and SIZE its bytes as the command line
   reads them, or NULL) as C says into *OUT; 0, or 1 with *ERROR set. */
int threads_compile(LLVMModuleRef m, const char *input, const char *data, size_t size,
                    const struct shard_config *c, struct shard_engine_buf *out, char **error) {
  struct tbuild b = {.c = c, .input = input, .dir = c->keep_temps ? c->keep_temps : "shard"};
  pthread_mutex_init(&b.mu, NULL);
  pthread_cond_init(&b.cv, NULL);
  fill_opts(&b.o, c, input);
  slots_init(&b);
  b.start = now();
  int rc = outputs_cache_open(&b, error);
  if (!rc && !from_cache(&b, m, data, size, out)) {
    rc = split_and_compile(&b, m, error);
    if (!rc)
      rc = link_objects(&b, out, error) || outputs_finish(&b, out, error);
    if (rc && out->data) {
      shard_engine_free(out->data);
      *out = (struct shard_engine_buf){0};
    }
  }
  LLVMDisposeModule(m);
  build_free(&b);
  return rc;
}
