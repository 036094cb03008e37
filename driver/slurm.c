/* slurm: the Slurm executor's part of a shard compile: each one runs as a job step
   (srun, one task, one CPU, the predicted memory) under this driver's on-node wrapper
   (shard --slurm-step), which reports the node, the step and the compile's peak memory; the
   local executor schedules the steps (local.c); the split and the link stay local. */
#define _XOPEN_SOURCE 700
#define _GNU_SOURCE /* wait4, memmem */
#include "slurm.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The wrapper's last line on stderr, which srun passes on into the shard's log:
   "shard-slurm-step: node=NAME step=JOB.STEP peak_rss_kib=N". */
#define MARK "shard-slurm-step:"

/* Replaces A, the compile of shard K, with the same command as a job step of one task on one
   CPU, named shard.K, with the predicted KIB of memory and a quarter more (a cluster that
   enforces --mem kills a step over it; docs/cluster.md), the user's arguments last (they
   override ours), run under this driver's wrapper (shard --slurm-step --). */
void slurm_wrap(struct argv *a, const struct opts *o, int k, unsigned long long kib) {
  static char *self;
  struct argv s = {0};
  if (!self && !(self = self_exe()))
    die("cannot find the shard executable for --executor slurm (/proc/self/exe)");
  av_push(&s, o->srun);
  av_push(&s, "--quiet");
  av_push(&s, "--ntasks=1");
  av_push(&s, "--cpus-per-task=1");
  av_pushf(&s, "--mem=%lluM", (kib + kib / 4 + 1023) / 1024);
  av_pushf(&s, "--job-name=shard.%d", k);
  for (char **w = o->srun_args; w && *w; w++)
    av_push(&s, *w);
  av_push(&s, self);
  av_push(&s, SLURM_STEP);
  av_push(&s, "--");
  for (int i = 0; i < a->n; i++)
    av_push(&s, a->v[i]);
  av_free(a);
  *a = s;
}

/* Dies, with the step's LOG (srun's messages: a node failure), when a step succeeded but its
   object OBJ is not here: the node wrote it where this machine cannot see it, or was lost. */
void slurm_check_output(const char *obj, int k, const char *log) {
  if (access(obj, R_OK) < 0)
    die_log(log,
            "shard %d: the step ran but %s did not appear (is the work directory on storage "
            "every node sees? use --work-dir DIR on shared storage)",
            k, strrchr(obj, '/') ? strrchr(obj, '/') + 1 : obj);
}

/* Takes the wrapper's marker lines out of shard S's step log LOG (so that it holds what srun
   and the compile printed, as without the wrapper) and records the last one's node, step and
   peak memory in S; without one (the wrapper did not end), they stay unknown. */
void slurm_take_marker(const char *log, struct shard *s) {
  size_t n, ml = strlen(MARK);
  char *b = read_file(log, &n), *p, *from = b;
  if (!b)
    return;
  int found = 0;
  while ((p = memmem(from, n - (from - b), MARK, ml))) {
    char node[64], step[64], *eol = memchr(p, '\n', n - (p - b));
    long kib;
    if (sscanf(p, MARK " node=%63[A-Za-z0-9._-] step=%63[0-9.-] peak_rss_kib=%ld", node, step,
               &kib) == 3) {
      free(s->node), free(s->step);
      s->node = strcmp(node, "-") ? xstrdup(node) : NULL;
      s->step = strcmp(step, "-") ? xstrdup(step) : NULL;
      s->maxrss = kib;
    }
    size_t cut = eol ? (size_t)(eol + 1 - p) : n - (p - b);
    memmove(p, p + cut, n - (p - b) - cut + 1); /* the NUL too */
    n -= cut;
    from = p;
    found = 1;
  }
  FILE *f = found ? fopen(log, "wb") : NULL;
  if (found && (!f || (fwrite(b, 1, n, f) != n) | fclose(f)))
    die("cannot write '%s': %s", log, strerror(errno));
  free(b);
}

/* The wrapper's child, for the signal handler to pass signals on to. */
static volatile pid_t child;

/* Passes signal SIG on to the child (scancel's and srun's SIGTERM, SIGINT...). */
static void pass_on(int sig) {
  int e = errno;
  if (child > 0)
    kill(child, sig);
  errno = e;
}

