/* proc: spawning children without a shell, waiting, and signal handling. */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE /* wait4 */
#include "proc.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Running children. Changed only while the stop signals are blocked, read by the handler. */
static pid_t *kids;
static int nkids, capkids;
static volatile sig_atomic_t got_sig;
static int verbose;
/* Self-pipe (proc_wait_fds): a byte is written on SIGCHLD and the stop signals. */
static int wake[2] = {-1, -1};

/* Makes proc_wait_fds' poll() return (async-signal-safe). */
static void wake_up(void) {
  if (wake[1] >= 0 && write(wake[1], "", 1) < 0) {
    /* full: a wake-up is already pending */
  }
}

/* SIGCHLD handler: a child ended. */
static void on_child(int sig) {
  int e = errno;
  (void)sig;
  wake_up();
  errno = e;
}

/* Stop signal handler: remembers the signal and stops every running child. */
static void on_signal(int sig) {
  int e = errno;
  if (!got_sig)
    got_sig = sig;
  for (int i = 0; i < nkids; i++)
    if (kids[i] > 0)
      kill(kids[i], SIGTERM);
  wake_up();
  errno = e;
}

/* The signals that stop a run (^C, ^\ and hang-up at a terminal; kill): each ends in the
   cleanup and exit status 128 + the signal. */
static const int stop_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NSTOP (int)(sizeof stop_sigs / sizeof *stop_sigs)

/* Adds the stop signals to S. */
static void add_stop_sigs(sigset_t *s) {
  for (int i = 0; i < NSTOP; i++)
    sigaddset(s, stop_sigs[i]);
}

/* Blocks (ON=1) or unblocks (ON=0) the stop signals. */
void proc_block(int on) {
  sigset_t s;
  sigemptyset(&s);
  add_stop_sigs(&s);
  sigprocmask(on ? SIG_BLOCK : SIG_UNBLOCK, &s, NULL);
}

static long last_maxrss; /* ru_maxrss of the child reaped last */

/* Reaps child PID, one we know about, and forgets it (the stop signals blocked around it:
   wait with WNOWAIT first for a child that may still run). */
void proc_reap(pid_t pid, int *status) {
  struct rusage ru;
  proc_block(1);
  while (wait4(pid, status, 0, &ru) < 0 && errno == EINTR)
    ;
  last_maxrss = ru.ru_maxrss;
  for (int i = 0; i < nkids; i++)
    if (kids[i] == pid)
      kids[i] = kids[--nkids];
  proc_block(0);
}

/* Terminates and reaps the children still running (at exit after an error or interrupt). */
void proc_kill_all(void) {
  proc_block(1);
  for (int i = 0; i < nkids; i++)
    kill(kids[i], SIGTERM);
  while (nkids > 0) {
    int st;
    pid_t pid = kids[nkids - 1];
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
      ;
    nkids--;
  }
}

/* Exits 128 + SIG (after cleanup), interrupted, when SIG is a stop signal; else returns. */
void proc_interrupted(int sig) {
  static const char *names[] = {"SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"};
  for (int i = 0; i < NSTOP; i++)
    if (stop_sigs[i] == sig)
      die_status(128 + sig, "interrupted by %s", names[i]);
}

/* Exits 128+signal (after cleanup) if a stop signal arrived. */
void proc_interrupt_point(void) {
  if (got_sig)
    proc_interrupted(got_sig);
}

/* Installs the stop signal handlers and ignores SIGPIPE (children get defaults) and
   SIGXFSZ (children inherit that). */
void proc_init(int v) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART; /* waits still end: the handler stops every child */
  sigemptyset(&sa.sa_mask);
  add_stop_sigs(&sa.sa_mask);
  for (int i = 0; i < NSTOP; i++)
    sigaction(stop_sigs[i], &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  /* A write past RLIMIT_FSIZE (ulimit -f) then fails with EFBIG and is reported, here and in
     the tools (they inherit it: "cannot write 'F': File too large"), instead of killing the
     process without a message or a clean-up. */
  signal(SIGXFSZ, SIG_IGN);
  verbose = v;
}

