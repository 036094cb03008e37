/* support: messages, files and checks shared by libshard's executors. */
#define _GNU_SOURCE
#include "internal.h"
#include "opts.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>

#include <dlfcn.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A new message formatted like vprintf (NULL only when out of memory). */
char *lib_vmsg(const char *fmt, va_list ap) {
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0)
    return NULL;
  return s;
}

/* A new message formatted like printf. */
char *lib_msg(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = lib_vmsg(fmt, ap);
  va_end(ap);
  return s;
}

/* The text of file PATH without its trailing newlines (a new string), or NULL. */
char *lib_slurp_text(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  size_t n = 0, cap = 4096;
  char *s = malloc(cap);
  for (size_t r; s && (r = fread(s + n, 1, cap - 1 - n, f)) > 0;) {
    n += r;
    if (n == cap - 1) {
      char *t = realloc(s, cap *= 2);
      if (!t)
        free(s);
      s = t;
    }
  }
  fclose(f);
  if (!s)
    return NULL;
  while (n && s[n - 1] == '\n')
    n--;
  s[n] = 0;
  return s;
}

/* A new private directory under $TMPDIR (a new string), or NULL with *ERROR set. */
char *lib_tmpdir(char **error) {
  const char *t = getenv("TMPDIR");
  char *d = lib_msg("%s/libshard.XXXXXX", t && *t ? t : "/tmp");
  if (d && mkdtemp(d))
    return d;
  *error =
      lib_msg("cannot create a work directory in '%s': %s", t && *t ? t : "/tmp", strerror(errno));
  free(d);
  return NULL;
}

/* nftw callback: removes one entry, children first. */
static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)ftw;
  return flag == FTW_DP ? rmdir(p) : unlink(p);
}

/* Removes the tree DIR (like rm -rf). */
void lib_rmtree(const char *dir) { nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS); }

static char self_dir[PATH_MAX];
static pthread_once_t self_once = PTHREAD_ONCE_INIT;

/* Finds the directory this library was loaded from. */
static void find_self(void) {
  Dl_info info;
  if (dladdr((void *)&shard_config_init, &info) && info.dli_fname &&
      realpath(info.dli_fname, self_dir)) {
    char *slash = strrchr(self_dir, '/');
    if (slash)
      *slash = 0;
  }
}

/* The directory of libshard.so ("" when unknown): bin/shard and lib/ShardPlugin.so are
   found from it. */
const char *lib_self_dir(void) {
  pthread_once(&self_once, find_self);
  return self_dir;
}

/* The profile fields of C a host can get wrong: 0, or 1 with *ERROR set. */
static int check_profiles(const struct shard_config *c, char **error) {
  const char *use = c->opt_level ? c->profile_use : NULL, *gen = c->profile_generate;
  if (use && gen)
    *error = lib_msg("shard: a profile's use and instrumentation at once");
  else if (gen && !c->opt_level)
    *error = lib_msg("shard: instrumentation (profile_generate) needs opt_level 1 to 3");
  else if ((use && !*use) || (gen && !*gen))
    *error = lib_msg("shard: an empty profile path");
  else if ((use && strpbrk(use, ";,<>")) || (gen && strpbrk(gen, ";,<>")))
    *error = lib_msg("shard: the profile path '%s' holds one of ';,<>', which the pass text "
                     "cannot carry",
                     use && strpbrk(use, ";,<>") ? use : gen);
  else if (use && access(use, R_OK) < 0)
    *error = lib_msg("shard: cannot read the profile '%s': %s", use, strerror(errno));
  else
    return 0;
  return 1;
}

/* Checks the fields of C a host can get wrong and copies them into *FULL (an older
   version's configuration: the later fields the defaults); 0, or 1 with *ERROR set. */