/* The signals the wrapper passes on to the child. */
static const int passed[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCONT};
#define NPASSED (int)(sizeof passed / sizeof *passed)

/* Starts ARGV (searched in $PATH) with the signals at their defaults; returns its pid, or
   -1 after saying why. The passed signals are blocked until the child is recorded. */
static pid_t step_spawn(char **argv) {
  struct sigaction sa = {.sa_handler = pass_on, .sa_flags = SA_RESTART};
  sigset_t block, none;
  posix_spawnattr_t at;
  sigemptyset(&block);
  sigemptyset(&none);
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < NPASSED; i++)
    sigaddset(&block, passed[i]);
  sigprocmask(SIG_BLOCK, &block, NULL);
  for (int i = 0; i < NPASSED; i++)
    sigaction(passed[i], &sa, NULL);
  posix_spawnattr_init(&at);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setsigdefault(&at, &block);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid;
  int err = posix_spawnp(&pid, argv[0], NULL, &at, argv, environ);
  posix_spawnattr_destroy(&at);
  child = err ? -1 : pid;
  sigprocmask(SIG_UNBLOCK, &block, NULL);
  if (err)
    fprintf(stderr, "shard: error: cannot run '%s': %s\n", argv[0], strerror(err));
  return err ? -1 : pid;
}

/* Ends this process with signal SIG, as its child ended, without a core dump; returns
   128 + SIG where SIG does not end a process (its default is to ignore it). */
static int die_like(int sig) {
  struct rlimit none = {0, 0};
  sigset_t s;
  setrlimit(RLIMIT_CORE, &none);
  signal(sig, SIG_DFL);
  sigemptyset(&s);
  sigaddset(&s, sig);
  sigprocmask(SIG_UNBLOCK, &s, NULL);
  fflush(stderr);
  raise(sig);
  return 128 + sig;
}

/* The value of environment variable NAME, or "-" when it is unset or empty. */
static const char *env_or_dash(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : "-";
}

/* shard --slurm-step -- CMD ARGS...: the on-node wrapper of a shard compile. Runs CMD with
   this process's stdin, stdout and stderr, passes on the signals Slurm sends (scancel, the
   time limit, srun's), then writes the marker line (the node, the step, CMD's peak memory
   from wait4) on stderr and exits as CMD did: with its status, or killed by the same signal
   (without a core dump of its own), so that srun and slurmstepd say what they would say of
   CMD ("Terminated"); 128 + the signal where that signal does not end it. */
int slurm_step_main(int argc, char **argv) {
  int i = 2;
  if (i < argc && !strcmp(argv[i], "--"))
    i++;
  if (i >= argc) {
    fprintf(stderr, "shard: error: %s needs a command (shard %s -- CMD ARGS...)\n", SLURM_STEP,
            SLURM_STEP);
    return 2;
  }
  pid_t pid = step_spawn(argv + i);
  if (pid < 0)
    return 127;
  int st;
  struct rusage ru;
  while (wait4(pid, &st, 0, &ru) < 0)
    if (errno != EINTR) {
      fprintf(stderr, "shard: error: waiting for '%s': %s\n", argv[i], strerror(errno));
      return 1;
    }
  child = 0;
  char id[64];
  snprintf(id, sizeof id, "%s.%s", env_or_dash("SLURM_JOB_ID"), env_or_dash("SLURM_STEP_ID"));
  fprintf(stderr, MARK " node=%s step=%s peak_rss_kib=%ld\n", env_or_dash("SLURMD_NODENAME"),
          strcmp(id, "-.-") ? id : "-", ru.ru_maxrss);
  if (WIFSIGNALED(st))
    return die_like(WTERMSIG(st));
  return WEXITSTATUS(st);
}

/* Runs ARGV (argv[0] a path) with stdout into BUF (up to N - 1 bytes, NUL-terminated) and
   stderr to /dev/null; returns whether it ran and exited 0. */
static int capture(char **argv, char *buf, size_t n) {
  posix_spawn_file_actions_t fa;
  int p[2], st;
  size_t len = 0;
  ssize_t r;
  pid_t pid;
  if (pipe(p) < 0)
    return 0;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, p[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&fa, p[0]);
  int err = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(p[1]);
  while (!err && len + 1 < n) {
    if ((r = read(p[0], buf + len, n - 1 - len)) > 0)
      len += r;
    else if (r == 0 || errno != EINTR)
      break;
  }
  close(p[0]);
  buf[len] = 0;
  while (!err && waitpid(pid, &st, 0) < 0)
    if (errno != EINTR)
      return 0;
  return !err && WIFEXITED(st) && !WEXITSTATUS(st);
}

