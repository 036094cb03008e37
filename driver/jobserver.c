/* jobserver: a client of the GNU make (and ninja) jobserver named in MAKEFLAGS.
   make 4.3 passes --jobserver-auth=R,W (the fds of a pipe; --jobserver-fds=R,W before 4.2),
   make 4.4 and ninja 1.13 --jobserver-auth=fifo:PATH. Every client holds one implicit slot;
   each byte it reads from the jobserver is one more slot, and goes back (the same byte) as
   soon as it is not needed, or at exit (main's atexit cleanup). The token list is touched
   only outside signal handlers: SIGINT, SIGTERM, SIGHUP and SIGQUIT end in exit(), which runs the
   cleanup. */
#define _XOPEN_SOURCE 700
#include "jobserver.h"
#include "pool.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct jobserver drv = JOBSERVER_INIT; /* the driver's (the js_ functions) */

/* Returns the value of the last --jobserver-auth= or --jobserver-fds= word of MAKEFLAGS (a
   new string, backslash escapes undone), or NULL. Words after "--" are variable settings. */
static char *auth_arg(void) {
  const char *s = getenv("MAKEFLAGS");
  char *last = NULL;
  if (!s)
    return NULL;
  char *w = xmalloc(strlen(s) + 1);
  while (*s) {
    size_t n = 0;
    while (*s == ' ' || *s == '\t')
      s++;
    if (!*s)
      break;
    while (*s && *s != ' ' && *s != '\t') {
      if (*s == '\\' && s[1])
        s++;
      w[n++] = *s++;
    }
    w[n] = 0;
    if (!strcmp(w, "--"))
      break;
    const char *v = !strncmp(w, "--jobserver-auth=", 17)  ? w + 17
                    : !strncmp(w, "--jobserver-fds=", 16) ? w + 16
                                                          : NULL;
    if (v) {
      free(last);
      last = xstrdup(v);
    }
  }
  free(w);
  return last;
}

/* Why FD cannot be the jobserver pipe's end for MODE (O_RDONLY or O_WRONLY), or NULL. make
   still advertises the fds to recipe lines it closed them for, where they may be unused or
   reused for something else. */
static char *bad_fd(int fd, int mode, struct stat *st) {
  int fl = fd < 0 || fcntl(fd, F_GETFD) < 0 ? -1 : fcntl(fd, F_GETFL);
  if (fl < 0)
    return fmt("fd %d is not open (make closes it for recipe lines without '+' or $(MAKE))", fd);
  if (fstat(fd, st) < 0 || !S_ISFIFO(st->st_mode))
    return fmt("fd %d is not a pipe", fd);
  if ((fl & O_ACCMODE) != O_RDWR && (fl & O_ACCMODE) != mode)
    return fmt("fd %d is not open for %s", fd, mode == O_RDONLY ? "reading" : "writing");
  return NULL;
}

/* Parses a non-negative fd number ending at END; -1 when it is not one. */
static int fd_num(const char *s, const char **end) {
  char *e;
  errno = 0;
  long v = strtol(s, &e, 10);
  *end = e;
  return e == s || errno || v < 0 || v > INT_MAX ? -1 : (int)v;
}

/* Uses the pipe fds "R,W" for J; returns why not, or NULL. */
static char *open_fds(struct jobserver *j, const char *a) {
  const char *end;
  struct stat rs, ws;
  int r = fd_num(a, &end), w = -1;
  if (r >= 0 && *end == ',')
    w = fd_num(end + 1, &end);
  if (r < 0 || w < 0 || *end)
    return fmt("unsupported form");
  char *why = bad_fd(r, O_RDONLY, &rs);
  if (!why)
    why = bad_fd(w, O_WRONLY, &ws);
  if (!why && (rs.st_dev != ws.st_dev || rs.st_ino != ws.st_ino))
    why = fmt("fds %d and %d are not the same pipe", r, w);
  if (why)
    return why;
  /* O_NONBLOCK on a dup() would change make's own reads too: open a new description. */
  char *p = fmt("/proc/self/fd/%d", r);
  j->rfd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (j->rfd < 0)
    why = fmt("cannot open '%s': %s", p, strerror(errno));
  free(p);
  j->wfd = w;
  return why;
}

