/* pool: the machine's job slots, shared by the compiler launcher's runs of one user that have
   no jobserver and no -j (a build system that runs many compiles at once, each a shard run
   that would otherwise start a job per CPU). One lock file per slot beyond the implicit one
   that every run holds: online CPUs - 1 of them. A slot is held by an flock() on its file,
   which the kernel drops when the run ends however it ends, so no slot is ever lost. */
#define _XOPEN_SOURCE 700
#include "pool.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static int *fds;   /* per slot: its lock file, opened here (-1: not yet) */
static int nslots; /* slots beyond the implicit one */
static int *held;  /* the slots held, in the order taken */
static int nheld;
static char *dir; /* the lock files' directory; NULL: no pool */

/* The slots' directory: $SHARD_SLOTS_DIR, else $XDG_RUNTIME_DIR/shard-slots, else
   /tmp/shard-slots-UID. */
static char *slots_dir(void) {
  const char *d = getenv("SHARD_SLOTS_DIR"), *run = getenv("XDG_RUNTIME_DIR");
  if (d && *d)
    return xstrdup(d);
  if (run && *run)
    return fmt("%s/shard-slots", run);
  return fmt("/tmp/shard-slots-%ld", (long)getuid());
}

/* Opens the machine's pool of job slots; returns 1 when it is usable (else -j applies; -v
   says why). */
int pool_open(int verbose) {
  char *d = slots_dir();
  struct stat st;
  if (mkdir(d, 0700) < 0 && errno != EEXIST) {
    if (verbose)
      note("no job slots shared with other shard runs: cannot create '%s': %s", d, strerror(errno));
    free(d);
    return 0;
  }
  if (lstat(d, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid()) {
    if (verbose)
      note("no job slots shared with other shard runs: '%s' is not a directory of this user", d);
    free(d);
    return 0;
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  dir = d;
  nslots = cpus > 1 ? (int)cpus - 1 : 0;
  fds = xmalloc((nslots + 1) * sizeof *fds);
  held = xmalloc((nslots + 1) * sizeof *held);
  for (int k = 0; k < nslots; k++)
    fds[k] = -1;
  if (verbose)
    note("no jobserver and no -j: %d job%s at once, shared with the other shard runs of this "
         "machine (%d slot%s in '%s')",
         nslots + 1, nslots ? "s" : "", nslots, nslots == 1 ? "" : "s", dir);
  return 1;
}

/* Whether the pool is in use. */
int pool_active(void) { return dir != NULL; }

/* Whether this run holds slot K. */
static int holds(int k) {
  for (int i = 0; i < nheld; i++)
    if (held[i] == k)
      return 1;
  return 0;
}

/* Takes one more slot if one is free now (never waits); returns 1 if it did. */
int pool_get(void) {
  for (int k = 0; dir && k < nslots; k++) {
    if (holds(k))
      continue;
    if (fds[k] < 0) {
      char *p = fmt("%s/%d", dir, k);
      fds[k] = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
      free(p);
      if (fds[k] < 0)
        continue;
    }
    if (flock(fds[k], LOCK_EX | LOCK_NB) == 0) {
      held[nheld++] = k;
      return 1;
    }
  }
  return 0;
}

/* Gives back the slot taken last. */
void pool_put(void) {
  if (nheld)
    flock(fds[held[--nheld]], LOCK_UN);
}

/* The number of slots held (besides the implicit one). */
int pool_held(void) { return nheld; }
