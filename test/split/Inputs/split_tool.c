/* split_tool.c: the test host of the plugin's in-process split (test/split/in-process.test).
 *
 *   split-tool [-j] [--stop-after=N] [--claim-all] PLUGIN (INPUT.bc PASSES OUTDIR)...
 *
 * dlopens PLUGIN, and for each job reads INPUT.bc in a context of its own with the LLVM-C
 * API and calls shard_plugin_split_v2 with PASSES; writes what the sink gets to OUTDIR (made
 * if missing) as the command line's files (manifest, shard.K.bc) plus OUTDIR/order, the
 * notify protocol's lines ("manifest", then each K as it came). -j runs the jobs at once, a
 * thread each. --stop-after=N: the sink stops the split after taking N files. --claim-all:
 * the sink claims every shard for the job's part (else it has no claim callback). A failing job
 * prints its error and the others go on; the status is 1 if one failed. */
#include "shard-plugin.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct job {
  const char *input, *passes, *outdir;
  int taken; /* files the sink took */
  int failed;
  char *error;
  FILE *order;
};

static shard_plugin_split_fn split;
static int stop_after = -1, claim_all;

/* Writes SIZE bytes of DATA to OUTDIR/NAME; nonzero on failure. */
static int write_file(const struct job *j, const char *name, const char *data, size_t size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", j->outdir, name);
  FILE *f = fopen(path, "wb");
  if (!f)
    return 1;
  int bad = fwrite(data, 1, size, f) != size;
  return fclose(f) != 0 || bad;
}

/* Whether the sink refuses the next file (--stop-after). */
static int stopping(struct job *j) { return stop_after >= 0 && j->taken >= stop_after; }

/* The sink's manifest callback. */
static int on_manifest(void *user, const char *text, size_t size) {
  struct job *j = user;
  if (stopping(j))
    return 1;
  j->taken++;
  fprintf(j->order, "manifest\n");
  return write_file(j, "manifest", text, size);
}

/* The sink's shard callback: owns BC. */
static int on_shard(void *user, int k, char *bc, size_t size) {
  struct job *j = user;
  int rc = 1;
  if (!stopping(j)) {
    char name[64];
    snprintf(name, sizeof name, "shard.%d.bc", k);
    j->taken++;
    fprintf(j->order, "%d\n", k);
    rc = write_file(j, name, bc, size);
  }
  free(bc);
  return rc;
}

/* The sink's claim callback (--claim-all): every shard is the part's. */
static int on_claim(void *user, int k) {
  (void)user, (void)k;
  return 1;
}

/* Reads the job's module in a context of its own and splits it; the context goes after. */
static void *run_job(void *arg) {
  struct job *j = arg;
  char *msg = NULL, path[4096];
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef buf;
  LLVMModuleRef m;
  j->failed = 1;
  snprintf(path, sizeof path, "%s/order", j->outdir);
  if (mkdir(j->outdir, 0777) != 0 && errno != EEXIST) {
    j->error = strdup("cannot make the output directory");
  } else if (!(j->order = fopen(path, "w"))) {
    j->error = strdup("cannot write the order file");
  } else if (LLVMCreateMemoryBufferWithContentsOfFile(j->input, &buf, &msg)) {
    j->error = msg;
  } else if (LLVMParseBitcodeInContext2(ctx, buf, &m)) {
    j->error = strdup("cannot read the bitcode");
    LLVMDisposeMemoryBuffer(buf);
  } else {
    struct shard_plugin_sink sink = {j, on_manifest, on_shard, claim_all ? on_claim : NULL};
    j->failed = split(m, j->passes, &sink, &j->error) != 0;
    /* Whatever happened, the host's module is still one it can verify and dispose of. */
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
      fprintf(stderr, "split-tool: %s: the module is broken after the split: %s\n", j->input, msg);
      j->failed = 1;
    }
    LLVMDisposeMessage(msg);
    LLVMDisposeModule(m);
    LLVMDisposeMemoryBuffer(buf);
  }
  if (j->order)
    fclose(j->order);
  LLVMContextDispose(ctx);
  return NULL;
}

int main(int argc, char **argv) {
  int threads = 0, a = 1;
  for (; a < argc && argv[a][0] == '-'; a++)
    if (!strcmp(argv[a], "-j"))
      threads = 1;
    else if (!strncmp(argv[a], "--stop-after=", 13))
      stop_after = atoi(argv[a] + 13);
    else if (!strcmp(argv[a], "--claim-all"))
      claim_all = 1;
  if (argc - a < 4 || (argc - a - 1) % 3) {
    fprintf(stderr, "usage: split-tool [-j] [--stop-after=N] [--claim-all] PLUGIN (INPUT.bc PASSES "
                    "OUTDIR)...\n");
    return 2;
  }
  void *plugin = dlopen(argv[a], RTLD_NOW | RTLD_LOCAL);
  if (!plugin || !(split = (shard_plugin_split_fn)dlsym(plugin, SHARD_PLUGIN_SPLIT_SYMBOL))) {
    fprintf(stderr, "split-tool: %s\n", dlerror());
    return 2;
  }
  int n = (argc - a - 1) / 3, failed = 0;
  struct job *jobs = calloc(n, sizeof *jobs);
  pthread_t *tids = calloc(n, sizeof *tids);
  for (int i = 0; i < n; i++) {
    jobs[i].input = argv[a + 1 + 3 * i];
    jobs[i].passes = argv[a + 2 + 3 * i];
    jobs[i].outdir = argv[a + 3 + 3 * i];
    if (!threads)
      run_job(&jobs[i]);
    else if (pthread_create(&tids[i], NULL, run_job, &jobs[i]) != 0)
      return 2;
  }
  for (int i = 0; i < n; i++) {
    if (threads)
      pthread_join(tids[i], NULL);
    if (jobs[i].failed)
      printf("split-tool: %s: error: %s\n", jobs[i].input, jobs[i].error ? jobs[i].error : "?");
    else
      printf("split-tool: %s: %d files\n", jobs[i].input, jobs[i].taken);
    failed |= jobs[i].failed;
    free(jobs[i].error);
  }
  free(tids);
  free(jobs);
  return failed;
}
