/* cache: compiled shard objects and whole outputs, keyed by what determines their bytes.

   An entry is DIR/ab/<32 hex digits>.o: the object followed by a trailer (8 bytes of magic
   and the XXH3-128 of the object), so that a damaged entry is found, removed and treated as
   a miss. Entries are written to a temporary file in DIR and renamed into place, so that
   several drivers can share one cache: a reader sees a whole entry or none. A hit refreshes
   the entry's modification time; cache_trim removes the least recently used entries while
   the cache is over its size, under an flock on DIR/lock (skipped while another driver
   holds it). The cache is an optimisation: when it cannot be written the build goes on.
   The compiler's diagnostics of an object, when it printed any, are an entry of their own
   (its key derived from the object's), so that a hit prints them as the compile did. */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE /* flock */
#include "cache.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#define MAGIC "SHRDC001"
#define TRAILER (8 + 16)

static struct cache drv; /* the driver's cache (cache_open) */

struct cache_hasher {
  XXH3_state_t *st;
};

/* Prints one warning about C and goes on without storing (first failure only; none for a
   quiet cache). */
PRINTF(2, 3) static void warn_once(struct cache *c, const char *f, ...) {
  if (c->warned++ || c->quiet)
    return;
  va_list ap;
  va_start(ap, f);
  vwarn(f, ap);
  va_end(ap);
}

/* Starts a key for entries of KIND ("shard", "output"), under this format's version. */
struct cache_hasher *cache_hasher_new(const char *kind) {
  struct cache_hasher *h = xmalloc(sizeof *h);
  h->st = XXH3_createState();
  if (!h->st)
    die("out of memory");
  XXH3_128bits_reset(h->st);
  cache_hash_str(h, "shard-cache 1");
  cache_hash_str(h, kind);
  return h;
}

/* Adds a string, with its terminating NUL so that fields cannot run together. */
void cache_hash_str(struct cache_hasher *h, const char *s) {
  XXH3_128bits_update(h->st, s, strlen(s) + 1);
}

/* Adds the SIZE bytes of DATA and their length, as cache_hash_file adds a file's. */
void cache_hash_buf(struct cache_hasher *h, const char *data, size_t size) {
  unsigned long long len = size;
  XXH3_128bits_update(h->st, data, size);
  XXH3_128bits_update(h->st, &len, sizeof len);
}

/* Adds the bytes of the file at PATH (and its length). */
void cache_hash_file(struct cache_hasher *h, const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    die("cannot read '%s': %s", path, strerror(errno));
  char buf[1 << 16];
  unsigned long long len = 0;
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) != 0) {
    if (n < 0) {
      if (errno == EINTR)
        continue;
      die("cannot read '%s': %s", path, strerror(errno));
    }
    XXH3_128bits_update(h->st, buf, (size_t)n);
    len += (unsigned long long)n;
  }
  close(fd);
  XXH3_128bits_update(h->st, &len, sizeof len);
}

/* Adds a tool's identity as ccache's default compiler check does: its real path, size and
   modification time (a package upgrade changes them). */
void cache_hash_tool(struct cache_hasher *h, const char *path) {
  char real[PATH_MAX];
  struct stat st;
  if (!realpath(path, real) || stat(real, &st) < 0) {
    cache_hash_str(h, "missing");
    cache_hash_str(h, path);
    return;
  }
  char *id = fmt("%s %lld %lld.%09ld", real, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                 st.st_mtim.tv_nsec);
  cache_hash_str(h, id);
  free(id);
}

/* Finishes the key and frees H. */
struct cache_key cache_hasher_done(struct cache_hasher *h) {
  XXH128_hash_t r = XXH3_128bits_digest(h->st);
  XXH3_freeState(h->st);
  free(h);
  return (struct cache_key){r.low64, r.high64};
}

/* Turns cache C on in DIR (created if missing) with a size cap and MASK, the umask for its
   entries; returns whether it is on. A directory that cannot be made gives a warning (none
   when QUIET) and no cache. */
int cache_init(struct cache *c, const char *dir, unsigned long long max, int v, int quiet,
               mode_t mask) {
  struct stat st;
  char *bad = mkdirs(dir);
  *c = (struct cache){.max_bytes = max, .verbose = v, .quiet = quiet, .mask = mask};
  if (bad || stat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) < 0) {
    warn_once(c, "cache directory '%s' is not usable (%s); compiling without the cache", dir,
              strerror(errno ? errno : ENOTDIR));
    free(bad);
    return 0;
  }
  c->root = xstrdup(dir);
  return 1;
}

/* Frees what C holds. */
void cache_done(struct cache *c) {
  free(c->root);
  c->root = NULL;
}

