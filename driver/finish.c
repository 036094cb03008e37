/* finish: the link step's last passes over the linked object, once objcopy has written it: the
   shared locals' groups made private (elfgroup.c) and the unwind entries of the copies ld -r
   dropped removed (ehframe.c): on the threads executor's buffer (lib/threads.c), or on the file
   the driver's link and the Ninja edge write, read once and written once if either changed it. */
#include "finish.h"

#include "ehframe.h"
#include "elfgroup.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Runs both passes on the *SIZE bytes of object DATA with M's manifest, in place (*SIZE may
   shrink); NULL, or why DATA is not an object they can read. Sets *CHANGED. */
static char *finish(char *data, size_t *size, const struct manifest *m, int *changed) {
  char *err = elfgroup_private(data, *size, m, changed);
  if (err)
    return err;
  size_t n = ehframe_prune(data, *size);
  *changed |= n != *size;
  *size = n;
  return NULL;
}

/* finish on a buffer. */
char *finish_buffer(char *data, size_t *size, const struct manifest *m) {
  int changed;
  return finish(data, size, m, &changed);
}

/* finish on the object file PATH, rewritten when it changes; NULL, or why it could not. */
char *finish_file(const char *path, const struct manifest *m) {
  size_t size;
  char *data = read_file(path, &size);
  if (!data)
    return fmt("cannot read '%s': %s", path, strerror(errno));
  int changed;
  char *err = finish(data, &size, m, &changed);
  if (err) {
    char *e2 = fmt("'%s': %s", path, err);
    free(err), free(data);
    return e2;
  }
  if (changed)
    err = rewrite_file(path, data, size);
  free(data);
  return err;
}