/* Uses the named pipe PATH for J; returns why not, or NULL. */
static char *open_fifo(struct jobserver *j, const char *path) {
  struct stat st;
  if (stat(path, &st) < 0)
    return fmt("cannot open '%s': %s", path, strerror(errno));
  if (!S_ISFIFO(st.st_mode))
    return fmt("'%s' is not a fifo", path);
  j->rfd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (j->rfd < 0)
    return fmt("cannot open '%s': %s", path, strerror(errno));
  /* Does not wait for a reader: RFD is one. */
  j->wfd = open(path, O_WRONLY | O_CLOEXEC);
  if (j->wfd < 0)
    return fmt("cannot open '%s' for writing: %s", path, strerror(errno));
  j->wfd_ours = 1;
  return NULL;
}

/* Connects J to the jobserver MAKEFLAGS names, if any; returns 1 when it is usable. A
   missing or unusable one is not an error: -j applies (-v says why). */
int jobserver_open(struct jobserver *j, int verbose) {
  char *a = auth_arg();
  if (!a)
    return 0;
  char *why = !strncmp(a, "fifo:", 5) ? open_fifo(j, a + 5) : open_fds(j, a);
  if (why) {
    jobserver_close(j);
    if (verbose)
      note("ignoring the jobserver in MAKEFLAGS (%s): %s; using -j", a, why);
    free(why);
  } else if (verbose) {
    note("using the jobserver in MAKEFLAGS (%s)", a);
  }
  free(a);
  return j->rfd >= 0;
}

/* Gives back J's tokens and closes what it opened. */
void jobserver_close(struct jobserver *j) {
  jobserver_put_all(j);
  if (j->rfd >= 0)
    close(j->rfd);
  if (j->wfd_ours)
    close(j->wfd);
  free(j->toks);
  *j = (struct jobserver)JOBSERVER_INIT;
}

/* The fd that polls readable when a token of J may be free, or -1 when none can come. */
int jobserver_fd(const struct jobserver *j) { return j->rfd >= 0 && !j->dead ? j->rfd : -1; }

/* Takes one more token of J if one is free now (never waits); returns 1 if it did. */
int jobserver_get(struct jobserver *j) {
  unsigned char c;
  if (jobserver_fd(j) < 0)
    return 0;
  if (j->ntoks == j->captoks) { /* before reading: a token read must never be dropped */
    j->captoks = j->captoks ? 2 * j->captoks : 16;
    j->toks = xrealloc(j->toks, j->captoks);
  }
  for (;;) {
    ssize_t n = read(j->rfd, &c, 1);
    if (n == 1) {
      j->toks[j->ntoks++] = c;
      return 1;
    }
    if (n < 0 && errno == EINTR)
      continue;
    if (n == 0 || errno != EAGAIN)
      j->dead = 1;
    return 0;
  }
}

/* Gives back J's token taken last, writing the byte it was. */
void jobserver_put(struct jobserver *j) {
  if (!j->ntoks)
    return;
  unsigned char c = j->toks[--j->ntoks];
  for (;;) {
    if (write(j->wfd, &c, 1) == 1)
      return;
    if (errno == EAGAIN) { /* a non-blocking pipe that is full: wait for room */
      struct pollfd p = {.fd = j->wfd, .events = POLLOUT};
      poll(&p, 1, -1);
    } else if (errno != EINTR) {
      return; /* nobody left to give it to */
    }
  }
}

/* Gives back every token J holds. */
void jobserver_put_all(struct jobserver *j) {
  while (j->ntoks)
    jobserver_put(j);
}

/* The driver's jobserver: connects to the one MAKEFLAGS names (jobserver_open); without
   one, with POOL, takes the machine's job slots (pool.c) as its tokens. */
int js_init(int verbose, int pool) {
  return jobserver_open(&drv, verbose) || (pool && pool_open(verbose));
}

/* Whether a jobserver (or the machine's pool) is in use. */
int js_active(void) { return drv.rfd >= 0 || pool_active(); }

/* The fd that polls readable when a token may be free, or -1 when none can come (the pool's
   slots are asked for again as the run's own jobs end). */
int js_fd(void) { return jobserver_fd(&drv); }

/* The number of tokens held (besides the implicit slot). */
int js_held(void) { return pool_active() ? pool_held() : drv.ntoks; }

/* Takes one more token if one is free now (never waits); returns 1 if it did. */
int js_get(void) { return pool_active() ? pool_get() : jobserver_get(&drv); }

/* Gives back the token taken last, writing the byte it was. */
void js_put(void) {
  if (pool_active())
    pool_put();
  else
    jobserver_put(&drv);
}

/* Gives back every token held (at the end of a phase, and at exit). */
void js_put_all(void) {
  while (js_held())
    js_put();
}
