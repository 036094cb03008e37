/* shard.h: libshard, Shard's C API for hosts that build one huge LLVM module in their own
   process (compilers, runtimes, JITs): split it, compile the shards in parallel, link one
   relocatable ELF object, the same bytes as the `shard` command line gives for the same
   module and options (docs/library.md). Valid C11; link with -lshard (pkg-config shard, or
   CMake find_package(Shard CONFIG) and target Shard::shard). */
#ifndef SHARD_H
#define SHARD_H

#include <llvm-c/Types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHARD_API_VERSION 5

#ifndef SHARD_EXPORT
#if defined(__GNUC__)
#define SHARD_EXPORT __attribute__((visibility("default")))
#else
#define SHARD_EXPORT
#endif
#endif

/* Where the jobs run. */
enum shard_executor {
  SHARD_EXECUTOR_DEFAULT = 0, /* the library's default (docs/library.md) */
  SHARD_EXECUTOR_THREADS,     /* worker threads in the host process */
  SHARD_EXECUTOR_PROCESSES    /* child processes (the `shard` command line): a crash inside
                                 LLVM cannot take the host down */
};

/* Relocation model of the shard compiles, as clang -fno-pic / -fPIC / -fPIE -c -x ir (the
   command line's flags; SHARD_RELOC_DEFAULT: the one the module's PIC and PIE levels give).
   The module's dso_local marks still decide how each global is reached. */
enum shard_reloc { SHARD_RELOC_DEFAULT = 0, SHARD_RELOC_STATIC, SHARD_RELOC_PIC, SHARD_RELOC_PIE };

/* Code model of the shard compiles, as clang -mcmodel=NAME -c -x ir (the command line's
   -mcmodel=; SHARD_CODE_MODEL_DEFAULT: the target's, as clang -c -x ir, which does not read
   the module's "Code Model" flag). */
enum shard_code_model {
  SHARD_CODE_MODEL_DEFAULT = 0,
  SHARD_CODE_MODEL_TINY,
  SHARD_CODE_MODEL_SMALL,
  SHARD_CODE_MODEL_KERNEL,
  SHARD_CODE_MODEL_MEDIUM,
  SHARD_CODE_MODEL_LARGE
};

/* When the threads executor runs LLVM's verifier on the host's module (API version 4; the
   process executor checks it as the command line does, after the split, in its own process). */
enum shard_verify {
  SHARD_VERIFY_FIRST = 0,  /* before anything else, on the calling thread (the default) */
  SHARD_VERIFY_AFTER_SPLIT /* once the split has written the shards, while the first of them
                              compile (the `shard` command line's choice): the same error, with
                              no core idle meanwhile, but a module too broken for the split can
                              crash the host before the check. With mv_targets or a profile,
                              whose passes run before the split, the check comes first. */
};

/* Called on each shard's module in the worker thread that compiles it, before its
   optimisation pipeline: shard K of N, in that shard's own LLVMContext. Its definitions are
   the functions the shard owns; the functions it imports are available_externally. Returns
   0, or nonzero to fail the compile (with *error set to a malloc'ed message, or NULL). */
typedef int (*shard_module_fn)(LLVMModuleRef shard, int k, int n, void *user, char **error);

/* Takes one job slot from the host's pool, blocking until one is free: returns 0, or
   nonzero to cancel the compile (shard_compile then fails with "cancelled"). */
typedef int (*shard_acquire_fn)(void *user);
/* Gives back a slot taken with the acquire callback. */
typedef void (*shard_release_fn)(void *user);

/* Called as shard jobs start and end (threads executor): DONE of TOTAL compiled (TOTAL: the
   shards known so far less the cache hits), RUNNING at once now. Called with the build's lock
   held, one call at a time: it must return quickly and not call the library. */
typedef void (*shard_progress_fn)(int done, int total, int running, void *user);

/* How to build. shard_config_init fills the driver's defaults; a host sets what it needs.
   Strings are borrowed for the duration of the call. */
struct shard_config {
  int api_version;        /* SHARD_API_VERSION (shard_config_init sets it); a host built
                             against version 2 or 3 passes it, and only its fields are read */
  int jobs;               /* at most, within a make jobserver's tokens; 0: CPUs or all it grants */
  int shards;             /* number of shards; 0: automatic */
  int opt_level;          /* 0..3, as clang -O<l> -c (default 2) */
  const char *mv_targets; /* CPU multiversioning targets, comma-separated; NULL: none */
  const char *cache_dir;  /* shard and output cache directory; NULL: no cache */
  const char *report;     /* write the JSON report here; NULL: none */
  const char *time_trace; /* write a Chrome trace here; NULL: none */
  int presimplify;        /* simplify what shards share once, in the split */
  const char *keep_temps; /* work in this directory and keep its files; NULL: no files */
  /* The host's pipeline, per shard (threads executor): PassBuilder pipeline text (NULL:
     exactly clang's -O<l>), and a callback run on each shard module before it. */
  const char *pipeline;
  shard_module_fn module_fn;
  void *module_user;
  /* Target machine (NULL / DEFAULT: the module's). CPU and features apply to every
     function that does not carry its own target-cpu / target-features attribute. */
  const char *cpu;
  const char *features;
  enum shard_reloc reloc;
  enum shard_code_model code_model;
  /* The host's job slots: when both are set, every job runs holding one (the host's pool
     decides how many run at once; jobs is then the most the library asks for). */
  shard_acquire_fn acquire;
  shard_release_fn release;
  void *slot_user;
  enum shard_executor executor;
  const char *llvm_bindir;    /* LLVM tools directory; NULL: the one Shard was built against */
  shard_progress_fn progress; /* NULL: none */
  void *progress_user;
  /* IR-level profiles (API version 3), at opt_level 1 to 3, applied by the split to the
     whole module (the shards are compiled without them), as clang -O<l> does with
     -fprofile-use=P or -fprofile-generate: */
  const char *profile_use;      /* an indexed IR-level profile (llvm-profdata merge of the
                                   instrumented program's); NULL: none; ignored at -O0 */
  const char *profile_generate; /* instrument the module: the raw profile the program writes
                                   (LLVM_PROFILE_FILE's patterns, such as
                                   DIR/default_%m.profraw); NULL: none */
  int profile_atomic;           /* its counters updated atomically (-fprofile-update=atomic) */
  enum shard_verify verify;     /* API version 4 */
  int split_parts; /* API version 5: the parts the split runs in, each with its own copy of
                      the module (threads: a thread each, holding a job slot); 0: automatic,
                      from jobs and opt_level (docs/library.md). The output is the same bytes
                      whatever the number. */
};

/* Fills C with the defaults of the `shard` command line: -O2, automatic shards, online CPUs,
   no cache, no files. */
SHARD_EXPORT void shard_config_init(struct shard_config *c);

/* Compiles module M (consumed, success or not, with its context left to the caller) into
   one relocatable ELF object. Returns 0 and sets *obj (free with LLVMDisposeMemoryBuffer),
   or returns nonzero and sets *error (free with shard_dispose_message). Safe to call on
   several host threads at once. */
SHARD_EXPORT int shard_compile(LLVMModuleRef m, const struct shard_config *c,
                               LLVMMemoryBufferRef *obj, char **error);

/* Compiles the .bc or .ll file INPUT into the object file OUTPUT (written completely or not
   at all). Returns 0, or nonzero with *error set. */
SHARD_EXPORT int shard_compile_file(const char *input, const char *output,
                                    const struct shard_config *c, char **error);

/* Frees a message the library returned. */
SHARD_EXPORT void shard_dispose_message(char *message);

#ifdef __cplusplus
}
#endif

#endif