/* Records child PID as running (called with the stop signals blocked). */
static void adopt(pid_t pid) {
  if (nkids == capkids) {
    capkids = capkids ? 2 * capkids : 16;
    kids = xrealloc(kids, capkids * sizeof *kids);
  }
  kids[nkids++] = pid;
}

/* Forks; returns 0 in the child, with the stop signals and SIGPIPE at their defaults, and
   the child's pid in the parent, where a stop signal ends it as it ends a spawned child
   (proc_reap waits for it). */
pid_t proc_fork(void) {
  proc_block(1);
  if (got_sig) { /* arrived before there was a child to stop */
    proc_block(0);
    proc_interrupt_point();
  }
  pid_t pid = fork();
  if (pid == 0) {
    for (int i = 0; i < NSTOP; i++)
      signal(stop_sigs[i], SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    nkids = 0;
  } else if (pid > 0) {
    adopt(pid);
  }
  proc_block(0);
  if (pid < 0)
    die("cannot fork: %s", strerror(errno));
  return pid;
}

/* The child's side of a spawn: stdin /dev/null, stdout and stderr to LFD (< 0: ours), FD (when >=
   0) as its fd 3; no signal blocked and the stop signals and SIGPIPE at their defaults. */
static void spawn_setup(posix_spawn_file_actions_t *fa, posix_spawnattr_t *at, int lfd, int fd,
                        int out) {
  sigset_t none, dfl;
  posix_spawn_file_actions_init(fa);
  posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
  if (lfd >= 0 && out)
    posix_spawn_file_actions_adddup2(fa, lfd, 1);
  if (lfd >= 0)
    posix_spawn_file_actions_adddup2(fa, lfd, 2);
  if (fd >= 0)
    posix_spawn_file_actions_adddup2(fa, fd, 3);
  sigemptyset(&none);
  sigemptyset(&dfl);
  add_stop_sigs(&dfl);
  sigaddset(&dfl, SIGPIPE);
  posix_spawnattr_init(at);
  posix_spawnattr_setsigmask(at, &none);
  posix_spawnattr_setsigdefault(at, &dfl);
  posix_spawnattr_setflags(at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
}

/* Starts ARGV (argv[0] is a path; no shell) with stdin /dev/null, stderr and (with OUT)
   stdout to file LOG (NULL: ours, for a compiler's own diagnostics) and, when FD >= 0, FD as
   its file descriptor 3; returns its pid. */
static pid_t spawn(char *const argv[], const char *log, int fd, int out) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  if (verbose) { /* -v: every command, argv joined with spaces */
    char *s = av_join(argv);
    fprintf(stderr, "%s\n", s);
    free(s);
  }
  int lfd = log ? open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666) : -1;
  if (log && lfd < 0)
    die("cannot create '%s': %s", log, strerror(errno));
  spawn_setup(&fa, &at, lfd, fd, out);

  /* Blocked so that a signal cannot slip in between the check and recording the pid. */
  proc_block(1);
  if (got_sig) {
    proc_block(0);
    if (lfd >= 0)
      close(lfd);
    proc_interrupt_point();
  }
  pid_t pid;
  int err = posix_spawn(&pid, argv[0], &fa, &at, argv, environ);
  if (!err)
    adopt(pid);
  proc_block(0);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  if (lfd >= 0)
    close(lfd);
  if (err)
    die("cannot run '%s': %s", argv[0], strerror(err));
  return pid;
}

/* Starts ARGV with stdin /dev/null, stdout and stderr to file LOG and, when FD >= 0, FD as
   its file descriptor 3; returns its pid. */
pid_t proc_spawn_fd(char *const argv[], const char *log, int fd) { return spawn(argv, log, fd, 1); }

