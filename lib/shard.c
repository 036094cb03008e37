/* shard: the public entry points of libshard: checks the configuration, prepares the host's
   module and hands it to an executor. */
#define _GNU_SOURCE
#include "threads.h"
#include "util.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Fills C with the command line's defaults. */
void shard_config_init(struct shard_config *c) {
  memset(c, 0, sizeof *c);
  c->api_version = SHARD_API_VERSION;
  c->opt_level = 2;
}

/* Frees a message of the library. */
void shard_dispose_message(char *message) { free(message); }

/* Whether C runs the threads executor. */
static int threads(const struct shard_config *c) { return c->executor == SHARD_EXECUTOR_THREADS; }

/* Writes the SIZE bytes of DATA into OUTPUT completely or not at all (a temporary file next
   to it, renamed; into OUTPUT itself where it is no regular file, such as /dev/null, which
   clang writes into too); 0, or 1 with *ERROR set. */
static int write_output(const char *output, const char *data, size_t size, char **error) {
  static unsigned long seq; /* names the temporary files of this process's calls apart */
  if (special_file(output)) {
    int fd = open(output, O_WRONLY | O_CLOEXEC);
    int bad = fd < 0 || write_all(fd, data, size) < 0, e = errno;
    if (fd >= 0 && close(fd) < 0 && !bad)
      bad = 1, e = errno;
    if (bad)
      *error = lib_msg("shard: error: cannot write '%s': %s", output, strerror(e));
    return bad;
  }
  char *tmp = lib_msg("%s.tmp.%ld.%lu", output, (long)getpid(), __atomic_add_fetch(&seq, 1, 0));
  int fd = tmp ? open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666) : -1;
  size_t done = 0;
  for (ssize_t w = 0; fd >= 0 && done < size && (w = write(fd, data + done, size - done)) > 0;)
    done += (size_t)w;
  int bad = fd < 0 || done < size;
  if (fd >= 0)
    bad |= close(fd) < 0;
  if (bad || rename(tmp, output) < 0) {
    *error = lib_msg("shard: error: cannot write '%s': %s", output, strerror(errno));
    if (fd >= 0)
      unlink(tmp);
    bad = 1;
  }
  free(tmp);
  return bad;
}

/* Reads the module file INPUT into context CTX (*M); with KEEP, also its bytes (*DATA, *SIZE,
   for the cache key and phase 1's parts: the parser takes the buffer). 0, or 1 with *ERROR set. */
static int read_module(const char *input, LLVMContextRef ctx, int keep, LLVMModuleRef *m,
                       char **data, size_t *size, char **error) {
  LLVMMemoryBufferRef buf;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(input, &buf, &msg)) {
    *error = lib_msg("shard: error: cannot read '%s': %s", input, msg);
    LLVMDisposeMessage(msg);
    return 1;
  }
  *size = LLVMGetBufferSize(buf);
  *data = keep ? malloc(*size ? *size : 1) : NULL;
  if (*data)
    memcpy(*data, LLVMGetBufferStart(buf), *size);
  if (LLVMParseIRInContext(ctx, buf, m, &msg)) { /* takes BUF */
    *error = lib_msg("shard: error: cannot read the module '%s': %s", input, msg);
    LLVMDisposeMessage(msg);
    free(*data);
    *data = NULL;
    return 1;
  }
  return 0;
}

/* The process executor on module M (consumed), written as bitcode to a private temporary
   directory: into OUTPUT, or when OUTPUT is NULL into *OBJ. */
static int process_module(LLVMModuleRef m, const char *output, const struct shard_config *c,
                          LLVMMemoryBufferRef *obj, char **error) {
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
  else if (!(rc = process_compile_file(in, output ? output : out, c, error)) && !output) {
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

/* The module file INPUT read into a context of its own and given C's target options, then
   compiled by the threads executor, or written again for the process executor's driver. */
static int compile_read_file(const char *input, const char *output, const struct shard_config *c,
                             char **error) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m;
  char *data = NULL;
  size_t size = 0;
  int rc = 1;
  struct shard_engine_buf obj = {0};
  if (read_module(input, ctx, threads(c), &m, &data, &size, error)) {
  } else if (lib_prepare_module(m, c, error)) {
    LLVMDisposeModule(m);
  } else if (!threads(c)) {
    rc = process_module(m, output, c, NULL, error);
  } else if (!threads_compile(m, input, data, size, c, &obj, error)) {
    rc = write_output(output, obj.data, obj.size, error);
    shard_engine_free(obj.data);
  }
  LLVMContextDispose(ctx);
  free(data);
  return rc;
}

/* Compiles the module file INPUT into OUTPUT. */
int shard_compile_file(const char *input, const char *output, const struct shard_config *c,
                       char **error) {
  *error = NULL;
  if (!input || !output) {
    *error = lib_msg("shard_compile_file: no %s file", input ? "output" : "input");
    return 1;
  }
  struct shard_config full;
  if (lib_check_config(c, &full, error))
    return 1;
  c = &full;
  if (threads(c) || c->cpu || c->features) /* (the process executor's driver reads the file) */
    return compile_read_file(input, output, c, error);
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
  struct shard_config full;
  if (lib_check_config(c, &full, error) || lib_prepare_module(m, &full, error)) {
    LLVMDisposeModule(m);
    return 1;
  }
  c = &full;
  if (threads(c)) {
    size_t n;
    const char *id = LLVMGetModuleIdentifier(m, &n);
    char *name = lib_msg("%.*s", (int)n, id);
    struct shard_engine_buf o = {0};
    int rc = threads_compile(m, name, NULL, 0, c, &o, error);
    if (!rc) {
      *obj = LLVMCreateMemoryBufferWithMemoryRangeCopy(o.data, o.size, name);
      shard_engine_free(o.data);
    }
    free(name);
    return rc;
  }
  return process_module(m, NULL, c, obj, error);
}