/* Turns the driver's cache on in DIR (created if missing) with a size cap; returns whether
   it is on. A directory that cannot be made gives a warning and no cache. */
int cache_open(const char *dir, unsigned long long max, int v) {
  mode_t mask = umask(0);
  umask(mask);
  return cache_init(&drv, dir, max, v, 0, mask);
}

/* Whether the cache is on. */
int cache_on(void) { return drv.root != NULL; }

/* The entry path of K in C. */
static char *entry_path(const struct cache *c, struct cache_key k) {
  return fmt("%s/%02x/%016llx%016llx.o", c->root, (unsigned)(k.hi >> 56),
             (unsigned long long)k.hi, (unsigned long long)k.lo);
}

/* Reads the whole file FD into a new buffer; returns it and its length in *LEN, or NULL. */
static char *slurp(int fd, size_t *len) {
  struct stat st;
  if (fstat(fd, &st) < 0)
    return NULL;
  size_t n = (size_t)st.st_size, got = 0;
  char *buf = xmalloc(n + 1);
  while (got < n) {
    ssize_t r = read(fd, buf + got, n - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      free(buf);
      return NULL;
    }
    got += (size_t)r;
  }
  *len = n;
  return buf;
}

/* Reads entry K's object of C into *DATA (a new buffer) and *SIZE and returns 1 (a hit), or
   returns 0 (a miss). A damaged entry is removed, with a warning, and is a miss. */
int cache_get_mem(struct cache *c, struct cache_key k, char **data, size_t *size) {
  if (!c->root)
    return 0;
  char *path = entry_path(c, k);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  size_t len = 0;
  char *buf = fd < 0 ? NULL : slurp(fd, &len);
  if (fd >= 0)
    close(fd);
  if (!buf) {
    free(path);
    c->misses++;
    return 0;
  }
  XXH128_hash_t sum = len >= TRAILER ? XXH3_128bits(buf, len - TRAILER) : (XXH128_hash_t){0, 0};
  XXH128_canonical_t want;
  XXH128_canonicalFromHash(&want, sum);
  if (len < TRAILER || memcmp(buf + len - TRAILER, MAGIC, 8) || memcmp(buf + len - 16, &want, 16)) {
    if (!c->quiet)
      warn("removed the damaged cache entry '%s'", path);
    unlink(path);
    free(buf);
    free(path);
    c->misses++;
    return 0;
  }
  utimensat(AT_FDCWD, path, NULL, 0); /* recently used */
  free(path);
  c->hits++;
  *data = buf;
  *size = len - TRAILER;
  return 1;
}

/* Copies entry K's object to DST and returns 1 (a hit), or returns 0 (a miss). */
int cache_get(struct cache_key k, const char *dst) {
  char *buf;
  size_t len;
  if (!cache_get_mem(&drv, k, &buf, &len))
    return 0;
  int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (out < 0 || write_all(out, buf, len) < 0 || close(out) < 0)
    die("cannot write '%s': %s", dst, strerror(errno));
  free(buf);
  return 1;
}

/* Stores the LEN bytes of BUF as entry K of C (atomically); failures warn and are otherwise
   ignored. */
void cache_put_mem(struct cache *c, struct cache_key k, const char *buf, size_t len) {
  if (!c->root)
    return;
  char *path = entry_path(c, k), *sub = xstrdup(path), *tmp = fmt("%s/tmp.XXXXXX", c->root);
  *strrchr(sub, '/') = 0;
  int fd = -1;
  if ((mkdir(sub, 0777) < 0 && errno != EEXIST) || (fd = mkstemp(tmp)) < 0) {
    warn_once(c, "cannot write to the cache in '%s': %s", c->root, strerror(errno));
  } else {
    XXH128_canonical_t sum;
    XXH128_canonicalFromHash(&sum, XXH3_128bits(buf, len));
    int bad = write_all(fd, buf, len) < 0 || write_all(fd, MAGIC, 8) < 0 ||
              write_all(fd, (const char *)&sum, 16) < 0;
    bad |= close(fd) < 0;
    if (!bad && chmod(tmp, 0666 & ~c->mask) == 0 && rename(tmp, path) == 0)
      c->stores++;
    else {
      warn_once(c, "cannot write to the cache in '%s': %s", c->root, strerror(errno));
      unlink(tmp);
    }
  }
  free(path);
  free(sub);
  free(tmp);
}

