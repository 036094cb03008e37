/* host.c: a libshard host for the tests, in C. Reads a module with the LLVM-C API and
   compiles it with shard_compile; after a failure it compiles IN once more into the last
   file named (without the cache and the cancel), to show that the host goes on: the exit
   status is that compile's. Usage:
     host [OPTIONS] compile IN OUT       one compile
     host [OPTIONS] file IN OUT          one compile with shard_compile_file
     host [OPTIONS] two IN OUT1 OUT2     two compiles at once, on two threads
     host [OPTIONS] broken IN OUT        a broken module (built with LLVM-C)
     host [OPTIONS] retarget T IN OUT    IN with its triple set to T
     host [OPTIONS] repeat N IN OUT      N compiles one after another, each in a new context;
                                         prints how much the heap in use grew after the first
   Options: --shards N, -j N, --cache DIR, --report FILE, --trace FILE, --slots N (host job
   slots through the callbacks; prints the most held at once and how many were taken),
   --cancel-after N (the acquire callback refuses its (N+1)-th call), --executor
   threads|processes|N (N: the enum's raw value), --pipeline TEXT (the threads executor's
   per-shard pipeline), --count 1 (a module callback that counts the functions each shard
   defines and imports; prints the totals after the compile),
   --fail-shard K (the module callback fails shard K), --break-shard K (the module callback
   removes a terminator from shard K and returns 0), --reloc static|pic|pie, --code-model
   small|kernel|medium|large, --reloc-raw N (any value), --cpu CPU, --profile-use P,
   --profile-generate F, --verify first|after-split|N, --api-version N (a host built against
   version N: the fields of later versions hold what the library must not read). */
#define _POSIX_C_SOURCE 200809L
#include <shard.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The host's pool of job slots. */
static struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int size, held, most, calls, cancel_after;
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 0, -1};

/* Takes a slot, waiting for one; refuses once cancel_after calls were granted. */
static int acquire(void *user) {
  (void)user;
  pthread_mutex_lock(&pool.mu);
  int refuse = pool.cancel_after >= 0 && pool.calls >= pool.cancel_after;
  while (!refuse && pool.held >= pool.size)
    pthread_cond_wait(&pool.cv, &pool.mu);
  if (!refuse) {
    pool.calls++;
    if (++pool.held > pool.most)
      pool.most = pool.held;
  }
  pthread_mutex_unlock(&pool.mu);
  return refuse;
}

/* Gives a slot back. */
static void release(void *user) {
  (void)user;
  pthread_mutex_lock(&pool.mu);
  if (--pool.held < 0) {
    fprintf(stderr, "host: more slots released than taken\n");
    exit(3);
  }
  pthread_cond_signal(&pool.cv);
  pthread_mutex_unlock(&pool.mu);
}

static struct shard_config config;

/* What the module callback saw: the names of the functions shards own (defined, not
   available_externally), how often, and the imports (available_externally). */
static struct {
  pthread_mutex_t mu;
  char **owned;
  int nowned, twice, imports, shards, fail, broken;
} seen = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0, 0, -1, -1};

/* Breaks SHARD: the terminator of its first definition's entry block removed. */
static void break_module(LLVMModuleRef shard) {
  for (LLVMValueRef f = LLVMGetFirstFunction(shard); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f)) {
      LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(LLVMGetEntryBasicBlock(f)));
      return;
    }
}

/* The module callback: counts shard K's definitions and imports; fails shard --fail-shard,
   breaks shard --break-shard (and succeeds). */
static int count_functions(LLVMModuleRef shard, int k, int n, void *user, char **error) {
  (void)user, (void)n;
  if (k == seen.fail) {
    *error = strdup("the host refused this shard");
    return 1;
  }
  if (k == seen.broken)
    break_module(shard);
  pthread_mutex_lock(&seen.mu);
  seen.shards++;
  for (LLVMValueRef f = LLVMGetFirstFunction(shard); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f))
      continue;
    if (LLVMGetLinkage(f) == LLVMAvailableExternallyLinkage) {
      seen.imports++;
      continue;
    }
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    for (int i = 0; i < seen.nowned; i++)
      if (!strcmp(seen.owned[i], name))
        seen.twice++;
    seen.owned = realloc(seen.owned, (seen.nowned + 1) * sizeof *seen.owned);
    seen.owned[seen.nowned++] = strdup(name);
  }
  pthread_mutex_unlock(&seen.mu);
  return 0;
}

/* The definitions of M (before the compile consumes it). */
static int definitions(LLVMModuleRef m) {
  int n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    n += !LLVMIsDeclaration(f);
  return n;
}

