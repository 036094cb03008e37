/* preload: a faster malloc for the LLVM tools the driver runs (LD_PRELOAD).

   LLVM allocates and frees many small objects, which glibc's malloc serves more slowly than
   mimalloc, tcmalloc or jemalloc (docs/measurements.md; bench/compare.sh, contender
   serial-malloc). The allocator changes no output byte. */
#define _XOPEN_SOURCE 700
#include "preload.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SHARD_MULTIARCH
#define SHARD_MULTIARCH "x86_64-linux-gnu"
#endif

/* The allocators looked for, best first (least memory for the same speed), and where. */
static const char *const libs[] = {"libmimalloc.so.2", "libtcmalloc_minimal.so.4",
                                   "libjemalloc.so.2"};
static const char *const dirs[] = {"/usr/lib/" SHARD_MULTIARCH, "/usr/local/lib", "/usr/lib64",
                                   "/usr/lib"};

/* Returns the path of the first installed allocator of the list, or NULL. */
const char *preload_find(void) {
  for (size_t i = 0; i < sizeof libs / sizeof *libs; i++)
    for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
      char *p = fmt("%s/%s", dirs[d], libs[i]);
      if (access(p, R_OK) == 0)
        return p;
      free(p);
    }
  return NULL;
}

/* Adds LIB after the LD_PRELOAD the driver inherited, for every child it starts (a malloc
   preloaded by the user comes first and wins). */
void preload_use(const char *lib) {
  const char *old = getenv("LD_PRELOAD");
  char *v = old && *old ? fmt("%s:%s", old, lib) : xstrdup(lib);
  if (setenv("LD_PRELOAD", v, 1))
    die("cannot set LD_PRELOAD");
  free(v);
}
