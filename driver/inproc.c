/* inproc: --executor threads: the driver loads libshard (next to the plugin, ../lib from the
   executable) only for this executor, so that no other run pays for loading clang's and
   lld's libraries, and hands it the pipeline description as a shard_config. */
#define _XOPEN_SOURCE 700
#include "inproc.h"
#include "cache.h"
#include "util.h"

#include "shard.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The library's entry points this executor calls. */
struct api {
  void (*init)(struct shard_config *c);
  int (*compile_file)(const char *in, const char *out, const struct shard_config *c, char **err);
  void (*dispose)(char *message);
};

/* Loads <prefix>/lib/libshard.so.0 (the executable being <prefix>/bin/shard); dies when it
   cannot. */
static struct api load(void) {
  char *self = self_exe();
  if (!self)
    die("--executor threads: cannot find the driver's own path");
  for (int up = 0; up < 2; up++) {
    char *slash = strrchr(self, '/');
    if (slash)
      *slash = 0;
  }
  char *path = fmt("%s/lib/libshard.so.0", self);
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h)
    die("--executor threads: cannot load '%s': %s", path, dlerror());
  struct api a = {dlsym(h, "shard_config_init"), dlsym(h, "shard_compile_file"),
                  dlsym(h, "shard_dispose_message")};
  if (!a.init || !a.compile_file || !a.dispose)
    die("--executor threads: '%s' is not libshard: %s", path, dlerror());
  free(path);
  free(self);
  return a;
}

/* Runs O's build with the threads executor; returns the exit status (errors exit). */
int inproc_run(const struct opts *o) {
  struct api a = load();
  struct shard_config c;
  a.init(&c);
  c.executor = SHARD_EXECUTOR_THREADS;
  c.jobs = o->jobs_given ? o->jobs : 0; /* 0: online CPUs, or the jobserver's tokens */
  c.shards = o->shards;
  c.opt_level = o->olevel;
  char *mv = o->mv_targets ? xstrdup(o->mv_targets) : NULL; /* ':'-separated: back to ',' */
  for (char *s = mv; s && *s; s++)
    if (*s == ':')
      *s = ',';
  c.mv_targets = mv;
  /* The command line warns about an unusable cache and goes on without; the library fails. */
  c.cache_dir = o->cache_dir && cache_open(o->cache_dir, o->cache_size, 0) ? o->cache_dir : NULL;
  c.report = o->report;
  c.time_trace = o->trace;
  c.presimplify = o->presimplify;
  c.keep_temps = o->keep;
  c.llvm_bindir = o->bindir;
  char *err = NULL;
  int rc = a.compile_file(o->input, o->out, &c, &err);
  if (rc) {
    fprintf(stderr, "%s\n", err ? err : "shard: error: the threads executor failed");
    a.dispose(err);
  }
  free(mv);
  return rc ? 1 : 0;
}
