/* inproc: --executor threads (and auto's choice of it): the driver loads libshard (next to the
   plugin, ../lib from the executable) only for this executor, so that no other run pays for
   loading clang's and lld's libraries, and hands it the pipeline description as a
   shard_config, in a child process that a crash inside LLVM ends instead of the driver. */
#define _XOPEN_SOURCE 700
#include "inproc.h"
#include "cache.h"
#include "proc.h"
#include "util.h"

#include "shard.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

/* Set in the environment of the driver that re-executed itself with the allocator. */
#define PRELOADED "SHARD_THREADS_MALLOC"

/* The library's entry points this executor calls. */
struct api {
  void (*init)(struct shard_config *c);
  int (*compile_file)(const char *in, const char *out, const struct shard_config *c, char **err);
  void (*dispose)(char *message);
};

/* The path of <prefix>/lib/libshard.so.0 (the executable being <prefix>/bin/shard), or NULL. */
static char *lib_path(void) {
  char *self = self_exe();
  if (!self)
    return NULL;
  for (int up = 0; up < 2; up++) {
    char *slash = strrchr(self, '/');
    if (slash)
      *slash = 0;
  }
  char *path = fmt("%s/lib/libshard.so.0", self);
  free(self);
  return path;
}

/* Loads libshard; dies when it cannot. */
static struct api load(void) {
  char *path = lib_path();
  if (!path)
    die("--executor threads: cannot find the driver's own path");
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h)
    die("--executor threads: cannot load '%s': %s", path, dlerror());
  struct api a = {dlsym(h, "shard_config_init"), dlsym(h, "shard_compile_file"),
                  dlsym(h, "shard_dispose_message")};
  if (!a.init || !a.compile_file || !a.dispose)
    die("--executor threads: '%s' is not libshard: %s", path, dlerror());
  free(path);
  return a;
}

/* This process's arguments, from /proc/self/cmdline (NULL-terminated), or NULL. */
static char **own_argv(void) {
  int fd = open("/proc/self/cmdline", O_RDONLY);
  if (fd < 0)
    return NULL;
  size_t n = 0, cap = 4096;
  char *buf = xmalloc(cap);
  ssize_t r;
  while ((r = read(fd, buf + n, cap - n)) > 0)
    if ((n += r) == cap)
      buf = xrealloc(buf, cap *= 2);
  close(fd);
  struct argv a = {0};
  for (size_t i = 0; i < n; i += strlen(buf + i) + 1)
    av_push(&a, buf + i);
  free(buf);
  return a.v;
}

/* The threads executor compiles in this process, so the allocator the other executors preload
   into their tools (--malloc) is preloaded into the driver itself: it executes itself again,
   once, with LIB after the caller's LD_PRELOAD. Returns when LIB is preloaded already, or
   when it cannot be. */
static void preload_self(const char *lib) {
  if (getenv(PRELOADED)) {
    unsetenv(PRELOADED);
    return;
  }
  const char *old = getenv("LD_PRELOAD");
  if (old && strstr(old, lib)) /* the caller preloaded it */
    return;
  char *self = self_exe(), **argv = own_argv();
  if (!self || !argv)
    return;
  char *v = old && *old ? fmt("%s:%s", old, lib) : xstrdup(lib);
  if (!setenv("LD_PRELOAD", v, 1) && !setenv(PRELOADED, "1", 1))
    execv(self, argv);
  warn("--executor threads: cannot preload '%s' into the driver: %s", lib, strerror(errno));
}

/* The library's progress callback: the command line's status line. */
static void show_progress(int done, int total, int running, void *user) {
  (void)user;
  status_progress(done, total, running);
}

