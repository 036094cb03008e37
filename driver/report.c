/* report: --report (JSON per shard and a summary) and --time-trace (Chrome trace JSON,
   for chrome://tracing or Perfetto), written once the output is complete. */
#define _XOPEN_SOURCE 700
#include "report.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Closes F; returns 0, or the errno of what was lost. */
static int close_out(FILE *f) {
  errno = 0;
  if (ferror(f) | fclose(f))
    return errno ? errno : EIO;
  return 0;
}

/* Writes the per-shard report: predicted cost, measured time and memory, and a summary
   (the critical path is the longest job; imbalance is the longest over the mean). Returns 0,
   or the errno of the failure. */
int report_write(const char *path, const struct manifest *m, const struct marks *t, int jobs) {
  FILE *f = fopen(path, "w");
  if (!f)
    return errno;
  double sum = 0, longest = 0;
  int crit = 0, hits = 0;
  for (int k = 0; k < m->nshards; k++) {
    hits += m->shards[k].cache == CACHE_HIT;
    sum += m->shards[k].secs;
    if (m->shards[k].secs > longest)
      longest = m->shards[k].secs, crit = k;
  }
  fprintf(f, "{\n  \"version\": 1,\n  \"shards\": %d,\n  \"jobs\": %d,\n  \"split_parts\": %d,\n",
          m->nshards, jobs, t->parts);
  fprintf(f,
          "  \"phases\": {\"split\": %.3f, \"compile\": %.3f, \"link\": %.3f, \"total\": %.3f},\n",
          t->split - t->start, t->compile - t->split, t->link - t->compile, t->link - t->start);
  fprintf(f, "  \"shard\": [\n");
  for (int k = 0; k < m->nshards; k++) {
    const struct shard *s = &m->shards[k];
    fprintf(f,
            "    {\"id\": %d, \"predicted_cost\": %llu, \"functions\": %llu, \"seconds\": %.3f, "
            "\"peak_rss_kib\": %ld, \"cache\": \"%s\"",
            s->id, s->cost, s->funcs, s->secs, s->maxrss,
            s->cache == CACHE_HIT    ? "hit"
            : s->cache == CACHE_MISS ? "miss"
                                     : "off");
    if (s->node) /* --executor slurm (names of [A-Za-z0-9._-]: no escape needed) */
      fprintf(f, ", \"node\": \"%s\", \"step\": \"%s\"", s->node, s->step ? s->step : "");
    fprintf(f, "}%s\n", k + 1 < m->nshards ? "," : "");
  }
  fprintf(f,
          "  ],\n  \"summary\": {\"job_seconds\": %.3f, \"critical_path_shard\": %d, "
          "\"critical_path_seconds\": %.3f, \"imbalance\": %.3f, \"cache_hits\": %d}\n}\n",
          sum, crit, longest, sum > 0 ? longest * m->nshards / sum : 1.0, hits);
  return close_out(f);
}

/* Writes one complete event ("ph": "X") in microseconds since the start of the run, after a
   comma unless it is the first. */
static void event(FILE *f, const char *name, int tid, double from, double to, double t0,
                  int first) {
  fprintf(
      f,
      "%s  {\"name\": \"%s\", \"ph\": \"X\", \"pid\": 1, \"tid\": %d, \"ts\": %.0f, \"dur\": %.0f}",
      first ? "" : ",\n", name, tid, (from - t0) * 1e6, (to - from) * 1e6);
}

/* Writes the phases (thread 0; the compile phase from its first job, which may start before
   the split ends) and every job that ran (thread 1 + its worker slot; shards from the cache
   ran none). Returns 0, or the errno of the failure. */
int trace_write(const char *path, const struct manifest *m, const struct marks *t) {
  FILE *f = fopen(path, "w");
  if (!f)
    return errno;
  fprintf(f, "{\"traceEvents\": [\n");
  event(f, "split", 0, t->start, t->split, t->start, 1);
  event(f, "compile", 0, t->first, t->compile, t->start, 0);
  event(f, "link", 0, t->compile, t->link, t->start, 0);
  for (int k = 0; k < m->nshards; k++) {
    const struct shard *s = &m->shards[k];
    if (s->cache == CACHE_HIT)
      continue;
    char name[32];
    snprintf(name, sizeof name, "shard %d", s->id);
    event(f, name, 1 + s->slot, s->started, s->started + s->secs, t->start, 0);
  }
  fprintf(f, "\n], \"displayTimeUnit\": \"ms\"}\n");
  return close_out(f);
}
