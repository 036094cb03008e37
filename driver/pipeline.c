/* pipeline: runs one pipeline description. Phase 1 (opt + plugin) writes the shards and a
   manifest, phase 2 compiles each shard with clang -c (one process per shard) as soon as it
   is written, phase 3 links them with ld.lld -r and restores promoted symbols with objcopy:
   the local executor runs them (local.c), or the Ninja writer writes phases 2 and 3 for ninja
   to run (ninja.c). */
#define _XOPEN_SOURCE 700
#include "pipeline.h"
#include "cache.h"
#include "cmd.h"
#include "diag.h"
#include "inproc.h"
#include "job.h"
#include "jobserver.h"
#include "local.h"
#include "manifest.h"
#include "ninja.h"
#include "preflight.h"
#include "preload.h"
#include "proc.h"
#include "report.h"
#include "util.h"
#include "workdir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* Puts the complete output TMP in place of OUT (work_publish): the last step, after the
   reports, so that a run that fails leaves no OUT (an existing one untouched). */
static void publish(const char *tmp, const char *out) {
  /* Last chance for an interrupt to win; past this point OUT is complete. */
  proc_block(1);
  proc_interrupt_point();
  if (work_publish(tmp, out) < 0)
    die("cannot write '%s': %s", out, strerror(errno));
  work_set_tmpout(NULL);
}

/* With the cache on: when it holds the output for this input and these options, writes OUT
   from it and returns 1. Not with --report or --time-trace, which describe the jobs. */
static int output_from_cache(const struct opts *o, struct cache_key *key) {
  if (!cache_on() || o->report || o->trace)
    return 0;
  *key = job_output_key(o, "/proc/self/exe", NULL, 0);
  char *tmp = work_tmp_name(o->out);
  work_set_tmpout(tmp);
  if (!cache_get(*key, tmp)) {
    work_set_tmpout(NULL);
    free(tmp);
    return 0;
  }
  if (o->verbose)
    note("cache: the output of '%s' is in the cache: nothing to do", o->input);
  if (o->compile_cmd) { /* launcher: the diagnostics the compile printed */
    char *log = work_path("output.log");
    cache_get_log(*key, log);
    diag_add_file(log);
    diag_flush(NULL);
    free(log);
  }
  publish(tmp, o->out);
  free(tmp);
  return 1;
}

/* atexit handler: stops children first, then removes what they were writing. */
static void cleanup(void) {
  proc_kill_all();
  js_put_all();
  work_cleanup();
}

/* Launcher: runs the front-end step into DIR/input.bc, the pipeline's input from then on. Its
   diagnostics come out as the compiler prints them, in colour as diag.c decides, but for the
   count ("1 warning generated."), which diag.c prints at the end with the backend's, as the
   compiler prints one count; a failure exits with its status and its whole output. */
static void frontend(struct opts *o) {
  struct argv a = {0};
  for (char **w = o->frontend; *w; w++)
    av_push(&a, *w);
  av_push(&a, "-o");
  av_take(&a, work_path("input.bc"));
  o->input = a.v[a.n - 1];
  av_push(&a, diag_colored() ? "-fcolor-diagnostics" : "-fno-color-diagnostics");
  char *log = work_path("frontend.log");
  int st = proc_run_stderr(a.v, log);
  if (st) {
    print_file(log);
    exit(WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st));
  }
  diag_frontend(log);
  free(log);
  if (o->verbose)
    note("front end: '%s' written", o->input);
}

/* Launcher: compiles the front end's module with the user's compiler and flags in one job into
   OUT, as the compiler alone would (the same bytes, tested), and stores it in the cache under
   KEY (when given). */
static void compile_input(const struct opts *o, const struct cache_key *key) {
  struct argv a = {0};
  for (char **w = o->compile_cmd; *w; w++)
    av_push(&a, *w);
  char *tmp = work_tmp_name(o->out);
  work_set_tmpout(tmp);
  const char *tail[] = {"-c", "-x", "ir", o->input, "-o", tmp, NULL};
  for (const char **t = tail; *t; t++)
    av_push(&a, *t);
  cmd_launcher_flags(&a);
  char *log = work_path("input.clang.log");
  diag_source(o->input, o->source);
  int st = proc_run(a.v, log);
  diag_add_file(log);
  free(log);
  log = work_path("output.log");
  diag_flush(log);
  if (st)
    exit(WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st));
  if (key && cache_on())
    cache_put(*key, tmp), cache_put_log(*key, log);
  free(log);
  publish(tmp, o->out);
  av_free(&a);
  free(tmp);
}

/* Launcher: prints the backend diagnostics of the split (the logs of its PARTS: the profile's
   use, such as a function whose control flow no longer matches the profile, as the compiler
   O->compile_cmd reports them) and of M's shard compiles once each, also into file COPY;
   returns how many were errors. */