/* Runs O's build with the threads executor; returns the exit status (errors exit). */
static int run(const struct opts *o) {
  if (o->malloc_lib)
    preload_self(o->malloc_lib);
  struct api a = load();
  struct shard_config c;
  a.init(&c);
  c.executor = SHARD_EXECUTOR_THREADS;
  c.jobs = o->jobs_given ? o->jobs : 0; /* 0: online CPUs, or the jobserver's tokens */
  c.shards = o->shards;
  c.split_parts = o->split_parts;
  c.opt_level = o->olevel;
  char *mv = o->mv_targets ? xstrdup(o->mv_targets) : NULL; /* ':'-separated: back to ',' */
  for (char *s = mv; s && *s; s++)
    if (*s == ':')
      *s = ',';
  c.mv_targets = mv;
  /* The command line warns about an unusable cache and goes on without; the library fails. */
  c.cache_dir = o->cache_dir && cache_open(o->cache_dir, o->cache_size, 0) ? o->cache_dir : NULL;
  c.report = o->report;
  c.time_trace = o->trace;
  c.presimplify = o->presimplify;
  c.profile_use = o->profile_use;
  c.profile_generate = o->profile_gen;
  c.profile_atomic = o->profile_atomic;
  c.reloc = !o->reloc                       ? SHARD_RELOC_DEFAULT
            : !strcmp(o->reloc, "-fno-pic") ? SHARD_RELOC_STATIC
            : !strcmp(o->reloc, "-fPIC")    ? SHARD_RELOC_PIC
                                            : SHARD_RELOC_PIE;
  if (o->cmodel) /* (checked by the command line) */
    c.code_model = (enum shard_code_model)(SHARD_CODE_MODEL_TINY - 1 + opts_code_model(o->cmodel));
  c.keep_temps = o->keep;
  c.verify = SHARD_VERIFY_AFTER_SPLIT; /* as the process executor's opt: no core idle */
  c.llvm_bindir = o->bindir;
  if (isatty(STDERR_FILENO)) /* as the process executor, a status line on a terminal */
    c.progress = show_progress;
  char *err = NULL;
  int rc = a.compile_file(o->input, o->out, &c, &err);
  status_break();
  if (rc) { /* the library's own messages ("shard: ...") read as the command line's */
    const char *m = err ? err : "shard: error: the threads executor failed";
    int plain = !strncmp(m, "shard: ", 7) && strncmp(m, "shard: error: ", 14);
    fprintf(stderr, plain ? "shard: error: %s\n" : "%s\n", plain ? m + 7 : m);
    a.dispose(err);
  }
  free(mv);
  return rc ? 1 : 0;
}

/* Whether --executor auto picks threads for O: libshard is installed, the tools are the LLVM
   it was built against, and no option asks for what only processes do (the compiler launcher,
   --emit-ninja, --launcher, --max-mem, --plugin, -v's commands, --keep-temps's tool logs and
   inputs, --work-dir, --cache-size's trim). */
int inproc_usable(const struct opts *o) {
  if (o->frontend || o->ninja || o->launcher || o->max_mem || o->plugin || o->verbose || o->keep ||
      o->work_root || o->cache_size != OPTS_CACHE_SIZE || strcmp(o->bindir, SHARD_LLVM_BINDIR))
    return 0;
  char *path = lib_path();
  int ok = path && access(path, R_OK) == 0;
  free(path);
  return ok;
}

/* Removes what a crashed child PID left of the library's temporary output next to OUT. */
static void remove_tmp(const char *out, pid_t pid) {
  char *pat = fmt("%s.tmp.%ld.*", out, (long)pid);
  glob_t g;
  if (glob(pat, GLOB_NOSORT, NULL, &g) == 0)
    for (size_t i = 0; i < g.gl_pathc; i++)
      unlink(g.gl_pathv[i]);
  globfree(&g);
  free(pat);
}

/* In the threads child: ends it when the driver PARENT ends first (killed by SIGKILL, which
   no handler sees), so that no build goes on, nor writes the output, after the driver. */
static void end_with(pid_t parent) {
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent)
    raise(SIGTERM);
#else
  (void)parent;
#endif
}

/* Runs O's build with the threads executor in a child process; returns its exit status, or
   -1 when a crash ended it (the caller runs the build again with processes, which names the
   failing shard). A stop signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT), to the driver or to the
   child, ends both, as with the process executor: no output, exit status 128 + it. */
int inproc_run(const struct opts *o) {
  if (getenv(PRELOADED)) /* the child, executed again with the allocator */
    return run(o);
  proc_init(o->verbose);
  pid_t parent = getpid();
  fflush(NULL);
  pid_t pid = proc_fork();
  if (pid == 0) {
    end_with(parent);
    exit(run(o));
  }
  siginfo_t si;
  while (waitid(P_PID, pid, &si, WEXITED | WNOWAIT) < 0)
    if (errno != EINTR)
      die("cannot wait for the threads executor: %s", strerror(errno));
  int st;
  proc_reap(pid, &st);
  if (WIFEXITED(st))
    return WEXITSTATUS(st);
  int sig = WTERMSIG(st);
  remove_tmp(o->out, pid);
  proc_interrupt_point();
  proc_interrupted(sig);
  if (sig == SIGPIPE)
    exit(128 + sig);
  warn("the threads executor crashed on '%s' (%s): running the build again with processes",
       o->input, strsignal(sig));
  return -1;
}
