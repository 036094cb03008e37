/* plugin: phase 1 of the threads executor: loads the plugin the command line runs under opt
   (ShardPlugin.so next to this library, as the driver finds it next to itself) and runs its
   in-process split in job_split_parts() parts (one up to 17 jobs at -O1 to -O3):
   part 0 on the calling thread with the input module, every other part on a thread of its own
   with its own copy of the module, parsed in its own context (from the input file, or the
   input written as bitcode once). Each part makes the same plan, then claims the shards one
   at a time, the largest left first (the sink's claim, instead of its parts=N;part=I share):
   part 0, which parses nothing, writes the first ones while the others parse. A shard is the
   same bytes whichever part writes it and whatever the number of parts. */
#define _GNU_SOURCE
#include "threads.h"

#include "cmd.h"
#include "job.h"
#include "util.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* Makes the libLLVM this library uses global: the plugin, like opt's, takes LLVM's symbols
   from the process, and a host (the driver among them) may have loaded libshard, and with
   it libLLVM, RTLD_LOCAL. */
static void llvm_global(void) {
  Dl_info info;
  if (dladdr((void *)&LLVMContextCreate, &info) && info.dli_fname)
    dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
}

/* The split entry point of the plugin at PATH, loaded once for the process and never
   unloaded (clang's -fpass-plugin finds it loaded); NULL with *ERROR set. */
shard_plugin_split_fn plugin_split_fn(const char *path, char **error) {
  pthread_mutex_lock(&mu);
  llvm_global();
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  shard_plugin_split_fn fn = h ? (shard_plugin_split_fn)dlsym(h, SHARD_PLUGIN_SPLIT_SYMBOL) : NULL;
  if (!fn)
    *error = lib_msg("shard: error: cannot load the plugin '%s': %s", path, dlerror());
  pthread_mutex_unlock(&mu);
  return fn;
}

/* Removes the first WORD (";name") from TEXT. */
static void drop_word(char *text, const char *word) {
  char *q = strstr(text, word);
  if (q)
    memmove(q, q + strlen(word), strlen(q + strlen(word)) + 1);
}

/* The -passes text of cmd_split's part PART of PARTS, with "memory" in place of dir=PATH,
   without quick-exit (opt's, not the host's: the host frees the module), and without verify
   unless LATE: else lib_prepare_module verified the module before the split (the parts but 0
   parse its bitcode), more strictly (invalid debug info is an error there), so a second walk
   finds nothing. */
static char *split_passes(const struct opts *o, int parts, int part, int late) {
  struct argv a = {0};
  cmd_split(&a, o, "\x01", parts, part, 0);
  char *text = NULL;
  for (int i = 0; i < a.n && !text; i++)
    if (!strncmp(a.v[i], "-passes=", 8)) {
      char *at = strstr(a.v[i], "dir=\x01");
      *at = 0;
      text = fmt("%s%s%s", a.v[i] + 8, "memory", at + 5);
      drop_word(text, ";quick-exit");
      if (!late)
        drop_word(text, ";verify");
    }
  av_free(&a);
  return text;
}

/* Whether part P stops now (called locked): when the build halts, or, for a part other than
   0, when another part failed (part 0 goes on, as the command line's, whose part 0 verifies
   the input: its own error comes first). */
static int part_stop(struct tpart *p) {
  struct tbuild *b = p->b;
  if (b->halt || (p->i && b->part_failed))
    p->stopped = 1;
  return p->stopped;
}

/* The sink's manifest (part 0's): parsed and checked, then the workers start. */
static int got_manifest(void *user, const char *text, size_t size) {
  struct tpart *p = user;
  struct tbuild *b = p->b;
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
      char *path = lib_msg("%s/manifest", b->dir);
      outputs_keep(b, path, text, size);
      free(path);
    }
    workers_start(b);
  } else if (!b->err) {
    b->err = lib_msg("shard: error: %s", err);
    b->stop = b->halt = 1;
  }
  free(err);
  pthread_cond_broadcast(&b->cv); /* the other parts wait for it */
  int stop = part_stop(p);
  pthread_mutex_unlock(&b->mu);
  return stop;
}