static int shard_diagnostics(const struct opts *o, int parts, const struct manifest *m,
                             const char *copy) {
  for (size_t i = 0; i < m->npromos; i++)
    if (m->promos[i].old)
      diag_rename(m->promos[i].new, m->promos[i].old);
  diag_source(o->input, o->source);
  enum diag_level level = diag_plugin_level(o->compile_cmd);
  for (int i = 0; i < parts; i++) {
    char *log = job_split_log(work_dir(), i);
    diag_add_split(log, level);
    free(log);
  }
  for (int k = 0; k < m->nshards; k++) {
    char *log = shard_file(work_dir(), k, ".clang.log");
    diag_add_file(log);
    free(log);
  }
  return diag_flush(copy);
}

/* Runs the three phases with the local executor, then writes the reports and OUT (and
   stores OUT in the cache under KEY). */
static void build_local(const struct opts *o, struct marks *t, struct cache_key key) {
  struct manifest m;
  int jobs = local_build(&m, o, t, 1);
  char *log = work_path("output.log");
  /* Errors, and warnings made errors (-Werror), fail the build after every shard's
     diagnostics, as they fail the compiler: no object. */
  if (jobs >= 0 && o->compile_cmd) {
    const char *first;
    int failed = local_compile_errors(&first), errors = shard_diagnostics(o, t->parts, &m, log);
    if (failed && !errors)
      die("%s", first);
    if (errors)
      exit(1);
  }
  if (jobs < 0) { /* launcher: the plan has one shard */
    if (o->verbose)
      note("the plan of '%s' has one shard (%llu cost): one compile, no split", o->input,
           m.shards[0].cost);
    compile_input(o, cache_on() && !o->report && !o->trace ? &key : NULL);
    free(log);
    return;
  }
  t->compile = now();
  if (o->verbose)
    note("phase 2 (compile): %.3f s after phase 1, at most %d job%s at once", t->compile - t->split,
         jobs, jobs == 1 ? "" : "s");
  if (o->verbose && cache_on()) {
    int hits, misses;
    cache_counts(&hits, &misses);
    note("cache: %d of %d shard%s from the cache", hits, m.nshards, m.nshards == 1 ? "" : "s");
  }
  char *tmp = local_link(&m, o);
  t->link = now();
  if (o->verbose)
    note("phase 3 (link): %.3f s; total %.3f s", t->link - t->compile, t->link - t->start);
  int e;
  if (o->report && (e = report_write(o->report, &m, t, jobs)))
    die("cannot write '%s': %s", o->report, strerror(e));
  if (o->trace && (e = trace_write(o->trace, &m, t)))
    die("cannot write '%s': %s", o->trace, strerror(e));
  if (cache_on() && !o->report && !o->trace)
    cache_put(key, tmp);
  if (cache_on() && !o->report && !o->trace && o->compile_cmd)
    cache_put_log(key, log);
  publish(tmp, o->out);
  free(log);
}

/* Launcher: when the front end's module is below O->split_min bytes of bitcode (a small
   translation unit, well under one shard's worth of cost) and neither --shards nor
   --mv-targets asks for the plugin's work, compiles it in one job without asking for a plan;
   returns 1 then. */
static int build_small(const struct opts *o) {
  struct stat st;
  if (o->shards || o->mv_targets || stat(o->input, &st) < 0 ||
      (unsigned long long)st.st_size >= o->split_min)
    return 0;
  if (o->verbose)
    note("'%s' is %lld bytes, below %llu: one compile, no split", o->input, (long long)st.st_size,
         o->split_min);
  compile_input(o, NULL);
  return 1;
}

/* Runs the pipeline O describes; returns the exit status (errors exit on their own). */
int pipeline_run(struct opts *o) {
  if (o->executor == EXEC_AUTO)
    o->executor = inproc_usable(o) ? EXEC_THREADS : EXEC_PROCESSES;
  preflight_resolve(o);
  if (o->compile_cmd)
    diag_colors(o->compile_cmd);
  if (o->executor == EXEC_THREADS) {
    preflight_check(o);
    int st = inproc_run(o);
    if (st >= 0)
      return st;
    o->executor = EXEC_PROCESSES;
  }
  proc_init(o->verbose);
  if (o->malloc_lib) {
    preload_use(o->malloc_lib);
    if (o->verbose)
      note("allocator of the LLVM tools: %s (LD_PRELOAD)", o->malloc_lib);
  }
  atexit(cleanup);
  /* A launcher run without -j shares the machine's slots with the others when no jobserver
     says how many jobs the build runs (make's recipe lines without '+', ninja before 1.13). */
  js_init(o->verbose, o->frontend && !o->jobs_given && o->executor != EXEC_SLURM);
  preflight_check(o);
  if (o->frontend) { /* the launcher's input is the front end's output, in the work dir */
    work_init(o);
    frontend(o);
    if (build_small(o))
      return 0;
  }
  struct cache_key key = {0};
  if (o->cache_dir && cache_open(o->cache_dir, o->cache_size, o->verbose) &&
      output_from_cache(o, &key)) {
    cache_trim();
    return 0;
  }
  if (!o->frontend)
    work_init(o);
  struct marks t = {.start = now()};
  if (o->ninja) { /* the split runs here; ninja runs phases 2 and 3 */
    struct manifest m;
    local_build(&m, o, &t, 0);
    ninja_write(&m, o);
    return 0;
  }
  build_local(o, &t, key);
  cache_trim();
  return 0;
}
