/* treerss: run a command and report the peak of the memory of its whole process tree, summed over
 * the processes alive at the same moment (bench/compare.sh's memory measurement).
 *
 *   treerss [-i MS] -o FILE -- COMMAND [ARG...]
 *
 * Starts COMMAND, and every MS milliseconds (default 20) until it exits, walks the tree of COMMAND
 * and all its descendants (/proc/PID/task/TID/children, or a scan of /proc where the kernel lacks
 * that file) and sums each process's resident set from /proc/PID/statm. At the end FILE gets one
 * line:
 *
 *   PEAK_SUM_RSS_KB PEAK_SUM_ANON_KB PEAK_PROCESSES SAMPLES
 *
 * PEAK_SUM_RSS_KB is the largest sum of RSS seen in one sample; RSS counts pages of a shared
 * library (such as libLLVM) once per process that maps it. PEAK_SUM_ANON_KB is the largest sum of
 * RSS minus the file-backed and shared part (statm's "shared" field): the private memory, which
 * does not double-count libraries. Processes that live less than one interval may be missed. Exits
 * with COMMAND's status (128+signal when it was killed by one; 127 when it could not be started).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PIDS 65536

static long page_kb;
static int have_children_files;
static pid_t seen[MAX_PIDS];
static int nseen;

/* Adds PID's RSS and private RSS (KB) to *rss and *anon. */
static void add_mem(pid_t pid, long long *rss, long long *anon) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f)
    return; /* gone meanwhile */
  long long size, res, shared;
  if (fscanf(f, "%lld %lld %lld", &size, &res, &shared) == 3) {
    *rss += res * page_kb;
    *anon += (res - shared) * page_kb;
  }
  fclose(f);
}

static int already(pid_t pid) {
  for (int i = 0; i < nseen; i++)
    if (seen[i] == pid)
      return 1;
  return 0;
}

/* Depth-first over /proc/PID/task/TID/children: every thread may have started children. */
static void walk_children(pid_t pid, long long *rss, long long *anon) {
  if (nseen >= MAX_PIDS || already(pid))
    return;
  seen[nseen++] = pid;
  add_mem(pid, rss, anon);
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
  DIR *d = opendir(path);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9')
      continue;
    char cpath[128];
    snprintf(cpath, sizeof cpath, "/proc/%d/task/%s/children", (int)pid, e->d_name);
    FILE *f = fopen(cpath, "r");
    if (!f)
      continue;
    int child;
    pid_t kids[1024];
    int nk = 0;
    while (nk < 1024 && fscanf(f, "%d", &child) == 1)
      kids[nk++] = (pid_t)child;
    fclose(f);
    for (int i = 0; i < nk; i++)
      walk_children(kids[i], rss, anon);
  }
  closedir(d);
}

/* Fallback: read every /proc/PID/stat for its parent, then sum the tree under root. */
static pid_t scan_pid[MAX_PIDS], scan_ppid[MAX_PIDS];
static int nscan;

static void walk_scan(pid_t pid, long long *rss, long long *anon) {
  if (nseen >= MAX_PIDS || already(pid))
    return;
  seen[nseen++] = pid;
  add_mem(pid, rss, anon);
  for (int i = 0; i < nscan; i++)
    if (scan_ppid[i] == pid)
      walk_scan(scan_pid[i], rss, anon);
}

static void scan_proc(void) {
  nscan = 0;
  DIR *d = opendir("/proc");
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d)) && nscan < MAX_PIDS) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9')
      continue;
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f)
      continue;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *rp = strrchr(buf, ')'); /* the command name may contain spaces and parentheses */
    int ppid;
    char state;
    if (!rp || sscanf(rp + 1, " %c %d", &state, &ppid) != 2)
      continue;
    scan_pid[nscan] = (pid_t)atoi(e->d_name);
    scan_ppid[nscan] = (pid_t)ppid;
    nscan++;
  }
  closedir(d);
}

static void usage(void) {
  fprintf(stderr, "usage: treerss [-i MS] -o FILE -- COMMAND [ARG...]\n");
  exit(2);
}

int main(int argc, char **argv) {
  long interval_ms = 20;
  const char *out = NULL;
  int i = 1;
  for (; i < argc; i++) {
    if (!strcmp(argv[i], "--")) {
      i++;
      break;
    }
    if (!strcmp(argv[i], "-i") && i + 1 < argc)
      interval_ms = atol(argv[++i]);
    else if (!strcmp(argv[i], "-o") && i + 1 < argc)
      out = argv[++i];
    else
      usage();
  }
  if (!out || i >= argc || interval_ms <= 0)
    usage();
  page_kb = sysconf(_SC_PAGESIZE) / 1024;
  char self_children[64];
  snprintf(self_children, sizeof self_children, "/proc/%d/task/%d/children", (int)getpid(),
           (int)getpid());
  have_children_files = access(self_children, R_OK) == 0;

  pid_t child = fork();
  if (child < 0) {
    perror("treerss: fork");
    return 127;
  }
  if (child == 0) {
    execvp(argv[i], argv + i);
    fprintf(stderr, "treerss: cannot run %s: %s\n", argv[i], strerror(errno));
    _exit(127);
  }
  /* The command gets the terminal's signals itself (same process group); don't die before it. */
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, SIG_IGN);

  long long peak_rss = 0, peak_anon = 0, samples = 0;
  int peak_procs = 0, status = 0;
  struct timespec ts = {interval_ms / 1000, (interval_ms % 1000) * 1000000L};
  for (;;) {
    pid_t r = waitpid(child, &status, WNOHANG);
    if (r == child)
      break;
    if (r < 0 && errno != EINTR) {
      perror("treerss: waitpid");
      return 127;
    }
    long long rss = 0, anon = 0;
    nseen = 0;
    if (have_children_files)
      walk_children(child, &rss, &anon);
    else {
      scan_proc();
      walk_scan(child, &rss, &anon);
    }
    samples++;
    if (rss > peak_rss)
      peak_rss = rss;
    if (anon > peak_anon)
      peak_anon = anon;
    if (nseen > peak_procs)
      peak_procs = nseen;
    nanosleep(&ts, NULL);
  }
  FILE *f = fopen(out, "w");
  if (!f || fprintf(f, "%lld %lld %d %lld\n", peak_rss, peak_anon, peak_procs, samples) < 0 ||
      fclose(f)) {
    fprintf(stderr, "treerss: cannot write %s\n", out);
    return 127;
  }
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}