/* The partition the user's srun arguments name (-p P, -pP, --partition P, --partition=P), or
   NULL: the default one. */
static const char *partition_arg(char **w) {
  for (; w && *w; w++) {
    if ((!strcmp(*w, "-p") || !strcmp(*w, "--partition")) && w[1])
      return w[1];
    if (!strncmp(*w, "--partition=", 12))
      return *w + 12;
    if (!strncmp(*w, "-p", 2) && (*w)[2])
      return *w + 2;
  }
  return NULL;
}

/* The CPUs of the allocation this runs in: the sum of $SLURM_JOB_CPUS_PER_NODE ("4(x2),2":
   10), else $SLURM_NTASKS, else $SLURM_CPUS_ON_NODE; 0 when none is set. */
static long allocation_cpus(const char **from) {
  const char *v = getenv("SLURM_JOB_CPUS_PER_NODE");
  long sum = 0, c, times;
  char *end;
  for (const char *p = v; p && *p; p = *end == ',' ? end + 1 : end) {
    c = strtol(p, &end, 10);
    times = 1;
    if (end == p || (*end == '(' && sscanf(end, "(x%ld)", &times) != 1))
      break;
    if (*end == '(')
      end = strchr(end, ')') + 1;
    sum += c * times;
  }
  if (sum > 0)
    return *from = "SLURM_JOB_CPUS_PER_NODE", sum;
  const char *names[] = {"SLURM_NTASKS", "SLURM_CPUS_ON_NODE"};
  for (int i = 0; i < 2; i++)
    if ((v = getenv(names[i])) && (c = strtol(v, &end, 10)) > 0 && !*end)
      return *from = names[i], c;
  return 0;
}

/* The idle and allocated CPUs of PART (NULL: the default partition) from one sinfo call
   ("debug* 3/5/0/8": allocated/idle/other/total; the default's name ends in '*'); 0 when
   sinfo fails or lists none. *NAME: the partition counted. */
static long partition_cpus(const struct opts *o, const char *part, char **name) {
  char *dir = xstrdup(o->srun), *slash = strrchr(dir, '/'), out[8192];
  *slash = 0;
  char *sinfo = fmt("%s/sinfo", dir), *argv[] = {sinfo, "-h", "-o", "%P %C", NULL, NULL, NULL};
  if (part)
    argv[4] = "-p", argv[5] = (char *)part;
  long sum = 0, a, i;
  if (capture(argv, out, sizeof out))
    for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n")) {
      char p[256];
      if (sscanf(l, "%255s %ld/%ld/", p, &a, &i) != 3 || (!part && p[strlen(p) - 1] != '*'))
        continue;
      sum += a + i;
      if (!*name) {
        p[strcspn(p, "*")] = 0;
        *name = xstrdup(p);
      }
    }
  free(dir);
  free(sinfo);
  return sum;
}

/* The default -j of --executor slurm: inside an allocation ($SLURM_JOB_ID) its CPUs; outside,
   the idle and allocated CPUs of the partition the steps go to (sinfo); else this machine's
   online CPUs (O->jobs as it is). -v says which. */
void slurm_default_jobs(struct opts *o) {
  const char *from = NULL, *part = partition_arg(o->srun_args);
  char *name = NULL;
  long n = 0;
  if (getenv("SLURM_JOB_ID") && (n = allocation_cpus(&from)) > 0) {
    o->jobs = n > 1 << 16 ? 1 << 16 : (int)n;
    if (o->verbose)
      note("-j %d: the CPUs of allocation %s ($%s)", o->jobs, getenv("SLURM_JOB_ID"), from);
  } else if ((n = partition_cpus(o, part, &name)) > 0) {
    o->jobs = n > 1 << 16 ? 1 << 16 : (int)n;
    if (o->verbose)
      note("-j %d: the idle and allocated CPUs of partition %s (sinfo)", o->jobs, name);
  } else if (o->verbose) {
    note("-j %d: this machine's online CPUs (sinfo gave no CPUs of %s%s)", o->jobs,
         part ? "partition " : "the default partition", part ? part : "");
  }
  free(name);
}
