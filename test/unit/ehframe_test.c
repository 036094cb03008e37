/* Unit test of driver/ehframe.c: ehframe-test OBJ OUT drops the FDEs of discarded code from OBJ,
   writes the result to OUT, and prints what each call did, on OBJ, on the result again, and on
   broken copies of OBJ (which must come back unchanged). */
#include "ehframe.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs ehframe_prune on a copy of the SIZE bytes of DATA; prints one line; the result in *OUT
   (its size in *N) when OUT is not NULL. */
static void run(const char *what, const char *data, size_t size, char **out, size_t *n) {
  char *copy = xmalloc(size + 1);
  memcpy(copy, data, size);
  size_t m = ehframe_prune(copy, size);
  if (m == size)
    printf("%s: unchanged\n", what);
  else
    printf("%s: %zu bytes less\n", what, size - m);
  if (out)
    *out = copy, *n = m;
  else
    free(copy);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: ehframe-test OBJ OUT\n");
    return 2;
  }
  size_t size, n, n2;
  char *obj = read_file(argv[1], &size), *pruned, *again;
  if (!obj || size < 64) {
    fprintf(stderr, "ehframe-test: cannot read '%s'\n", argv[1]);
    return 2;
  }
  run("pruned", obj, size, &pruned, &n);
  run("again", pruned, n, &again, &n2);
  run("truncated", obj, size / 2, NULL, NULL);
  char *bad = xmalloc(size);
  memcpy(bad, obj, size);
  memset(bad + 40, 0xff, 8); /* e_shoff (ELF64) or e_flags and more (ELF32) */
  run("section table", bad, size, NULL, NULL);
  memcpy(bad, obj, size);
  bad[16] = 2; /* ET_EXEC */
  run("not relocatable", bad, size, NULL, NULL);
  FILE *f = fopen(argv[2], "wb");
  if (!f || fwrite(pruned, 1, n, f) != n || fclose(f)) {
    fprintf(stderr, "ehframe-test: cannot write '%s'\n", argv[2]);
    return 2;
  }
  free(bad), free(again), free(pruned), free(obj);
  return 0;
}
