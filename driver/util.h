/* util: error reporting, allocation, strings and file helpers shared by the driver (it uses
   nothing else of it). */
#ifndef SHARD_UTIL_H
#define SHARD_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdnoreturn.h>

/* A growable NULL-terminated argument vector. */
struct argv {
  char **v;
  int n, cap;
};

#define PRINTF(a, b) __attribute__((format(printf, a, b)))

PRINTF(1, 2) noreturn void die(const char *fmt, ...);
PRINTF(2, 3) noreturn void die_log(const char *log, const char *fmt, ...);
PRINTF(2, 3) noreturn void die_status(int status, const char *fmt, ...);
void set_usage(const char *usage);
PRINTF(1, 2) noreturn void die_usage(const char *fmt, ...);
void vwarn(const char *fmt, va_list ap);
PRINTF(1, 2) void warn(const char *fmt, ...);
PRINTF(1, 2) void note(const char *fmt, ...);
void print_file(const char *path);
void status_progress(int done, int total, int running);
void status_break(void);
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
PRINTF(1, 2) char *fmt(const char *fmt, ...);
void av_push(struct argv *a, const char *s);
void av_take(struct argv *a, char *s);
PRINTF(2, 3) void av_pushf(struct argv *a, const char *f, ...);
void av_free(struct argv *a);
char *av_join(char *const *v);
double now(void);
char *mkdirs(const char *path);
int rm_tree(const char *path);
char *self_exe(void);
int write_all(int fd, const char *p, size_t len);
int special_file(const char *path);
char *read_file(const char *path, size_t *n);
char *rewrite_file(const char *path, const char *data, size_t n);

#endif
