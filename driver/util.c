/* util: error reporting, allocation, strings and file helpers shared by the driver (it uses
   nothing else of it). */
#define _XOPEN_SOURCE 700
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

static const char *usage; /* the front end's usage text, printed after a usage error */

/* Prints "shard: KIND MSG" to stderr (KIND: "error: ", "warning: " or "" for notes). */
static void say(const char *kind, const char *f, va_list ap) {
  fputs("shard: ", stderr);
  fputs(kind, stderr);
  vfprintf(stderr, f, ap);
  fputc('\n', stderr);
}

/* Reports an error and exits 1; atexit handlers stop children and remove temporaries. */
noreturn void die(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  say("error: ", f, ap);
  va_end(ap);
  exit(1);
}

/* Like die(), then shows the contents of LOG (a child's captured stderr). The log lives in
   the work directory: when that file system is full, the tool's own message (and the log)
   may be lost, so that is said. */
noreturn void die_log(const char *log, const char *f, ...) {
  va_list ap;
  struct statvfs fs;
  va_start(ap, f);
  say("error: ", f, ap);
  va_end(ap);
  print_file(log);
  if (statvfs(log, &fs) == 0 && fs.f_bavail == 0)
    fprintf(stderr, "shard: error: no space left on the file system of '%s'\n", log);
  exit(1);
}

/* Like die(), with exit status STATUS (128 + a signal when interrupted). */
noreturn void die_status(int status, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  say("error: ", f, ap);
  va_end(ap);
  exit(status);
}

/* Sets the text die_usage() prints after the error: the front end's usage and a hint. */
void set_usage(const char *text) { usage = text; }

/* Reports a usage error, then the front end's usage text, and exits 2 (before any work). */
noreturn void die_usage(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  say("error: ", f, ap);
  va_end(ap);
  if (usage)
    fputs(usage, stderr);
  exit(2);
}

/* Prints "shard: warning: MSG" to stderr (from a va_list). */
void vwarn(const char *f, va_list ap) { say("warning: ", f, ap); }

/* Prints "shard: warning: MSG" to stderr: a problem the run goes on without. */
void warn(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  vwarn(f, ap);
  va_end(ap);
}

/* Prints "shard: MSG" to stderr (verbose output). */
void note(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  say("", f, ap);
  va_end(ap);
}

/* Copies a file to stderr, ending it with a newline; silent if it is missing or empty. */
void print_file(const char *path) {
  char buf[4096];
  ssize_t n;
  char last = '\n';
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  fflush(stderr);
  while ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
    if (n > 0) {
      fwrite(buf, 1, n, stderr);
      last = buf[n - 1];
    }
  }
  if (last != '\n')
    fputc('\n', stderr);
  close(fd);
}

/* malloc that dies when memory runs out. */
void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    die("out of memory");
  return p;
}

/* calloc (N zeroed elements of SIZE bytes) that dies when memory runs out. */
void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    die("out of memory");
  return p;
}

/* realloc that dies when memory runs out. */
void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p)
    die("out of memory");
  return p;
}

/* strdup that dies when memory runs out. */
char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

/* Formats into a new heap string. */
static char *vfmt(const char *f, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, f, ap2);
  va_end(ap2);
  if (n < 0)
    die("bad format string");
  char *s = xmalloc(n + 1);
  vsnprintf(s, n + 1, f, ap);
  return s;
}

/* printf into a new heap string. */
char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  char *s = vfmt(f, ap);
  va_end(ap);
  return s;
}

/* Appends a copy of S to the vector, keeping it NULL-terminated. */
void av_push(struct argv *a, const char *s) {
  if (a->n + 2 > a->cap) {
    a->cap = a->cap ? 2 * a->cap : 16;
    a->v = xrealloc(a->v, a->cap * sizeof *a->v);
  }
  a->v[a->n++] = xstrdup(s);
  a->v[a->n] = NULL;
}

