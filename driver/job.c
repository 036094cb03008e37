/* job: the job model: the jobs of a build, their commands (cmd.c builds the argv), logs,
   inputs and outputs, for every executor. */
#define _XOPEN_SOURCE 700
#include "job.h"
#include "cache.h"
#include "cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const job_tools[] = {"opt", "clang", "ld.lld", "llvm-objcopy", NULL};

/* The path of shard K's file with extension EXT (".bc", ".o", ".clang.log") in DIR. */
char *shard_file(const char *dir, int k, const char *ext) {
  return fmt("%s/shard.%d%s", dir, k, ext);
}

/* How many parts split the module (--split-parts, else from the job slots); each part holds
   the whole module and makes the same plan. The process executor's opt parts write every
   P-th shard: one below 4 slots (the jobs start as shards are written, local.c, so a second
   process would only parse and plan again), else half the slots, where one writer would
   starve the jobs. The threads executor's part 0 writes from the module it holds while any
   other part first parses and plans its copy, which takes about as long as part 0's writes:
   one part until the slots outnumber what one writer keeps fed, a shard's compile taking
   JOB_WRITE_RATIO times its write at -O1 to -O3 (or more), O0_JOB_WRITE_RATIO at -O0
   (docs/measurements.md, *Fewer parts*). At most 8 either way. */
int job_split_parts(const struct opts *o) {
  enum { JOB_WRITE_RATIO = 16, O0_JOB_WRITE_RATIO = 3, MAX_AUTO_PARTS = 8 };
  int slots = o->jobs, parts;
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (o->split_parts)
    return o->split_parts;
  if (o->executor == EXEC_SLURM && cpus > 0 && cpus < slots) /* the split runs here */
    slots = (int)cpus;
  if (o->executor == EXEC_THREADS) {
    int r = o->olevel ? JOB_WRITE_RATIO : O0_JOB_WRITE_RATIO;
    parts = (slots + r) / (r + 1); /* a writer for every r + 1 slots, rounded up */
  } else
    parts = slots < 4 ? 1 : slots / 2;
  return parts < MAX_AUTO_PARTS ? parts : MAX_AUTO_PARTS;
}

/* qsort order of shard pointers: by predicted cost, largest first, then by lower K (the order
   the compile jobs start in). */
int job_by_cost(const void *a, const void *b) {
  const struct shard *x = *(const struct shard *const *)a, *y = *(const struct shard *const *)b;
  if (x->cost != y->cost)
    return x->cost < y->cost ? 1 : -1;
  return x->id - y->id;
}

/* Starts J as a job of KIND with N steps (argv empty, log and failure to be set). */
static void job_init(struct job *j, enum job_kind kind, int n) {
  *j = (struct job){.kind = kind, .nsteps = n, .step = xcalloc(n, sizeof *j->step)};
}

/* The log of split part PART in DIR. */
char *job_split_log(const char *dir, int part) {
  return part ? fmt("%s/split.%d.log", dir, part) : fmt("%s/split.log", dir);
}

/* The split of O's input into DIR in PARTS opt processes (with NOTIFY, each names on its fd 3
   the files it wrote). It writes the manifest and NSHARDS shard modules (NSHARDS 0: not known
   yet, before the split ran). */
void job_split(struct job *j, const struct opts *o, const char *dir, int nshards, int parts,
               int notify) {
  job_init(j, JOB_SPLIT, parts);
  for (int i = 0; i < parts; i++) {
    struct step *s = &j->step[i];
    cmd_split(&s->argv, o, dir, parts, i, notify);
    s->log = job_split_log(dir, i);
    s->fail = fmt("opt failed to split '%s'", o->input);
  }
  av_push(&j->in, o->input);
  for (int k = 0; k < nshards; k++)
    av_take(&j->out, shard_file(dir, k, ".bc"));
  av_pushf(&j->out, "%s/manifest", dir);
  av_pushf(&j->tools, "%s/opt", o->bindir);
  av_push(&j->tools, o->plugin);
}

/* The compile of shard K of manifest M in DIR. */
void job_compile(struct job *j, const struct opts *o, const struct manifest *m, const char *dir,
                 int k) {
  job_init(j, JOB_COMPILE, 1);
  j->k = k;
  av_take(&j->in, shard_file(dir, k, ".bc"));
  av_take(&j->out, shard_file(dir, k, ".o"));
  cmd_compile(&j->step[0].argv, o, m, j->in.v[0], j->out.v[0]);
  j->step[0].log = shard_file(dir, k, ".clang.log");
  j->step[0].fail = fmt("shard %d: clang failed", k);
  if (o->compile_cmd)
    av_push(&j->tools, o->compile_cmd[0]);
  else
    av_pushf(&j->tools, "%s/clang", o->bindir);
  if (opts_compile_plugin(o))
    av_push(&j->tools, o->plugin);
}

/* The link of the NSHARDS objects in DIR (K ascending) into O's output: ld.lld -r into
   DIR/linked.o (not with one shard), then llvm-objcopy with the options SYMS into TMP, which
   the executor renames onto the output once it is complete. */