/* Reads module PATH into a new context; NULL after printing why. */
static LLVMModuleRef read_module(const char *path, LLVMContextRef *ctx) {
  LLVMMemoryBufferRef buf;
  LLVMModuleRef m;
  char *msg = NULL;
  *ctx = LLVMContextCreate();
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg) ||
      LLVMParseIRInContext(*ctx, buf, &m, &msg)) {
    printf("host: %s: %s\n", path, msg);
    LLVMDisposeMessage(msg);
    return NULL;
  }
  return m;
}

/* Compiles M (consumed) into OUT; prints "NAME: ok" or "NAME: error: MESSAGE". */
static int compile(LLVMModuleRef m, const char *out, const char *name) {
  LLVMMemoryBufferRef obj;
  char *error;
  int defs = definitions(m);
  int failed = shard_compile(m, &config, &obj, &error);
  if (config.module_fn && !failed)
    printf("%s: module_fn: %d shards, %d definitions owned (%d twice) of %d, %d imports\n", name,
           seen.shards, seen.nowned, seen.twice, defs, seen.imports);
  if (failed) {
    printf("%s: error: %s\n", name, error);
    shard_dispose_message(error);
    return 1;
  }
  FILE *f = fopen(out, "wb");
  size_t n = LLVMGetBufferSize(obj);
  if (!f || fwrite(LLVMGetBufferStart(obj), 1, n, f) != n || fclose(f)) {
    printf("%s: cannot write '%s'\n", name, out);
    return 1;
  }
  LLVMDisposeMemoryBuffer(obj);
  printf("%s: ok\n", name);
  return 0;
}

/* Reads IN and compiles it into OUT. */
static int compile_file(const char *in, const char *out, const char *name) {
  LLVMContextRef ctx;
  LLVMModuleRef m = read_module(in, &ctx);
  int rc = m ? compile(m, out, name) : 1;
  LLVMContextDispose(ctx);
  return rc;
}

struct task {
  const char *in, *out, *name;
  int rc;
};

/* A host thread's compile. */
static void *task_run(void *arg) {
  struct task *t = arg;
  t->rc = compile_file(t->in, t->out, t->name);
  return NULL;
}

/* A module the verifier rejects: a block without a terminator. */
static LLVMModuleRef broken_module(LLVMContextRef ctx) {
  LLVMModuleRef m = LLVMModuleCreateWithNameInContext("broken", ctx);
  LLVMTypeRef fty = LLVMFunctionType(LLVMInt32TypeInContext(ctx), NULL, 0, 0);
  LLVMValueRef f = LLVMAddFunction(m, "no_terminator", fty);
  LLVMAppendBasicBlockInContext(ctx, f, "entry");
  return m;
}

/* The bytes the host's heap holds in use, all arenas (glibc). */
static long long heap_in_use(void) {
  struct mallinfo2 mi = mallinfo2();
  return (long long)(mi.uordblks + mi.hblkhd);
}

