/* splitpart: times, in process, what one part of the threads executor's phase 1 does besides
   writing shards (lib/plugin.c), for bench/scaling.sh's threads model. Reads INPUT with the
   LLVM-C API, then times: writing it as bitcode (once per call, for the parts but 0), parsing
   that bitcode into a context of its own (each part but 0), the plugin's in-process split of
   part 0 of 8 (the plan and the manifest, no shard) on the module as read with the verifier
   (part 0) and on the parsed copy without (the other parts), disposing of the copy, and LLVM's
   verifier on the copy alone (what part 0 does after its manifest: SHARD_VERIFY_AFTER_SPLIT).
     splitpart PLUGIN SHARDS INPUT   prints: WRITE PARSE PLAN PLAN_NO_VERIFY DISPOSE VERIFY
                                     (seconds) */
#define _GNU_SOURCE
#include "shard-plugin.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Prints MSG and ends the program. */
__attribute__((noreturn)) static void die(const char *what, const char *msg) {
  fprintf(stderr, "splitpart: %s: %s\n", what, msg ? msg : "");
  exit(1);
}

/* The sink: the manifest is dropped (part 0 of 8 writes no shard). */
static int got_manifest(void *user, const char *text, size_t size) {
  (void)user, (void)text, (void)size;
  return 0;
}

/* A shard (none comes): dropped. */
static int got_shard(void *user, int k, char *bc, size_t size) {
  (void)user, (void)k, (void)size;
  free(bc);
  return 0;
}

/* Seconds that the split FN of M with PASSES takes. */
static double split(shard_plugin_split_fn fn, LLVMModuleRef m, const char *passes) {
  struct shard_plugin_sink sink = {NULL, got_manifest, got_shard};
  char *err = NULL;
  double t0 = now();
  if (fn(m, passes, &sink, &err))
    die("split", err);
  return now() - t0;
}

int main(int argc, char **argv) {
  if (argc != 4)
    die("usage", "splitpart PLUGIN SHARDS INPUT");
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  shard_plugin_split_fn fn = h ? (shard_plugin_split_fn)dlsym(h, SHARD_PLUGIN_SPLIT_SYMBOL) : NULL;
  if (!fn)
    die(argv[1], dlerror());
  LLVMMemoryBufferRef buf;
  LLVMModuleRef m, copy;
  char *msg = NULL;
  LLVMContextRef ctx = LLVMContextCreate(), ctx2 = LLVMContextCreate();
  if (LLVMCreateMemoryBufferWithContentsOfFile(argv[3], &buf, &msg) ||
      LLVMParseIRInContext(ctx, buf, &m, &msg))
    die(argv[3], msg);
  double t0 = now();
  LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(m);
  double t1 = now();
  if (LLVMParseBitcodeInContext2(ctx2, bc, &copy))
    die(argv[3], "cannot read its bitcode back");
  double t2 = now();
  if (LLVMVerifyModule(copy, LLVMReturnStatusAction, &msg))
    die(argv[3], msg);
  double verify = now() - t2;
  char passes[256];
  snprintf(passes, sizeof passes,
           "shard-cost,shard-partition<shards=%s>,shard-split<memory;parts=8;part=0%s>", argv[2],
           ";verify");
  double plan = split(fn, m, passes);
  snprintf(passes, sizeof passes,
           "shard-cost,shard-partition<shards=%s>,shard-split<memory;parts=8;part=0%s>", argv[2],
           "");
  double plannv = split(fn, copy, passes);
  double t3 = now();
  LLVMDisposeModule(copy);
  LLVMContextDispose(ctx2);
  double dispose = now() - t3;
  printf("%.3f %.3f %.3f %.3f %.3f %.3f\n", t1 - t0, t2 - t1, plan, plannv, dispose, verify);
  LLVMDisposeMemoryBuffer(bc);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  return 0;
}
