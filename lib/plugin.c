/* plugin: loads the plugin the command line runs under opt (ShardPlugin.so next to this
   library, as the driver finds it next to itself) for the in-process split. */
#define _GNU_SOURCE
#include "threads.h"

#include <llvm-c/Core.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* Makes the libLLVM this library uses global: the plugin, like opt's, takes LLVM's symbols
   from the process, and a host (the driver among them) may have loaded libshard, and with
   it libLLVM, RTLD_LOCAL. */
static void llvm_global(void) {
  Dl_info info;
  if (dladdr((void *)&LLVMContextCreate, &info) && info.dli_fname)
    dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
}

/* The split entry point of the plugin at PATH, loaded once for the process and never
   unloaded (clang's -fpass-plugin finds it loaded); NULL with *ERROR set. */
shard_plugin_split_fn plugin_split_fn(const char *path, char **error) {
  pthread_mutex_lock(&mu);
  llvm_global();
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  shard_plugin_split_fn fn = h ? (shard_plugin_split_fn)dlsym(h, SHARD_PLUGIN_SPLIT_SYMBOL) : NULL;
  if (!fn)
    *error = lib_msg("shard: error: cannot load the plugin '%s': %s", path, dlerror());
  pthread_mutex_unlock(&mu);
  return fn;
}
