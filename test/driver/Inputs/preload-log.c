/* A stand-in allocator for malloc.test: loaded with LD_PRELOAD, it only writes the name
   of each program that loads it to $PRELOAD_LOG. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void logged(void) {
  const char *log = getenv("PRELOAD_LOG");
  FILE *f = log ? fopen(log, "a") : NULL;
  if (f) {
    fprintf(f, "loaded by %s\n", program_invocation_short_name);
    fclose(f);
  }
}
