/* opts: the pipeline description: its defaults, which come from the environment as much as
   from a front end. */
#define _XOPEN_SOURCE 700
#include "opts.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* clang's -mcmodel= names, in the order of libshard's enum shard_code_model from TINY. */
const char *const opts_code_models[OPTS_CODE_MODELS] = {"tiny", "small", "kernel", "medium",
                                                        "large"};

/* The position of code model NAME in opts_code_models plus one, or 0 for none of them. */
int opts_code_model(const char *name) {
  for (int i = 0; i < OPTS_CODE_MODELS; i++)
    if (!strcmp(name, opts_code_models[i]))
      return i + 1;
  return 0;
}

/* Fills O with the defaults: as many jobs as online CPUs, -O2, a 2 GiB cache, the executor
   pipeline_run picks, the tools of $SHARD_LLVM_BINDIR (else the LLVM built against) and the
   allocator $SHARD_MALLOC names. */
void opts_init(struct opts *o) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  *o = (struct opts){.jobs = cpus > 0 ? (int)cpus : 1,
                     .olevel = 2,
                     .cache_size = OPTS_CACHE_SIZE,
                     .executor = EXEC_AUTO};
  o->malloc_arg = getenv("SHARD_MALLOC");
  o->bindir = getenv("SHARD_LLVM_BINDIR");
  if (!o->bindir || !*o->bindir)
    o->bindir = SHARD_LLVM_BINDIR;
}

/* The default cache directory: $SHARD_CACHE_DIR, else $XDG_CACHE_HOME/shard/objects, else
   $HOME/.cache/shard/objects; NULL (no cache) when none of them is set. */
static const char *default_cache(void) {
  const char *d = getenv("SHARD_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
  if (d && *d)
    return d;
  if (x && *x == '/')
    return fmt("%s/shard/objects", x);
  if (h && *h)
    return fmt("%s/.cache/shard/objects", h);
  return NULL;
}

/* Settles the cache directory once the front end has read its options: none when turned
   OFF, with --emit-ninja, or (unless a directory was GIVEN) with $SHARD_NO_CACHE set to
   anything but "" or "0"; else the given directory or the default one. */
void opts_cache(struct opts *o, int given, int off) {
  const char *env = getenv("SHARD_NO_CACHE");
  if (off || o->ninja || (!given && env && strcmp(env, "") && strcmp(env, "0")))
    o->cache_dir = NULL;
  else if (!given)
    o->cache_dir = default_cache();
}

/* Whether the split simplifies what shards share (--presimplify; -O0 simplifies nothing). */
int opts_presimplifies(const struct opts *o) { return o->presimplify && o->olevel > 0; }

/* Whether the shard compiles load the plugin (clang -fpass-plugin), for the skips of the
   functions the split presimplified or marked for the inliner's walk: at -O1 and up. */
int opts_compile_plugin(const struct opts *o) { return o->olevel > 0; }

/* The IR-level profile the split applies (--profile-use, the launcher's -fprofile-use=), or
   NULL: none, or -O0, whose pipeline applies none. */
const char *opts_profile(const struct opts *o) { return o->olevel > 0 ? o->profile_use : NULL; }

/* Whether compiler argument ARG asks for a profile's use (-fprofile-use[=P],
   -fprofile-instr-use[=P]). */
int opts_profile_flag(const char *arg) {
  return !strncmp(arg, "-fprofile-use", 13) || !strncmp(arg, "-fprofile-instr-use", 19);
}

/* The raw profile that the IR-level instrumentation the split applies (the launcher's
   -fprofile-generate[=DIR]) has the program write, or NULL: none, or -O0. */
const char *opts_profile_gen(const struct opts *o) { return o->olevel > 0 ? o->profile_gen : NULL; }

/* Whether compiler argument ARG asks for IR-level instrumentation or sets how its counters
   are updated (-fprofile-generate[=DIR], -fprofile-update=). */
int opts_profile_gen_flag(const char *arg) {
  return !strcmp(arg, "-fprofile-generate") || !strncmp(arg, "-fprofile-generate=", 19) ||
         !strncmp(arg, "-fprofile-update=", 17);
}
