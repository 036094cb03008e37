/* workdir: the work directory (temporary, or --keep-temps DIR) and the temporary outputs,
   removed at exit unless kept or published. */
#ifndef SHARD_WORKDIR_H
#define SHARD_WORKDIR_H

#include "opts.h"

void work_init(const struct opts *o);
const char *work_dir(void);
char *work_path(const char *name);
char *work_tmp_name(const char *path);
int work_publish(const char *tmp, const char *out);
void work_set_tmpout(const char *path);
void work_cleanup(void);

#endif