/* Appends S itself (a heap string the vector then owns), keeping it NULL-terminated. */
void av_take(struct argv *a, char *s) {
  av_push(a, s);
  free(s);
}

/* Appends a formatted argument. */
void av_pushf(struct argv *a, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  char *s = vfmt(f, ap);
  va_end(ap);
  av_take(a, s);
}

/* Frees the vector and its strings. */
void av_free(struct argv *a) {
  for (int i = 0; i < a->n; i++)
    free(a->v[i]);
  free(a->v);
  *a = (struct argv){0};
}

/* Joins a NULL-terminated vector with spaces (for -v output). */
char *av_join(char *const *v) {
  size_t n = 1;
  for (int i = 0; v[i]; i++)
    n += strlen(v[i]) + 1;
  char *s = xmalloc(n), *p = s;
  for (int i = 0; v[i]; i++) {
    if (i)
      *p++ = ' ';
    p = stpcpy(p, v[i]);
  }
  *p = 0;
  return s;
}

/* Monotonic time in seconds. */
double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Creates PATH and its missing parents (like mkdir -p); returns NULL, or the directory that
   could not be created (a new string) with errno set. */
char *mkdirs(const char *path) {
  char *p = xstrdup(path);
  for (char *s = p + (*p != 0);; s++) {
    if (*s && *s != '/')
      continue;
    char c = *s;
    *s = 0;
    if (mkdir(p, 0777) < 0 && errno != EEXIST)
      return p;
    if (!c)
      break;
    *s = c;
  }
  free(p);
  return NULL;
}

/* nftw callback: removes one entry (children come first with FTW_DEPTH). */
static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)ftw;
  return flag == FTW_DP ? rmdir(p) : unlink(p);
}

/* Removes a directory tree (like rm -rf); returns 0 on success. */
int rm_tree(const char *path) { return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS); }

/* The path of the running shard binary (a new string), or NULL with errno set. */
char *self_exe(void) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return NULL;
  buf[n] = 0;
  return xstrdup(buf);
}

/* Writes LEN bytes to FD; returns 0 or -1 with errno set. */
int write_all(int fd, const char *p, size_t len) {
  while (len > 0) {
    ssize_t w = write(fd, p, len);
    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0)
      return -1;
    p += w;
    len -= (size_t)w;
  }
  return 0;
}

/* Reads file PATH whole into a NUL-terminated buffer (*N bytes); NULL (errno set) when it
   cannot. */
char *read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, len = 0, r;
  char *b = xmalloc(cap + 1);
  while ((r = fread(b + len, 1, cap - len, f)) > 0)
    if ((len += r) == cap)
      b = xrealloc(b, (cap *= 2) + 1);
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(b);
    errno = EIO;
    return NULL;
  }
  b[len] = 0;
  *n = len;
  return b;
}

/* Writes the N bytes of DATA over file PATH (created or truncated); NULL, or why not. */
char *rewrite_file(const char *path, const char *data, size_t n) {
  FILE *f = fopen(path, "wb");
  int bad = !f || fwrite(data, 1, n, f) != n;
  if ((f && fclose(f)) || bad)
    return fmt("cannot write '%s': %s", path, strerror(errno));
  return NULL;
}

/* Whether PATH names something other than a regular file (/dev/null, a FIFO): an output to
   write into, as clang does, never to replace. */
int special_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

static int status_on; /* a status line is on the terminal: errors start a new line */

/* The ninja-style status line "[done/total] compiling shards (running)", rewritten in place on
   stderr (the caller knows it is a terminal); a newline once all are done. */
void status_progress(int done, int total, int running) {
  status_on = done < total;
  fprintf(stderr, "\r[%d/%d] compiling shards (%d running)\x1b[K", done, total, running);
  if (done == total)
    fputc('\n', stderr);
  fflush(stderr);
}

/* Ends a status line left on the terminal, so that a message starts on a line of its own. */
void status_break(void) {
  if (status_on)
    fputc('\n', stderr);
  status_on = 0;
}
