/* process: the process executor: runs the `shard` command line (the driver next to this
   library, ../bin/shard) as a child process on a module file, so that a crash inside LLVM
   stays in the child. Its output, cache and reports are the command line's own. */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* A growable NULL-terminated vector of new strings. */
struct vec {
  char **v;
  int n, cap;
};

/* Appends a new string formatted like printf to V (a NULL stays: lib_msg failed). */
LIB_PRINTF(2, 3) static void push(struct vec *v, const char *fmt, ...) {
  if (v->n + 2 > v->cap) {
    v->cap = v->cap ? 2 * v->cap : 32;
    v->v = realloc(v->v, v->cap * sizeof *v->v);
  }
  va_list ap;
  va_start(ap, fmt);
  v->v[v->n++] = lib_vmsg(fmt, ap);
  va_end(ap);
  v->v[v->n] = NULL;
}

/* Frees V and its strings. */
static void vec_free(struct vec *v) {
  for (int i = 0; i < v->n; i++)
    free(v->v[i]);
  free(v->v);
}

/* The command line for C: shard OPTIONS -o OUTPUT INPUT. Jobs: -j N when set (with host
   slots too: the most at once); otherwise the driver's default (online CPUs, or the
   jobserver it is given). */
static void command(struct vec *a, const char *input, const char *output,
                    const struct shard_config *c) {
  push(a, "%s/../bin/shard", lib_self_dir());
  if (c->jobs)
    push(a, "-j%d", c->jobs);
  push(a, "--shards=%d", c->shards);
  if (c->split_parts)
    push(a, "--split-parts=%d", c->split_parts);
  push(a, "-O%d", c->opt_level);
  if (lib_reloc_flag(c))
    push(a, "%s", lib_reloc_flag(c));
  if (lib_code_model(c))
    push(a, "-mcmodel=%s", lib_code_model(c));
  if (c->mv_targets)
    push(a, "--mv-targets=%s", c->mv_targets);
  if (c->presimplify)
    push(a, "--presimplify");
  if (c->opt_level && c->profile_use)
    push(a, "--profile-use=%s", c->profile_use);
  if (c->profile_generate)
    push(a, "--profile-generate=%s", c->profile_generate);
  if (c->profile_generate && c->profile_atomic)
    push(a, "--profile-atomic");
  if (c->keep_temps)
    push(a, "--keep-temps=%s", c->keep_temps);
  if (c->report)
    push(a, "--report=%s", c->report);
  if (c->time_trace)
    push(a, "--time-trace=%s", c->time_trace);
  if (c->cache_dir)
    push(a, "--cache-dir=%s", c->cache_dir);
  else
    push(a, "--no-cache");
  if (c->llvm_bindir)
    push(a, "--llvm-bindir=%s", c->llvm_bindir);
  push(a, "-o");
  push(a, "%s", output);
  push(a, "--");
  push(a, "%s", input);
}

/* The child's environment: the host's without SHARD_OPTIONS (the configuration says it
   all), and with MAKEFLAGS naming the bridge's jobserver when MAKEFLAGS is given. */
static void environment(struct vec *e, const char *makeflags) {
  for (char **s = environ; *s; s++)
    if (strncmp(*s, "SHARD_OPTIONS=", 14) && (!makeflags || strncmp(*s, "MAKEFLAGS=", 10)))
      push(e, "%s", *s);
  if (makeflags)
    push(e, "MAKEFLAGS=%s", makeflags);
}

/* Spawns ARGV with ENV, stdout to /dev/null, stderr to LOG and the bridge's pipe (RFD, WFD:
   -1 when none) at the same numbers; the pid, or -1 with *ERROR set. */
static pid_t spawn(char **argv, char **env, const char *log, int rfd, int wfd, char **error) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (rfd >= 0) { /* dup2 onto themselves clears close-on-exec in the child */
    posix_spawn_file_actions_adddup2(&fa, rfd, rfd);
    posix_spawn_file_actions_adddup2(&fa, wfd, wfd);
  }
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
  pid_t pid;
  int e = posix_spawn(&pid, argv[0], &fa, &at, argv, env);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  if (!e)
    return pid;
  *error = lib_msg("shard: cannot run '%s': %s", argv[0], strerror(e));
  return -1;
}

/* The message of a failed run: the driver's stderr in LOG, else its status. */
static char *failure(const char *log, int st) {
  char *text = lib_slurp_text(log);
  if (text && *text)
    return text;
  free(text);
  if (WIFSIGNALED(st))
    return lib_msg("shard: the driver was killed by signal %d (%s)", WTERMSIG(st),
                   strsignal(WTERMSIG(st)));
  return lib_msg("shard: the driver failed with exit status %d", WEXITSTATUS(st));
}

/* Runs the command line on INPUT into OUTPUT; 0, or 1 with *ERROR set. */
int process_compile_file(const char *input, const char *output, const struct shard_config *c,
                         char **error) {
  char *dir = lib_tmpdir(error);
  if (!dir)
    return 1;
  struct lib_bridge *b = bridge_start(c, error);
  if (c->acquire && !b) {
    lib_rmtree(dir);
    free(dir);
    return 1;
  }
  int rfd = -1, wfd = -1;
  char *makeflags = NULL, *log = lib_msg("%s/shard.log", dir);
  if (b)
    bridge_env(b, &rfd, &wfd, &makeflags);
  struct vec a = {0}, e = {0};
  command(&a, input, output, c);
  environment(&e, makeflags);
  pid_t pid = spawn(a.v, e.v, log, rfd, wfd, error);
  int st = 0, rc = 1;
  if (pid > 0) {
    if (b)
      bridge_child(b, pid);
    pid_t w;
    while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
      ;
    rc = w != pid || st != 0;
    if (w != pid) /* SIGCHLD ignored, or the host reaped it */
      st = -1, *error = lib_msg("shard: cannot wait for the driver: %s", strerror(errno));
  }
  int cancelled = b ? bridge_stop(b) : 0;
  if (pid > 0 && cancelled) {
    free(*error);
    *error = lib_msg("shard: cancelled (the host's job-slot callback refused a slot)");
  } else if (pid > 0 && rc && st != -1)
    *error = failure(log, st);
  rc = rc || cancelled;
  vec_free(&a);
  vec_free(&e);
  free(makeflags);
  free(log);
  lib_rmtree(dir);
  free(dir);
  return rc;
}
