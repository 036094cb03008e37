/* shard: the public entry points of libshard: checks the configuration, prepares the host's
   module and hands it to an executor. */
#define _GNU_SOURCE
#include "internal.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>

#include <stdlib.h>
#include <string.h>

/* Fills C with the command line's defaults. */
void shard_config_init(struct shard_config *c) {
  memset(c, 0, sizeof *c);
  c->api_version = SHARD_API_VERSION;
  c->opt_level = 2;
}

/* Frees a message of the library. */
void shard_dispose_message(char *message) { free(message); }

/* Compiles the module file INPUT into OUTPUT. */
int shard_compile_file(const char *input, const char *output, const struct shard_config *c,
                       char **error) {
  *error = NULL;
  if (!input || !output) {
    *error = lib_msg("shard_compile_file: no %s file", input ? "output" : "input");
    return 1;
  }
  if (lib_check_config(c, error))
    return 1;
  return process_compile_file(input, output, c, error);
}

/* Compiles the host's module M (consumed) into *OBJ. */
int shard_compile(LLVMModuleRef m, const struct shard_config *c, LLVMMemoryBufferRef *obj,
                  char **error) {
  *error = NULL;
  *obj = NULL;
  if (!m) {
    *error = lib_msg("shard_compile: no module");
    return 1;
  }
  if (lib_check_config(c, error) || lib_prepare_module(m, c, error)) {
    LLVMDisposeModule(m);
    return 1;
  }
  char *dir = lib_tmpdir(error);
  if (!dir) {
    LLVMDisposeModule(m);
    return 1;
  }
  char *in = lib_msg("%s/input.bc", dir), *out = lib_msg("%s/output.o", dir);
  int bad = LLVMWriteBitcodeToFile(m, in);
  LLVMDisposeModule(m);
  int rc = 1;
  if (bad)
    *error = lib_msg("shard_compile: cannot write the module to '%s'", in);
  else if (!(rc = process_compile_file(in, out, c, error))) {
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(out, obj, &msg)) {
      *error = lib_msg("shard_compile: cannot read the object '%s': %s", out, msg);
      LLVMDisposeMessage(msg);
      rc = 1;
    }
  }
  lib_rmtree(dir);
  free(in);
  free(out);
  free(dir);
  return rc;
}
