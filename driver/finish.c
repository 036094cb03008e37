/* finish: the link step's last passes over the linked object, once objcopy has written it: the
   shared locals' groups made private (elfgroup.c) and the unwind entries of the copies ld -r
   dropped removed (ehframe.c). The file is read once and written once, if either changed it;
   the threads executor runs the same two passes on its buffer (lib/threads.c). */
#include "finish.h"

#include "ehframe.h"
#include "elfgroup.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Runs both passes on the object file PATH with M's manifest; NULL, or why it could not. */
char *finish_file(const char *path, const struct manifest *m) {
  size_t size;
  char *data = read_file(path, &size);
  if (!data)
    return fmt("cannot read '%s': %s", path, strerror(errno));
  int changed;
  char *err = elfgroup_private(data, size, m, &changed);
  if (err) {
    char *e2 = fmt("'%s': %s", path, err);
    free(err), free(data);
    return e2;
  }
  size_t n = ehframe_prune(data, size);
  if (changed || n != size)
    err = rewrite_file(path, data, n);
  free(data);
  return err;
}
