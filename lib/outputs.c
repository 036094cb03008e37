/* outputs: what a threads build keeps beside its object, with the command line's formats and
   keys: the cache (driver/cache.c's entries, driver/job.c's keys: an entry one stores is a
   hit for the other), the report and the trace (driver/report.c), the kept files. */
#define _GNU_SOURCE
#include "threads.h"

#include "job.h"
#include "report.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The process's umask, read without changing it (umask() would race with the host's other
   threads): /proc/self/status's Umask line, else 022. */
static mode_t read_umask(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  unsigned m = 022;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "Umask: %o", &m) == 1)
      break;
  if (f)
    fclose(f);
  return (mode_t)m;
}

/* Turns B's cache on (C->cache_dir); 0, or 1 with *ERROR set. */
int outputs_cache_open(struct tbuild *b, char **error) {
  if (!b->c->cache_dir)
    return 0;
  if (cache_init(&b->cache, b->c->cache_dir, 2ULL << 30, 0, 1, read_umask()))
    return 0;
  *error = lib_msg("shard: cache directory '%s' is not usable (%s)", b->c->cache_dir,
                   strerror(errno ? errno : ENOTDIR));
  return 1;
}

/* Whether the whole output is looked up and stored: with the cache on and without a report
   or a trace, which describe the jobs (as the command line). */
static int output_cached(const struct tbuild *b) {
  return b->cache.root && !b->c->report && !b->c->time_trace;
}

/* The output's key: the input's bytes DATA (SIZE), as the `shard` driver next to this
   library would key them. */
static struct cache_key output_key(const struct tbuild *b, const char *data, size_t size) {
  char *driver = lib_msg("%s/../bin/shard", lib_self_dir());
  struct cache_key k = job_output_key(&b->o, driver, data, size);
  free(driver);
  return k;
}

/* Looks the whole output up (input bytes DATA, SIZE): 1 and *OUT on a hit, else 0 (the key
   kept for outputs_store). */
int outputs_lookup(struct tbuild *b, const char *data, size_t size, struct shard_engine_buf *out) {
  if (!output_cached(b))
    return 0;
  b->out_key = output_key(b, data, size);
  return cache_get_mem(&b->cache, b->out_key, &out->data, &out->size);
}

/* Shard K's module BC arrived (locked): with the cache on, its key, and its object when the
   cache has it (returns 1: nothing to compile). Kept when asked. */
int outputs_shard(struct tbuild *b, int k, const char *bc, size_t size) {
  if (b->c->keep_temps) {
    char *p = shard_file(b->dir, k, ".bc");
    outputs_keep(b, p, bc, size);
    free(p);
  }
  if (!b->cache.root)
    return 0;
  b->keys[k] = job_shard_key(&b->o, &b->m, NULL, bc, size);
  struct tjob *j = &b->jobs[k];
  int hit = cache_get_mem(&b->cache, b->keys[k], &j->obj.data, &j->obj.size);
  b->m.shards[k].cache = hit ? CACHE_HIT : CACHE_MISS;
  return hit;
}

/* After phase 2: stores the compiled objects in the cache, keeps them when asked. */
void outputs_objects(struct tbuild *b) {
  for (int k = 0; k < b->m.nshards; k++) {
    const struct shard_engine_buf *o = &b->jobs[k].obj;
    if (b->cache.root && b->m.shards[k].cache == CACHE_MISS)
      cache_put_mem(&b->cache, b->keys[k], o->data, o->size);
    if (b->c->keep_temps) {
      char *p = shard_file(b->dir, k, ".o");
      outputs_keep(b, p, o->data, o->size);
      free(p);
    }
  }
}

/* After phase 3: the report and the trace (the command line's JSON; no peak memory per job:
   threads share one), and the output in the cache; 0, or 1 with *ERROR set. */
int outputs_finish(struct tbuild *b, const struct shard_engine_buf *out, char **error) {
  struct marks t = {b->start, b->split, b->done ? b->first : b->split, b->compile, now(), b->parts};
  int e = 0;
  const char *bad = NULL;
  if (b->c->report && (e = report_write(b->c->report, &b->m, &t, b->peak)))
    bad = b->c->report;
  else if (b->c->time_trace && (e = trace_write(b->c->time_trace, &b->m, &t)))
    bad = b->c->time_trace;
  if (bad) {
    *error = lib_msg("shard: error: cannot write '%s': %s", bad, strerror(e));
    return 1;
  }
  if (output_cached(b))
    cache_put_mem(&b->cache, b->out_key, out->data, out->size);
  cache_trim_in(&b->cache);
  return 0;
}

/* --keep-temps: writes the SIZE bytes of DATA to PATH in the kept work directory (created
   when missing); a failure is not the build's. */
void outputs_keep(const struct tbuild *b, const char *path, const char *data, size_t size) {
  free(mkdirs(b->dir));
  FILE *f = fopen(path, "wb");
  if (f) {
    fwrite(data, 1, size, f);
    fclose(f);
  }
}
