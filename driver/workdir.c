/* workdir: the work directory (temporary, or --keep-temps DIR) and the temporary outputs,
   removed at exit unless kept or published. */
#define _XOPEN_SOURCE 700
#include "workdir.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *dir;    /* the work directory */
static int keep;     /* --keep-temps: leave DIR in place */
static char *tmpout; /* output temp file to remove on failure, or NULL */

/* Removes the temporary output and (unless kept) the work directory (at exit). */
void work_cleanup(void) {
  if (tmpout)
    unlink(tmpout);
  if (dir && !keep)
    rm_tree(dir);
}

/* Makes --keep-temps DIR (and its missing parents) or dies saying why. */
static void make_kept(const char *path) {
  struct stat st;
  char *bad = mkdirs(path);
  if (bad)
    die("cannot create directory '%s': %s", bad, strerror(errno));
  if (stat(path, &st) < 0)
    die("cannot use '%s' as a directory: %s", path, strerror(errno));
  if (!S_ISDIR(st.st_mode))
    die("cannot use '%s' as a directory: %s", path, strerror(ENOTDIR));
}

/* Makes the work directory: --keep-temps DIR, or a fresh mkdtemp in --work-dir DIR (made if
   missing), else in $TMPDIR. */
void work_init(const struct opts *o) {
  if (o->keep) {
    make_kept(o->keep);
    dir = xstrdup(o->keep);
    keep = 1;
    /* A stale manifest from an earlier run must not be mistaken for this run's. */
    char *m = work_path("manifest");
    unlink(m);
    free(m);
  } else {
    const char *t = o->work_root ? o->work_root : getenv("TMPDIR");
    if (o->work_root)
      make_kept(o->work_root);
    char *tmpl = fmt("%s/shard-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmpl)) /* named by its parent: mkdtemp leaves TMPL undefined */
      die("cannot create a temporary directory in '%s': %s (%s)", t && *t ? t : "/tmp",
          strerror(errno), o->work_root ? "use another --work-dir" : "set TMPDIR");
    dir = tmpl;
  }
  /* The directory is passed inside the pass pipeline text, which these characters split. */
  if (strpbrk(dir, ",()<>"))
    die("work directory '%s' contains one of ,()<> which opt's pass pipeline cannot carry", dir);
}

/* Returns the work directory. */
const char *work_dir(void) { return dir; }

/* Returns the path of NAME inside the work directory. */
char *work_path(const char *name) { return fmt("%s/%s", dir, name); }

/* Returns the name of a temporary file next to PATH (in its directory, so that renaming it
   onto PATH is atomic); for a special PATH, in $TMPDIR (its directory may be /dev). */
char *work_tmp_name(const char *path) {
  const char *t = getenv("TMPDIR");
  if (special_file(path))
    return fmt("%s/shard-out-%ld", t && *t ? t : "/tmp", (long)getpid());
  return fmt("%s.shard-tmp-%ld", path, (long)getpid());
}

/* Puts the complete output TMP in place of OUT: renamed onto it, or, where OUT is special,
   written into it and removed; 0, or -1 with errno set. */
int work_publish(const char *tmp, const char *out) {
  if (!special_file(out))
    return rename(tmp, out);
  int in = open(tmp, O_RDONLY | O_CLOEXEC), fd = open(out, O_WRONLY | O_CLOEXEC), rc = -1;
  char buf[65536];
  ssize_t n = 0;
  while (in >= 0 && fd >= 0 && (n = read(in, buf, sizeof buf)) > 0 && write_all(fd, buf, n) == 0)
    ;
  if (in >= 0 && fd >= 0 && n == 0)
    rc = 0;
  int e = errno;
  if (fd >= 0 && close(fd) < 0 && !rc)
    rc = -1, e = errno;
  if (in >= 0)
    close(in);
  if (!rc)
    unlink(tmp);
  errno = e;
  return rc;
}

/* Records the output temp file so that it is removed if we fail (NULL once renamed). */
void work_set_tmpout(const char *path) {
  free(tmpout);
  tmpout = path ? xstrdup(path) : NULL;
}