/* Starts ARGV with stdin /dev/null and stdout and stderr to file LOG; returns its pid. */
pid_t proc_spawn(char *const argv[], const char *log) { return spawn(argv, log, -1, 1); }

/* Waits for any child to end; returns its pid and wait status. Exits on a stop signal. */
pid_t proc_wait(int *status) {
  for (;;) {
    proc_interrupt_point();
    siginfo_t si;
    si.si_pid = 0;
    /* WNOWAIT: the child is reaped only in reap(), with signals blocked, so the handler
       never signals a pid that was already reaped. */
    if (waitid(P_ALL, 0, &si, WEXITED | WNOWAIT) < 0) {
      if (errno == EINTR)
        continue;
      die("waiting for a child process: %s", strerror(errno));
    }
    proc_reap(si.si_pid, status);
    proc_interrupt_point();
    return si.si_pid;
  }
}

/* Sets up the self-pipe and the SIGCHLD handler, once. */
static void wake_init(void) {
  if (wake[0] >= 0)
    return;
  if (pipe(wake) < 0)
    die("cannot create a pipe: %s", strerror(errno));
  for (int i = 0; i < 2; i++) {
    fcntl(wake[i], F_SETFD, FD_CLOEXEC);
    fcntl(wake[i], F_SETFL, O_NONBLOCK);
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_child;
  sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGCHLD, &sa, NULL);
}

/* Waits until a child ends or one of the N descriptors FDS (those >= 0) is readable, without
   busy-waiting: returns the child's pid (reaped, wait status in *STATUS), or 0 when an FD is
   readable (or reports hang-up or an error) first. Exits on a stop signal, like proc_wait. */
pid_t proc_wait_fds(const int *fds, int n, int *status) {
  wake_init();
  for (;;) {
    char buf[64];
    proc_interrupt_point();
    while (read(wake[0], buf, sizeof buf) > 0)
      ;
    /* After draining: a child that ends from here on writes a byte that wakes poll(). */
    siginfo_t si;
    si.si_pid = 0;
    if (waitid(P_ALL, 0, &si, WEXITED | WNOWAIT | WNOHANG) < 0 && errno != EINTR)
      die("waiting for a child process: %s", strerror(errno));
    if (si.si_pid) {
      proc_reap(si.si_pid, status);
      proc_interrupt_point();
      return si.si_pid;
    }
    struct pollfd p[3] = {{.fd = wake[0], .events = POLLIN}};
    if (n > 2)
      die("internal error: proc_wait_fds waits on at most 2 descriptors");
    for (int i = 0; i < n; i++)
      p[1 + i] = (struct pollfd){.fd = fds[i], .events = POLLIN}; /* fd < 0: ignored */
    if (poll(p, 1 + n, -1) < 0 && errno != EINTR)
      die("waiting for a child process: %s", strerror(errno));
    for (int i = 0; i < n; i++)
      if (p[1 + i].revents) {
        proc_interrupt_point();
        return 0;
      }
  }
}

/* Peak resident memory in KiB of the child reaped last (from wait4). */
long proc_last_maxrss(void) { return last_maxrss; }

/* Waits for child PID to end; returns its wait status. */
static int wait_for(pid_t pid) {
  int st;
  while (proc_wait(&st) != pid)
    ;
  return st;
}

/* Runs ARGV to completion with stdout and stderr in LOG; returns its wait status. */
int proc_run(char *const argv[], const char *log) { return wait_for(proc_spawn(argv, log)); }

/* Runs ARGV to completion with our stdout and stderr in LOG; returns its wait status. */
int proc_run_stderr(char *const argv[], const char *log) {
  return wait_for(spawn(argv, log, -1, 0));
}

/* Describes a failed wait status: "exit status N" or "killed by signal N (NAME)". */
char *proc_status(int st) {
  if (WIFEXITED(st))
    return fmt("exit status %d", WEXITSTATUS(st));
  if (WIFSIGNALED(st))
    return fmt("killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
  return fmt("wait status %#x", st);
}