int main(int argc, char **argv) {
  shard_config_init(&config);
  int i = 1, slots = 0;
  for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
    const char *o = argv[i], *v = argv[i + 1];
    if (!strcmp(o, "--shards"))
      config.shards = atoi(v);
    else if (!strcmp(o, "-j"))
      config.jobs = atoi(v);
    else if (!strcmp(o, "--split-parts"))
      config.split_parts = atoi(v);
    else if (!strcmp(o, "--cache"))
      config.cache_dir = v;
    else if (!strcmp(o, "--report"))
      config.report = v;
    else if (!strcmp(o, "--trace"))
      config.time_trace = v;
    else if (!strcmp(o, "--slots"))
      slots = atoi(v);
    else if (!strcmp(o, "--cancel-after"))
      pool.cancel_after = atoi(v), slots = slots ? slots : 2;
    else if (!strcmp(o, "--pipeline"))
      config.pipeline = v;
    else if (!strcmp(o, "--count"))
      config.module_fn = count_functions;
    else if (!strcmp(o, "--fail-shard"))
      config.module_fn = count_functions, seen.fail = atoi(v);
    else if (!strcmp(o, "--break-shard"))
      config.module_fn = count_functions, seen.broken = atoi(v);
    else if (!strcmp(o, "--reloc"))
      config.reloc = !strcmp(v, "static") ? SHARD_RELOC_STATIC
                     : !strcmp(v, "pic")  ? SHARD_RELOC_PIC
                                          : SHARD_RELOC_PIE;
    else if (!strcmp(o, "--code-model"))
      config.code_model = !strcmp(v, "small")    ? SHARD_CODE_MODEL_SMALL
                          : !strcmp(v, "kernel") ? SHARD_CODE_MODEL_KERNEL
                          : !strcmp(v, "medium") ? SHARD_CODE_MODEL_MEDIUM
                                                 : SHARD_CODE_MODEL_LARGE;
    else if (!strcmp(o, "--reloc-raw"))
      config.reloc = (enum shard_reloc)atoi(v);
    else if (!strcmp(o, "--cpu"))
      config.cpu = v;
    else if (!strcmp(o, "--profile-use"))
      config.profile_use = v;
    else if (!strcmp(o, "--profile-generate"))
      config.profile_generate = v;
    else if (!strcmp(o, "--api-version")) { /* a host of that version: later fields garbage */
      config.api_version = atoi(v);
      if (config.api_version < 3)
        config.profile_use = "/nonexistent/v3-field";
      if (config.api_version < 4)
        config.verify = (enum shard_verify)7;
      if (config.api_version < 5)
        config.split_parts = -3;
    } else if (!strcmp(o, "--verify"))
      config.verify = !strcmp(v, "after-split") ? SHARD_VERIFY_AFTER_SPLIT
                      : !strcmp(v, "first")     ? SHARD_VERIFY_FIRST
                                                : (enum shard_verify)atoi(v);
    else if (!strcmp(o, "--executor"))
      config.executor = !strcmp(v, "threads")     ? SHARD_EXECUTOR_THREADS
                        : !strcmp(v, "processes") ? SHARD_EXECUTOR_PROCESSES
                                                  : (enum shard_executor)atoi(v);
    else {
      fprintf(stderr, "host: unknown option %s\n", o);
      return 2;
    }
  }
  if (slots) {
    pool.size = slots;
    config.acquire = acquire;
    config.release = release;
  }
  const char *cmd = i < argc ? argv[i++] : "";
  int rc = 0;
  if (!strcmp(cmd, "compile") && argc - i == 2) {
    rc = compile_file(argv[i], argv[i + 1], "compile");
  } else if (!strcmp(cmd, "file") && argc - i == 2) {
    char *error = NULL;
    rc = shard_compile_file(argv[i], argv[i + 1], &config, &error);
    printf("file: %s\n", rc ? error : "ok");
    shard_dispose_message(error);
  } else if (!strcmp(cmd, "two") && argc - i == 3) {
    struct task t[2] = {{argv[i], argv[i + 1], "first", 0}, {argv[i], argv[i + 2], "second", 0}};
    pthread_t th[2];
    for (int k = 0; k < 2; k++)
      pthread_create(&th[k], NULL, task_run, &t[k]);
    for (int k = 0; k < 2; k++)
      pthread_join(th[k], NULL);
    rc = t[0].rc || t[1].rc;
  } else if (!strcmp(cmd, "broken") && argc - i == 2) {
    LLVMContextRef ctx = LLVMContextCreate();
    rc = compile(broken_module(ctx), argv[i + 1], "broken");
    LLVMContextDispose(ctx);
  } else if (!strcmp(cmd, "retarget") && argc - i == 3) {
    LLVMContextRef ctx;
    LLVMModuleRef m = read_module(argv[i + 1], &ctx);
    if (!m)
      return 1;
    LLVMSetTarget(m, argv[i++]);
    rc = compile(m, argv[i + 1], "retarget");
    LLVMContextDispose(ctx);
  } else if (!strcmp(cmd, "repeat") && argc - i == 3) {
    int n = atoi(argv[i++]);
    long long first = 0;
    for (int k = 0; k < n && !rc; k++) {
      rc = compile_file(argv[i], argv[i + 1], "repeat");
      if (k == 0)
        first = heap_in_use();
    }
    printf("repeat: the heap in use grew by %lld KiB\n", (heap_in_use() - first) / 1024);
  } else {
    fprintf(stderr, "host: bad command line (see the comment at the top of host.c)\n");
    return 2;
  }
  if (slots)
    printf("slots: at most %d of %d held, %d left held, %d taken\n", pool.most, pool.size,
           pool.held, pool.calls);
  if (rc) { /* the host goes on: the same module again, without what failed */
    config.cache_dir = NULL;
    config.module_fn = NULL;
    config.pipeline = NULL;
    config.reloc = SHARD_RELOC_DEFAULT;
    if ((unsigned)config.executor > SHARD_EXECUTOR_PROCESSES)
      config.executor = SHARD_EXECUTOR_DEFAULT;
    if ((unsigned)config.verify > SHARD_VERIFY_AFTER_SPLIT)
      config.verify = SHARD_VERIFY_FIRST;
    if (config.split_parts < 0 || config.split_parts > 64)
      config.split_parts = 0;
    config.report = config.time_trace = NULL;
    pool.cancel_after = -1;
    rc = compile_file(argv[i], argv[argc - 1], "after");
  }
  return rc;
}
