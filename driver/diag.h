/* diag: the backend diagnostics of the launcher's compiles (the shards' logs, the one compile's)
   on shard's stderr, once each, in the compiler's own form. */
#ifndef SHARD_DIAG_H
#define SHARD_DIAG_H

#include "util.h"

/* How the compiler's flags treat a group of warnings. */
enum diag_level { DIAG_IGNORED, DIAG_WARNING, DIAG_ERROR };

enum diag_level diag_plugin_level(char *const *argv);
void diag_colors(char *const *argv);
int diag_colored(void);
void diag_frontend(const char *log);
void diag_source(const char *module, const char *source);
void diag_rename(const char *new, const char *old);
void diag_add_file(const char *log);
void diag_add_split(const char *log, enum diag_level level);
int diag_flush(const char *copy);

#endif