/* Waits until part 0's manifest is known, or until part 0 ended without one (P stopped: part
   0 tells why) or the build stopped P (called locked). */
static void await_manifest(struct tpart *p) {
  struct tbuild *b = p->b;
  while (p->i && !b->have_manifest && !b->part0_done && !part_stop(p))
    pthread_cond_wait(&b->cv, &b->mu);
  if (p->i && !b->have_manifest)
    p->stopped = 1;
}

/* The sink's claim: shard K goes to the first part that asks for it (a number the manifest
   does not list too: got_shard reports it); none after a failed job (part 0 goes on to
   verify the input); -1, the split stops, when the build stopped the part. */
static int got_claim(void *user, int k) {
  struct tpart *p = user;
  struct tbuild *b = p->b;
  pthread_mutex_lock(&b->mu);
  await_manifest(p);
  int in = b->have_manifest && k >= 0 && k < b->m.nshards;
  int mine = part_stop(p) ? -1 : !b->stop && !(in && b->jobs[k].claimed);
  if (mine > 0 && in)
    b->jobs[k].claimed = 1;
  pthread_mutex_unlock(&b->mu);
  return mine;
}

/* The sink's shard K: queued for the workers, once the manifest is known (another part
   waits for part 0's). After a failed job the split goes on (so that a broken input is
   reported as such, as the command line does), queueing nothing; after a refused slot it
   stops. */
static int got_shard(void *user, int k, char *bc, size_t size) {
  struct tpart *p = user;
  struct tbuild *b = p->b;
  pthread_mutex_lock(&b->mu);
  await_manifest(p);
  if (!p->stopped && !b->stop &&
      (!b->have_manifest || k < 0 || k >= b->m.nshards || b->jobs[k].bc || b->jobs[k].obj.data)) {
    b->err = lib_msg("shard: error: the split gave shard %d, which the manifest of '%s' does not "
                     "list or was given before",
                     k, b->input);
    b->stop = b->halt = 1;
  }
  if (p->stopped || b->stop)
    free(bc);
  else if (outputs_shard(b, k, bc, size))
    free(bc), b->hits++;
  else
    workers_add(b, k, bc, size);
  int stop = part_stop(p);
  pthread_mutex_unlock(&b->mu);
  return stop;
}

/* Part P's own module: the build's input bitcode parsed into a new context (*CTX); NULL with
   P's error set. */
static LLVMModuleRef part_module(struct tpart *p, LLVMContextRef *ctx) {
  LLVMMemoryBufferRef in = p->b->bitcode;
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(
      LLVMGetBufferStart(in), LLVMGetBufferSize(in), p->b->input, 0);
  LLVMModuleRef m = NULL;
  *ctx = LLVMContextCreate();
  if (LLVMParseBitcodeInContext2(*ctx, buf, &m)) {
    p->err = lib_msg("cannot read the module's bitcode back for part %d", p->i);
    m = NULL;
  }
  LLVMDisposeMemoryBuffer(buf);
  return m;
}

/* Runs part P: takes its job slot (unless it holds one), splits its module (none when the
   build stopped it before it began), gives the slot back; a thread's body. */
