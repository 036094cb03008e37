/* engine-tool: the engine's test driver (C11).
     engine-tool compile OUT BC CLANG ARGS...       one compile, the object into OUT
     engine-tool threads N OUT BC CLANG ARGS...     N compiles at once on N threads: same bytes
     engine-tool link OUT DIR OBJS...               the link, promoted symbols from DIR's
                                                    localize.syms and redefine.syms
   Exits 1 with the engine's message on failure, and goes on (prints "host alive"). */
#include "engine.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole of file PATH, or NULL. */
static char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc(n ? n : 1);
  if (fread(p, 1, n, f) != (size_t)n) {
    free(p);
    p = NULL;
  }
  fclose(f);
  *size = n;
  return p;
}

/* Writes BUF to PATH. */
static int spill(const char *path, const struct shard_engine_buf *b) {
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(b->data, 1, b->size, f) == b->size;
  return (f && fclose(f)) || !ok;
}

struct job {
  struct shard_engine_compile_opts o;
  const char *bc;
  size_t size;
  struct shard_engine_buf obj;
  char *log;
  int rc;
};

/* A thread's compile. */
static void *run(void *p) {
  struct job *j = p;
  j->rc = shard_engine_compile(&j->o, j->bc, j->size, &j->obj, &j->log);
  return NULL;
}

/* Reads the promoted symbols of DIR's symbol lists. */
static size_t read_promos(const char *dir, struct shard_engine_promo **out) {
  char path[4096], line[8192];
  size_t n = 0, cap = 0;
  struct shard_engine_promo *v = NULL;
  snprintf(path, sizeof path, "%s/localize.syms", dir);
  FILE *f = fopen(path, "r");
  while (f && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (n == cap)
      v = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
    v[n].name = strdup(line);
    v[n++].old = NULL;
  }
  if (f)
    fclose(f);
  snprintf(path, sizeof path, "%s/redefine.syms", dir);
  f = fopen(path, "r");
  while (f && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    char *sp = strchr(line, ' ');
    if (!sp)
      continue;
    *sp = 0;
    for (size_t i = 0; i < n; i++)
      if (!strcmp(v[i].name, line))
        v[i].old = strdup(sp + 1);
  }
  if (f)
    fclose(f);
  *out = v;
  return n;
}

int main(int argc, char **argv) {
  int rc = 0;
  if (argc >= 5 && (!strcmp(argv[1], "compile") || !strcmp(argv[1], "threads"))) {
    int threads = !strcmp(argv[1], "threads");
    int n = threads ? atoi(argv[2]) : 1, a = threads ? 3 : 2;
    size_t size;
    char *bc = slurp(argv[a + 1], &size);
    if (!bc)
      bc = strdup(""), size = 0;
    struct job *j = calloc(n, sizeof *j);
    pthread_t *t = calloc(n, sizeof *t);
    for (int i = 0; i < n; i++) {
      j[i].o.argv = (const char *const *)argv + a + 2;
      j[i].o.argc = argc - a - 2;
      j[i].o.pipeline = getenv("ENGINE_PIPELINE");
      j[i].bc = bc, j[i].size = size;
      pthread_create(&t[i], NULL, run, &j[i]);
    }
    for (int i = 0; i < n; i++)
      pthread_join(t[i], NULL);
    for (int i = 0; i < n; i++) {
      if (j[i].log)
        fputs(j[i].log, stderr);
      if (j[i].rc)
        rc = 1;
      else if (j[i].obj.size != j[0].obj.size ||
               memcmp(j[i].obj.data, j[0].obj.data, j[0].obj.size))
        fprintf(stderr, "engine-tool: thread %d's object differs from thread 0's\n", i), rc = 1;
    }
    if (!rc)
      rc = spill(argv[a], &j[0].obj);
  } else if (argc >= 5 && !strcmp(argv[1], "link")) {
    int n = argc - 4;
    struct shard_engine_buf *objs = calloc(n, sizeof *objs);
    for (int i = 0; i < n; i++)
      if (!(objs[i].data = slurp(argv[4 + i], &objs[i].size)))
        return fprintf(stderr, "engine-tool: cannot read '%s'\n", argv[4 + i]), 1;
    struct shard_engine_promo *p;
    size_t np = read_promos(argv[3], &p);
    struct shard_engine_buf out;
    char *log;
    rc = shard_engine_link(objs, (const char *const *)argv + 4, n, p, np, &out, &log);
    if (log)
      fputs(log, stderr);
    if (!rc)
      rc = spill(argv[2], &out);
  } else {
    fprintf(stderr, "usage: engine-tool compile OUT BC CLANG ARGS... | threads N OUT BC CLANG "
                    "ARGS... | link OUT DIR OBJS...\n");
    return 2;
  }
  printf("host alive: %s\n", rc ? "failed" : "ok");
  return rc;
}
