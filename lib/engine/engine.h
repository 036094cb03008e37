/* engine: the shard compile and the link of the driver (driver/cmd.c, driver/job.c) run inside
   the host process, on memory buffers, byte for byte what the tools write.

   shard_engine_compile is `clang ARGV` (the argv cmd_compile builds, without launcher words:
   argv[0] is the compiler, "-c -x ir IN -o OUT" among the arguments) on the bitcode in a
   buffer: clang's driver builds the cc1 arguments in process, CompilerInvocation parses them,
   and clang's backend (clang::emitBackendOutput) writes the object into memory. Each call has
   its own LLVMContext and CompilerInstance: calls may run at once on several threads.
   IN names the module in messages and is not read; OUT is not written.

   shard_engine_link is `ld.lld -r OBJS -o linked.o` (only with two objects or more), then
   `llvm-objcopy` with the options that give the promoted symbols back their local names
   (cmd_syms): lld's ELF driver as a library (serialised: lld is not re-entrant) and LLVM's
   objcopy library.

   Errors: every function returns 0 on success, nonzero on failure, and sets *log (when LOG is
   not NULL) to what the tool would have printed (warnings on success, the error on failure;
   NULL when nothing), to be freed with shard_engine_free. Nothing is printed to stderr unless
   SHARD_ENGINE_VERBOSE is set. The engine never exits the host for a bad input, target or
   option; the first call installs LLVM's process-wide fatal error handler, which turns a fatal
   error inside an engine call into a failed call. What threads cannot contain: a crash
   (SIGSEGV) or an assertion inside LLVM, and an out-of-memory abort; hosts that need isolation
   use the process executor.

   -mllvm options are process-global (LLVM's cl::opt): they are applied by the first compile
   that has any, and every later compile must then pass the same ones (else it fails). */
#ifndef SHARD_ENGINE_H
#define SHARD_ENGINE_H

#include <llvm-c/Types.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An object in memory, allocated with malloc (free with shard_engine_free(buf.data)). */
struct shard_engine_buf {
  char *data;
  size_t size;
};

/* A host hook on the shard's module before clang's pipeline and code generation; nonzero
   fails the compile. */
typedef int (*shard_engine_hook)(LLVMModuleRef module, void *user);

/* How to compile: the shard-compile argv, and the host's optional hook and pipeline. */
struct shard_engine_compile_opts {
  const char *const *argv; /* argv[0] the compiler, as cmd_compile builds it */
  int argc;
  const char *pipeline;   /* NULL: clang's -O<l> pipeline; "": none; else PassBuilder text */
  shard_engine_hook hook; /* NULL: none */
  void *user;             /* passed to hook */
  int trusted;            /* BC is a shard Shard's split wrote: no verifier run on it, as
                             none runs on a module clang's front end makes (clang verifies
                             an IR input); after a hook, the module is verified still */
};

/* One promoted symbol of the manifest: NAME is localized, and renamed to OLD when not NULL. */
struct shard_engine_promo {
  const char *name;
  const char *old;
};

/* Compiles the bitcode BC (SIZE bytes) as O says into the ELF object *OBJ. */
int shard_engine_compile(const struct shard_engine_compile_opts *o, const char *bc, size_t size,
                         struct shard_engine_buf *obj, char **log);

/* Links the N objects OBJS (named NAMES in messages) into *OUT: ld.lld -r when N > 1, then the
   objcopy that restores the NPROMOS promoted symbols PROMOS. */
int shard_engine_link(const struct shard_engine_buf *objs, const char *const *names, size_t n,
                      const struct shard_engine_promo *promos, size_t npromos,
                      struct shard_engine_buf *out, char **log);

/* NULL when this LLVM generates code for TRIPLE; else why not (free with shard_engine_free). */
char *shard_engine_target_error(const char *triple);

/* Frees what the engine allocated (a log, a buffer's data). */
void shard_engine_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
