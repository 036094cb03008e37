/* preflight: what a pipeline description needs from the file system before any work. First
   preflight_resolve fills in the plugin and the allocator (a --malloc library that cannot be
   used is a usage error: exit 2); then preflight_check makes sure the input, the outputs, the
   tools, the launcher and the plugin are usable (exit 1), each with a clear message. */
#define _XOPEN_SOURCE 700
#include "preflight.h"
#include "job.h"
#include "ninja.h"
#include "preload.h"
#include "slurm.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Returns the default plugin path, <dir of the executable>/../lib/ShardPlugin.so, written
   without the ".." (build/bin/shard -> build/lib/ShardPlugin.so). */
static char *default_plugin(void) {
  char *self = self_exe();
  if (!self)
    return xstrdup("../lib/ShardPlugin.so");
  for (int up = 0; up < 2; up++) {
    char *slash = strrchr(self, '/');
    if (slash)
      *slash = 0;
  }
  char *p = fmt("%s/lib/ShardPlugin.so", self);
  free(self);
  return p;
}

/* Returns the absolute path of the allocator to preload for --malloc V (NULL: auto), or NULL
   for none; a usage error when V cannot be read or preloaded. */
static const char *malloc_choice(const char *v) {
  if (!v || !strcmp(v, "auto"))
    return preload_find();
  if (!*v || !strcmp(v, "none"))
    return NULL;
  char *path = realpath(v, NULL);
  if (!path)
    die_usage("cannot read the --malloc library '%s': %s", v, strerror(errno));
  if (strpbrk(path, " \t:"))
    die_usage("cannot preload '%s': LD_PRELOAD cannot name a path with a blank or ':'", path);
  if (access(path, R_OK))
    die_usage("cannot read the --malloc library '%s': %s", v, strerror(errno));
  return path;
}

/* Fills in what the front end left to the file system: the default plugin and the allocator
   to preload. */
void preflight_resolve(struct opts *o) {
  if (!o->plugin)
    o->plugin = default_plugin();
  o->malloc_lib = malloc_choice(o->malloc_arg);
}

/* The path of program NAME: NAME itself when it contains a '/', else the first executable
   NAME in $PATH (as a shell would find it); NULL with errno set when there is none. */
static char *find_program(const char *name) {
  if (strchr(name, '/')) {
    if (access(name, X_OK) == 0)
      return xstrdup(name);
    return NULL;
  }
  const char *path = getenv("PATH");
  char *dirs = xstrdup(path && *path ? path : "/usr/bin:/bin"), *save = NULL;
  for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
    char *p = fmt("%s/%s", *d ? d : ".", name);
    if (access(p, X_OK) == 0)
      return p;
    free(p);
  }
  errno = ENOENT;
  return NULL;
}

/* Dies unless PATH can be created or replaced: its directory is writable and PATH is not
   a directory. */
static void check_writable(const char *path) {
  struct stat st;
  char *d = xstrdup(path), *slash = strrchr(d, '/');
  const char *dir = slash ? (slash == d ? "/" : (*slash = 0, d)) : ".";
  if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
    die("cannot write '%s': %s", path, strerror(ENOTDIR));
  if (access(dir, W_OK | X_OK) < 0)
    die("cannot write '%s': %s", path, strerror(errno));
  free(d);
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    die("cannot write '%s': %s", path, strerror(EISDIR));
}

/* Dies unless the input can be read (and is not a directory). */
static void check_input(const char *input) {
  struct stat st;
  int fd = open(input, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    die("cannot read '%s': %s", input, strerror(errno));
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
    die("cannot read '%s': %s", input, strerror(EISDIR));
  close(fd);
}

/* Dies unless every LLVM tool the jobs run is an executable in the tools directory. */
static void check_tools(const char *bindir) {
  struct stat st;
  for (const char *const *n = job_tools; *n; n++) {
    char *t = fmt("%s/%s", bindir, *n);
    int err = access(t, X_OK) < 0 ? errno : stat(t, &st) == 0 && S_ISDIR(st.st_mode) ? EISDIR : 0;
    if (err)
      die("cannot find LLVM tool '%s': %s (use --llvm-bindir DIR)", t, strerror(err));
    free(t);
  }
}

/* Checks before any work that the input, the output directory, the tools and the plugin are
   usable, so that the common mistakes fail fast with a clear message; finds the launcher
   and srun (and settles --executor slurm's default -j). */
void preflight_check(struct opts *o) {
  if (!o->frontend) /* else the front end writes it */
    check_input(o->input);
  check_writable(o->out);
  if (o->report)
    check_writable(o->report);
  if (o->trace)
    check_writable(o->trace);
  if (o->ninja) {
    check_writable(o->ninja);
    ninja_check(o);
  }
  check_tools(o->bindir);
  if (o->launcher) {
    char *l = find_program(o->launcher[0]);
    if (!l)
      die("cannot find the launcher '%s': %s", o->launcher[0], strerror(errno));
    o->launcher[0] = l;
  }
  if (o->executor == EXEC_SLURM && !(o->srun = find_program("srun")))
    die("--executor slurm: cannot find 'srun': %s (install Slurm's client commands)",
        strerror(errno));
  if (o->executor == EXEC_SLURM && !o->jobs_given)
    slurm_default_jobs(o);
  if (access(o->plugin, R_OK) < 0)
    die("cannot find the plugin '%s': %s (use --plugin PATH)", o->plugin, strerror(errno));
}