int lib_check_config(const struct shard_config *c, struct shard_config *full, char **error) {
  /* The fields each version has: those of the versions before, then its own. */
  static const size_t ends[] = {[2] = offsetof(struct shard_config, profile_use),
                                [3] = offsetof(struct shard_config, verify),
                                [4] = offsetof(struct shard_config, split_parts),
                                [SHARD_API_VERSION] = sizeof(struct shard_config)};
  if (c && c->api_version >= 2 && c->api_version <= SHARD_API_VERSION) {
    shard_config_init(full);
    memcpy(full, c, ends[c->api_version]);
    c = full;
  }
  if (!c)
    *error = lib_msg("shard: no configuration (shard_config_init fills one)");
  else if (c != full)
    *error = lib_msg("shard: configuration of API version %d, this library is version %d "
                     "(call shard_config_init)",
                     c->api_version, SHARD_API_VERSION);
  else if (c->jobs < 0 || c->shards < 0)
    *error = lib_msg("shard: negative %s (%d)", c->jobs < 0 ? "jobs" : "shards",
                     c->jobs < 0 ? c->jobs : c->shards);
  else if (c->split_parts < 0 || c->split_parts > SHARD_MAX_PARTS)
    *error = lib_msg("shard: split_parts %d is not 0 to %d", c->split_parts, SHARD_MAX_PARTS);
  else if (c->opt_level < 0 || c->opt_level > 3)
    *error = lib_msg("shard: optimisation level %d is not 0 to 3", c->opt_level);
  else if ((unsigned)c->reloc > SHARD_RELOC_PIE)
    *error = lib_msg("shard: unknown relocation model %d", (int)c->reloc);
  else if ((unsigned)c->code_model > SHARD_CODE_MODEL_LARGE)
    *error = lib_msg("shard: unknown code model %d", (int)c->code_model);
  else if ((unsigned)c->executor > SHARD_EXECUTOR_PROCESSES)
    *error = lib_msg("shard: unknown executor %d", (int)c->executor);
  else if ((unsigned)c->verify > SHARD_VERIFY_AFTER_SPLIT)
    *error = lib_msg("shard: unknown verify mode %d", (int)c->verify);
  else if (!c->acquire != !c->release)
    *error = lib_msg("shard: the job-slot callbacks come in pairs (acquire and release)");
  else if (c->executor != SHARD_EXECUTOR_THREADS && (c->pipeline || c->module_fn))
    *error = lib_msg("shard: a pipeline text or a module callback needs the threads executor");
  else if (check_profiles(c, error) || (c->cache_dir && lib_check_cache(c->cache_dir, error)))
    return 1;
  else
    return 0;
  return 1;
}

/* Creates the cache directory DIR when missing; 0 when it is usable, else 1 with *ERROR
   set (a host that asks for a cache is told, where the command line warns). */
int lib_check_cache(const char *dir, char **error) {
  char *p = lib_msg("%s", dir);
  for (char *s = p + 1; p && *s; s++)
    if (*s == '/') {
      *s = 0;
      mkdir(p, 0777);
      *s = '/';
    }
  if (p)
    mkdir(p, 0777);
  free(p);
  struct stat st;
  if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0)
    return 0;
  *error = lib_msg("shard: cache directory '%s' is not usable (%s)", dir,
                   strerror(errno ? errno : ENOTDIR));
  return 1;
}

/* Sets string attribute KEY=VALUE on every function definition of M that has none. */
static void default_attr(LLVMModuleRef m, const char *key, const char *value) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  unsigned klen = strlen(key);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) ||
        LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, key, klen))
      continue;
    LLVMAddAttributeAtIndex(
        f, LLVMAttributeFunctionIndex,
        LLVMCreateStringAttribute(ctx, key, klen, value, (unsigned)strlen(value)));
  }
}

/* Whether C has the split verify the module once it has written the shards (no pass
   before the split changes the module). */
int lib_verify_late(const struct shard_config *c) {
  return c->executor == SHARD_EXECUTOR_THREADS && c->verify == SHARD_VERIFY_AFTER_SPLIT &&
         !c->mv_targets && !c->profile_use && !c->profile_generate;
}

/* Verifies the host's module M (unless the split will) and applies C's CPU and features to
   it, as its functions' attributes; 0, or 1 with *ERROR set. */
int lib_prepare_module(LLVMModuleRef m, const struct shard_config *c, char **error) {
  char *msg = NULL;
  if (!lib_verify_late(c) && LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
    size_t n;
    const char *id = LLVMGetModuleIdentifier(m, &n);
    while (msg && *msg && msg[strlen(msg) - 1] == '\n')
      msg[strlen(msg) - 1] = 0;
    *error = lib_msg("shard: module '%.*s' is broken: %s", (int)n, id, msg ? msg : "");
    LLVMDisposeMessage(msg);
    return 1;
  }
  LLVMDisposeMessage(msg);
  if (c->cpu)
    default_attr(m, "target-cpu", c->cpu);
  if (c->features)
    default_attr(m, "target-features", c->features);
  return 0;
}

/* The shard compiles' relocation model flag for C's reloc (the command line's -fno-pic,
   -fPIC, -fPIE), or NULL: the module's. */
const char *lib_reloc_flag(const struct shard_config *c) {
  static const char *const flags[] = {NULL, "-fno-pic", "-fPIC", "-fPIE"};
  return flags[c->reloc];
}

/* The shard compiles' -mcmodel= value for C's code model, or NULL: the target's. */
const char *lib_code_model(const struct shard_config *c) {
  return c->code_model ? opts_code_models[c->code_model - SHARD_CODE_MODEL_TINY] : NULL;
}
