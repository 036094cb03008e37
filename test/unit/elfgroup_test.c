/* Unit test of driver/elfgroup.c: elfgroup-test OBJ NAME OUT makes the groups of OBJ whose local
   signature is NAME private (as a grouped promotion renamed back to NAME), writes the result to
   OUT, and prints what each call says, on OBJ and on broken copies of it. */
#include "elfgroup.h"
#include "manifest.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs elfgroup_private on a copy of the SIZE bytes of DATA (OUT: the result); prints one line. */
static void run(const char *what, const char *data, size_t size, const struct manifest *m,
                char **out) {
  char *copy = xmalloc(size + 1);
  memcpy(copy, data, size);
  int changed = -1;
  char *err = elfgroup_private(copy, size, m, &changed);
  printf("%s: %s%s\n", what, err ? "error: " : changed ? "changed" : "unchanged", err ? err : "");
  free(err);
  if (out)
    *out = copy;
  else
    free(copy);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: elfgroup-test OBJ NAME OUT\n");
    return 2;
  }
  size_t size;
  char *obj = read_file(argv[1], &size), *patched;
  if (!obj || size < 64) {
    fprintf(stderr, "elfgroup-test: cannot read '%s'\n", argv[1]);
    return 2;
  }
  struct promo p = {"x.shard.0", argv[2], 1}, other = {"y.shard.0", "not_there", 1};
  struct manifest m = {.promos = &p, .npromos = 1}, none = {.promos = &other, .npromos = 1};
  run("grouped", obj, size, &m, &patched);
  run("again", patched, size, &m, NULL);
  run("other name", obj, size, &none, NULL);
  p.grouped = 0;
  run("not grouped", obj, size, &m, NULL);
  p.grouped = 1;
  run("not ELF", "hello, world, and enough bytes to pass the size check of an ELF header .....",
      76, &m, NULL);
  run("truncated", obj, 64, &m, NULL);
  char *bad = xmalloc(size);
  memcpy(bad, obj, size);
  int is64 = obj[4] == 2;
  memset(bad + (is64 ? 60 : 48), 0xff, 2); /* e_shnum */
  run("section count", bad, size, &m, NULL);
  FILE *f = fopen(argv[3], "wb");
  if (!f || fwrite(patched, 1, size, f) != size || fclose(f)) {
    fprintf(stderr, "elfgroup-test: cannot write '%s'\n", argv[3]);
    return 2;
  }
  free(bad), free(patched), free(obj);
  return 0;
}