/* Stores the object SRC as entry K (atomically); failures warn and are otherwise ignored. */
void cache_put(struct cache_key k, const char *src) {
  if (!drv.root)
    return;
  int in = open(src, O_RDONLY | O_CLOEXEC);
  size_t len = 0;
  char *buf = in < 0 ? NULL : slurp(in, &len);
  if (in >= 0)
    close(in);
  if (!buf)
    warn_once(&drv, "cannot read '%s' for the cache: %s", src, strerror(errno));
  else
    cache_put_mem(&drv, k, buf, len);
  free(buf);
}

/* The key of the diagnostics stored with object entry K. */
static struct cache_key log_key(struct cache_key k) {
  XXH128_hash_t h = XXH3_128bits_withSeed(&k, sizeof k, 0x6c6f67); /* "log" */
  return (struct cache_key){h.low64, h.high64};
}

/* Stores the file LOG, the diagnostics the compile of object entry K printed, with it when
   it holds any. */
void cache_put_log(struct cache_key k, const char *log) {
  struct stat st;
  if (drv.root && stat(log, &st) == 0 && st.st_size > 0) {
    int stores = drv.stores;
    cache_put(log_key(k), log);
    drv.stores = stores;
  }
}

/* Writes to the file LOG the diagnostics stored with object entry K (nothing when there are
   none); neither a hit nor a miss. */
void cache_get_log(struct cache_key k, const char *log) {
  int hits = drv.hits, misses = drv.misses;
  cache_get(log_key(k), log);
  drv.hits = hits, drv.misses = misses;
}

/* One file of the cache, for eviction. */
struct entry {
  char *path;
  unsigned long long size;
  struct timespec used;
};

/* Orders entries least recently used first, then by path. */
static int by_use(const void *a, const void *b) {
  const struct entry *x = a, *y = b;
  if (x->used.tv_sec != y->used.tv_sec)
    return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
  if (x->used.tv_nsec != y->used.tv_nsec)
    return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
  return strcmp(x->path, y->path);
}

/* Lists the entries of DIR/xx/ into *ES; removes temporary files older than an hour (left
   by a driver that was killed) on the way. Returns the total size. */
static unsigned long long scan(const char *root, struct entry **es, size_t *n) {
  size_t cap = 0;
  unsigned long long total = 0;
  time_t stale = time(NULL) - 3600;
  DIR *d = opendir(root);
  struct dirent *e;
  *es = NULL;
  *n = 0;
  while (d && (e = readdir(d))) {
    char *p = fmt("%s/%s", root, e->d_name);
    struct stat st;
    if (!strncmp(e->d_name, "tmp.", 4) && stat(p, &st) == 0 && st.st_mtime < stale)
      unlink(p);
    DIR *sd = strlen(e->d_name) == 2 && e->d_name[0] != '.' ? opendir(p) : NULL;
    struct dirent *f;
    while (sd && (f = readdir(sd))) {
      char *q = fmt("%s/%s", p, f->d_name);
      if (f->d_name[0] == '.' || stat(q, &st) < 0 || !S_ISREG(st.st_mode)) {
        free(q);
        continue;
      }
      if (*n == cap)
        *es = xrealloc(*es, (cap = cap ? 2 * cap : 256) * sizeof **es);
      (*es)[(*n)++] = (struct entry){q, (unsigned long long)st.st_size, st.st_mtim};
      total += (unsigned long long)st.st_size;
    }
    if (sd)
      closedir(sd);
    free(p);
  }
  if (d)
    closedir(d);
  return total;
}

/* After a run that stored entries in C: while the cache is over its size, removes the least
   recently used entries until it is at 90% of it. Skipped while another driver trims. */
void cache_trim_in(struct cache *c) {
  if (!c->root || !c->stores)
    return;
  char *lp = fmt("%s/lock", c->root);
  int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  free(lp);
  if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0) {
    if (fd >= 0)
      close(fd);
    return;
  }
  struct entry *es;
  size_t n, removed = 0;
  unsigned long long total = scan(c->root, &es, &n);
  if (total > c->max_bytes) {
    qsort(es, n, sizeof *es, by_use);
    for (size_t i = 0; i < n && total > c->max_bytes / 10 * 9; i++)
      if (unlink(es[i].path) == 0)
        total -= es[i].size, removed++;
  }
  if (c->verbose && removed)
    note("cache: removed %zu least recently used entr%s to stay under %llu bytes", removed,
         removed == 1 ? "y" : "ies", c->max_bytes);
  for (size_t i = 0; i < n; i++)
    free(es[i].path);
  free(es);
  close(fd); /* releases the lock */
}

/* Trims the driver's cache (cache_trim_in). */
void cache_trim(void) { cache_trim_in(&drv); }

/* The hits and misses of this run. */
void cache_counts(int *h, int *m) {
  *h = drv.hits;
  *m = drv.misses;
}
