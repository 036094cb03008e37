/* opts: the pipeline description, what a front end (the command line, cli.c; later the
   compiler launcher and the C library) hands to the pipeline: the input, the output and how
   to build it. Filling it probes nothing; preflight.c resolves and checks it. */
#ifndef SHARD_OPTS_H
#define SHARD_OPTS_H

#ifndef SHARD_LLVM_BINDIR
#define SHARD_LLVM_BINDIR "/usr/lib/llvm-22/bin"
#endif
#ifndef SHARD_LLVM_MAJOR
#define SHARD_LLVM_MAJOR 22
#endif
#define SHARD_VERSION "0.1.0"
#define SHARD_MAX_PARTS 64 /* --split-parts, libshard's split_parts */

/* --executor: what runs the shard compiles. */
enum executor {
  EXEC_PROCESSES, /* child processes on this machine (local.c) */
  EXEC_SLURM,     /* Slurm job steps through srun (slurm.c), scheduled by local.c */
  EXEC_THREADS,   /* libshard's threads executor in this process (inproc.c) */
  EXEC_AUTO,      /* the default: threads where they can run the build, else processes */
};

struct opts {
  int jobs;                      /* -j: parallel shard jobs */
  int jobs_given;                /* -j was on the command line (else a jobserver decides) */
  unsigned long long max_mem;    /* --max-mem in bytes: predicted memory of running jobs; 0: none */
  int shards;                    /* --shards: 0 = let the plugin choose */
  int split_parts;               /* --split-parts: 0 = job_split_parts() chooses */
  int olevel;                    /* -O0..-O3 */
  const char *reloc;             /* -fno-pic, -fPIC or -fPIE: the shard compiles' relocation
                                    model flag, or NULL: the one the module's flags give */
  const char *cmodel;            /* -mcmodel= of the shard compiles, or NULL: the target's */
  int verbose;                   /* -v */
  const char *keep;              /* --keep-temps DIR, or NULL (FILE.d with --emit-ninja FILE) */
  const char *work_root;         /* --work-dir DIR: the work directory is made in it, or NULL */
  const char *ninja;             /* --emit-ninja FILE, or NULL */
  const char *cache_dir;         /* the shard cache directory, or NULL when off (--no-cache) */
  unsigned long long cache_size; /* --cache-size in bytes (default 2 GiB) */
  const char *report;            /* --report FILE, or NULL */
  const char *trace;             /* --time-trace FILE, or NULL */
  char **launcher;               /* --launcher CMD split into words (NULL-terminated), or NULL */
  enum executor executor;        /* --executor (default auto: pipeline_run picks one) */
  char **srun_args;              /* --srun-args (else $SHARD_SRUN_ARGS) split into words, or NULL */
  const char *srun;              /* srun's path (preflight), with --executor slurm */
  const char *bindir;            /* directory of opt, clang, ld.lld, llvm-objcopy */
  const char *plugin;            /* ShardPlugin.so; NULL until preflight picks the default */
  const char *malloc_arg;        /* --malloc (else $SHARD_MALLOC): a path, auto, none; or NULL */
  const char *malloc_lib;  /* the allocator preloaded into the LLVM tools (preflight), or NULL */
  char *mv_targets;        /* --mv-targets, ':'-separated for the pipeline text, or NULL */
  int presimplify;         /* --presimplify: simplify once what shards share (-O1..-O3 only) */
  const char *profile_use; /* an IR-level profile the split applies to the whole module
                              (shard-profile-use), or NULL; the shard compiles go without it */
  const char *profile_gen; /* the raw profile (clang's default_%m.profraw) of the IR-level
                              instrumentation the split applies (shard-profile-gen), or NULL;
                              the shard compiles go without it */
  int profile_atomic;      /* its counters updated atomically (-fprofile-update=atomic) */
  const char *out;         /* -o */
  const char *input;       /* the .bc or .ll module (launcher: DIR/input.bc, the front end's) */
  /* Compiler launcher (launcher.c): the front end writes the input, the user's compiler
     compiles the shards. NULL in the other front ends. */
  const char *source;           /* the source as the compiler's command names it */
  char **frontend;              /* the front-end step's argv without "-o FILE" (NULL-terminated) */
  char **compile_cmd;           /* the compile command template: the user's compiler and the flags
                                   each shard compile gets before "-c -x ir BC -o OBJ"; NULL: the
                                   tools directory's clang, -O<l> and the manifest's target */
  unsigned long long split_min; /* input below this many bytes of bitcode: one compile of it
                                   with compile_cmd, no split (0: always split) */
  int one_shard_input;          /* when the plan has one shard, stop the split and compile the
                                   input with compile_cmd (the compiler's own bytes) */
  const char *compress_debug;   /* the link compresses the debug sections so (zlib, zstd), as
                                   the compiler's -gz asks; NULL: it does not */
};

#define OPTS_CACHE_SIZE (2ULL << 30) /* --cache-size's default */
#define OPTS_CODE_MODELS 5
extern const char *const opts_code_models[OPTS_CODE_MODELS];
int opts_code_model(const char *name);

void opts_init(struct opts *o);
void opts_cache(struct opts *o, int given, int off);
int opts_presimplifies(const struct opts *o);
int opts_compile_plugin(const struct opts *o);
const char *opts_profile(const struct opts *o);
int opts_profile_flag(const char *arg);
const char *opts_profile_gen(const struct opts *o);
int opts_profile_gen_flag(const char *arg);

#endif