void job_link(struct job *j, const struct opts *o, const char *dir, int nshards, char *const *syms,
              const char *tmp) {
  job_init(j, JOB_LINK, nshards > 1 ? 2 : 1);
  for (int k = 0; k < nshards; k++)
    av_take(&j->in, shard_file(dir, k, ".o"));
  av_push(&j->out, o->out);
  char *linked = nshards > 1 ? fmt("%s/linked.o", dir) : xstrdup(j->in.v[0]);
  struct step *s = j->step;
  if (nshards > 1) {
    cmd_link(&s->argv, o, j->in.v, linked);
    s->log = fmt("%s/link.log", dir);
    s->fail = xstrdup("ld.lld failed to link the shards");
    av_pushf(&j->tools, "%s/ld.lld", o->bindir);
    s++;
  }
  cmd_objcopy(&s->argv, o, syms, linked, tmp);
  s->log = fmt("%s/objcopy.log", dir);
  s->fail = xstrdup("llvm-objcopy failed to restore the promoted symbols");
  av_pushf(&j->tools, "%s/llvm-objcopy", o->bindir);
  free(linked);
}

/* The cache key of a shard's object: its module's bytes (the file BC, or the SIZE bytes of
   DATA when DATA is not NULL), the compile command without the launcher (which must not
   change the output) and paths, and clang's identity. */
struct cache_key job_shard_key(const struct opts *o, const struct manifest *m, const char *bc,
                               const char *data, size_t size) {
  struct job j;
  int skip = 0;
  for (char **w = o->launcher; w && *w; w++)
    skip++;
  job_compile(&j, o, m, "@", 0); /* the same paths for every shard */
  struct argv *a = &j.step[0].argv;
  struct cache_hasher *h = cache_hasher_new("shard");
  cache_hash_tool(h, a->v[skip]);
  if (opts_compile_plugin(o)) /* the plugin takes part in the compile */
    cache_hash_tool(h, o->plugin);
  for (int i = skip; i < a->n; i++)
    cache_hash_str(h, a->v[i]);
  if (data)
    cache_hash_buf(h, data, size);
  else
    cache_hash_file(h, bc);
  job_free(&j);
  return cache_hasher_done(h);
}

/* The cache key of the whole output: the input's bytes (the file O->input, or the SIZE
   bytes of DATA when DATA is not NULL), every option that changes the output, and the
   identity of the driver (DRIVER, the `shard` executable), the plugin and the tools. */
struct cache_key job_output_key(const struct opts *o, const char *driver, const char *data,
                                size_t size) {
  struct cache_hasher *h = cache_hasher_new("output");
  if (data)
    cache_hash_buf(h, data, size);
  else
    cache_hash_file(h, o->input);
  cache_hash_tool(h, driver);
  cache_hash_tool(h, o->plugin);
  for (const char *const *n = job_tools; *n; n++) {
    char *t = fmt("%s/%s", o->bindir, *n);
    cache_hash_tool(h, t);
    free(t);
  }
  char *opts = fmt("shards=%d O%d mv=%s pre=%d", o->shards, o->olevel,
                   o->mv_targets ? o->mv_targets : "", opts_presimplifies(o));
  cache_hash_str(h, opts);
  free(opts);
  if (o->reloc || o->cmodel) { /* (absent from the older keys, which stay valid) */
    opts = fmt("reloc=%s cmodel=%s", o->reloc ? o->reloc : "", o->cmodel ? o->cmodel : "");
    cache_hash_str(h, opts);
    free(opts);
  }
  if (opts_profile(o)) { /* the profile the split applies */
    cache_hash_str(h, "profile-use");
    cache_hash_file(h, opts_profile(o));
  }
  if (opts_profile_gen(o)) { /* the instrumentation the split applies */
    char *gen = fmt("profile-gen %s%s", opts_profile_gen(o), o->profile_atomic ? " atomic" : "");
    cache_hash_str(h, gen);
    free(gen);
  }
  if (o->compile_cmd) { /* launcher: the user's compiler and flags compile the shards */
    cache_hash_tool(h, o->compile_cmd[0]);
    for (char **w = o->compile_cmd; *w; w++)
      cache_hash_str(h, *w);
  }
  return cache_hasher_done(h);
}

/* Frees what J holds. */
void job_free(struct job *j) {
  for (int i = 0; i < j->nsteps; i++) {
    av_free(&j->step[i].argv);
    free(j->step[i].log);
    free(j->step[i].fail);
  }
  free(j->step);
  av_free(&j->in), av_free(&j->out), av_free(&j->tools);
  *j = (struct job){0};
}

/* After the split: dies unless shard K's module, which the manifest lists, is in DIR. */
void job_check_shard(const char *dir, int k) {
  char *p = shard_file(dir, k, ".bc");
  if (access(p, R_OK) < 0)
    die("the manifest lists shard %d but '%s' is missing: %s", k, p, strerror(errno));
  free(p);
}
