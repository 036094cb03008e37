/* internal: what the parts of libshard share: messages, the work directory, the executors. */
#ifndef SHARD_LIB_INTERNAL_H
#define SHARD_LIB_INTERNAL_H

#include "shard.h"

#include <stdarg.h>
#include <sys/types.h>

#define LIB_PRINTF(a, b) __attribute__((format(printf, a, b)))

LIB_PRINTF(1, 2) char *lib_msg(const char *fmt, ...);
char *lib_vmsg(const char *fmt, va_list ap);
char *lib_slurp_text(const char *path);
char *lib_tmpdir(char **error);
void lib_rmtree(const char *dir);
const char *lib_self_dir(void);
int lib_check_config(const struct shard_config *c, struct shard_config *full, char **error);
int lib_check_cache(const char *dir, char **error);
int lib_verify_late(const struct shard_config *c);
int lib_prepare_module(LLVMModuleRef m, const struct shard_config *c, char **error);
const char *lib_reloc_flag(const struct shard_config *c);
const char *lib_code_model(const struct shard_config *c);

/* The host's job slots bridged to a make jobserver that a child process reads (slots.c). */
struct lib_bridge;
struct lib_bridge *bridge_start(const struct shard_config *c, char **error);
void bridge_env(const struct lib_bridge *b, int *rfd, int *wfd, char **makeflags);
int bridge_child(struct lib_bridge *b, pid_t pid);
int bridge_stop(struct lib_bridge *b);

/* The process executor: the `shard` command line as a child process (process.c). */
int process_compile_file(const char *input, const char *output, const struct shard_config *c,
                         char **error);

#endif
