/* opts: command-line parsing. */
#ifndef SHARD_OPTS_H
#define SHARD_OPTS_H

struct opts {
  int jobs;                      /* -j: parallel shard jobs */
  int jobs_given;                /* -j was on the command line (else a jobserver decides) */
  unsigned long long max_mem;    /* --max-mem in bytes: predicted memory of running jobs; 0: none */
  int shards;                    /* --shards: 0 = let the plugin choose */
  int olevel;                    /* -O0..-O3 */
  int verbose;                   /* -v */
  const char *keep;              /* --keep-temps DIR, or NULL (FILE.d with --emit-ninja FILE) */
  const char *ninja;             /* --emit-ninja FILE, or NULL */
  const char *cache_dir;         /* the shard cache directory, or NULL when off (--no-cache) */
  unsigned long long cache_size; /* --cache-size in bytes (default 2 GiB) */
  const char *report;            /* --report FILE, or NULL */
  const char *trace;             /* --time-trace FILE, or NULL */
  char **launcher;               /* --launcher CMD split into words (NULL-terminated), or NULL */
  const char *bindir;            /* directory of opt, clang, ld.lld, llvm-objcopy */
  const char *plugin;            /* ShardPlugin.so */
  const char *malloc_lib;        /* --malloc: allocator preloaded into the LLVM tools, or NULL */
  char *mv_targets;              /* --mv-targets, ':'-separated for the pipeline text, or NULL */
  int presimplify;   /* --presimplify: simplify once what shards share (-O1..-O3 only) */
  const char *out;   /* -o */
  const char *input; /* the .bc or .ll module */
};

void opts_parse(struct opts *o, int argc, char **argv);

#endif