static void *part_run(void *arg) {
  struct tpart *p = arg;
  struct tbuild *b = p->b;
  if (!p->held && b->acquire && b->acquire(b->slot_user)) {
    pthread_mutex_lock(&b->mu);
    b->cancelled = b->stop = b->halt = 1;
    p->rc = p->stopped = 1;
  } else {
    pthread_mutex_lock(&b->mu);
    int skip = part_stop(p);
    pthread_mutex_unlock(&b->mu);
    LLVMContextRef ctx = NULL;
    LLVMModuleRef m = skip ? NULL : p->m ? p->m : part_module(p, &ctx);
    struct shard_plugin_sink sink = {p, got_manifest, got_shard, got_claim};
    p->rc = m ? b->split_fn(m, p->passes, &sink, &p->err) : 1;
    if (ctx) {
      if (m)
        LLVMDisposeModule(m);
      LLVMContextDispose(ctx);
    }
    if (b->release)
      b->release(b->slot_user);
    pthread_mutex_lock(&b->mu);
  }
  if (p->rc && !p->stopped)
    b->part_failed = b->stop = 1; /* no more jobs; the other parts stop but part 0 */
  b->part0_done |= p->i == 0;
  b->verified |= p->i == 0 && !p->rc; /* (part 0 verifies a late-verified input) */
  b->splitting--;
  b->budget++; /* its job slot is free */
  pthread_cond_broadcast(&b->cv);
  pthread_mutex_unlock(&b->mu);
  return NULL;
}

/* The bitcode the parts but 0 parse: the input file's bytes when they are bitcode and the
   configuration changed nothing in the module (what each of the command line's opt parts
   reads), else M written as bitcode, before part 0 changes it. */
static LLVMMemoryBufferRef parts_bitcode(const struct tbuild *b, LLVMModuleRef m) {
  const struct shard_config *c = b->c;
  const unsigned char *d = (const unsigned char *)b->data;
  int bc = d && b->size >= 4 &&
           (!memcmp(d, "BC\xc0\xde", 4) || !memcmp(d, "\xde\xc0\x17\x0b", 4)); /* or wrapped */
  if (bc && !c->cpu && !c->features) /* (reloc and code model are compile flags) */
    return LLVMCreateMemoryBufferWithMemoryRange(b->data, b->size, b->input, 0);
  return LLVMWriteBitcodeToMemoryBuffer(m);
}

/* How many parts split B's input: job_split_parts(), the threads executor's; under a make
   jobserver, no more than the implicit slot and the tokens free now (taken for the parts). */
static int parts_count(struct tbuild *b) {
  int n = job_split_parts(&b->o);
  if (b->acquire == tokens_acquire)
    n = 1 + tokens_take(b, n - 1);
  return n;
}

/* Starts part P on a thread of its own; returns whether it did. */
static int part_start(struct tpart *p) {
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setstacksize(&at, 16 << 20); /* as a worker's */
  p->started = !pthread_create(&p->thread, &at, part_run, p);
  pthread_attr_destroy(&at);
  return p->started;
}

/* Phase 1: splits M (consumed by part 0, whose job slot is held) in parts while the workers
   compile what arrives. Returns 0, or nonzero with *ERROR the message of the lowest part that
   failed by itself (NULL when every failure was a stop: the build says why). */
int plugin_split(struct tbuild *b, LLVMModuleRef m, char **error) {
  int n = parts_count(b);
  struct tpart *parts = xcalloc(n, sizeof *parts);
  b->bitcode = n > 1 ? parts_bitcode(b, m) : NULL;
  pthread_mutex_lock(&b->mu);
  b->parts = b->splitting = n;
  b->budget = b->limit - n;
  pthread_mutex_unlock(&b->mu);
  for (int i = 0; i < n; i++) {
    parts[i] = (struct tpart){.b = b, .i = i, .passes = split_passes(&b->o, n, i, !b->verified)};
    parts[i].held = i == 0 || b->acquire == tokens_acquire;
  }
  parts[0].m = m;
  for (int i = 1; i < n; i++)
    part_start(&parts[i]);
  part_run(&parts[0]);
  int rc = 0;
  for (int i = 0; i < n; i++) {
    if (i && !parts[i].started) /* no thread: it runs here */
      part_run(&parts[i]);
    else if (i)
      pthread_join(parts[i].thread, NULL);
    rc |= parts[i].rc;
    if (parts[i].rc && !parts[i].stopped && !*error)
      *error = parts[i].err, parts[i].err = NULL;
    free(parts[i].err);
    free(parts[i].passes);
  }
  if (b->bitcode)
    LLVMDisposeMemoryBuffer(b->bitcode);
  b->bitcode = NULL;
  free(parts);
  return rc;
}
