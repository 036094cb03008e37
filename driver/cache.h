/* cache: compiled shard objects and whole outputs, keyed by what determines their bytes. */
#ifndef SHARD_CACHE_H
#define SHARD_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A cache key: XXH3-128 of everything that determines an object's bytes. */
struct cache_key {
  uint64_t lo, hi;
};

/* Incremental key building. */
struct cache_hasher;
struct cache_hasher *cache_hasher_new(const char *kind);
void cache_hash_str(struct cache_hasher *h, const char *s);
void cache_hash_buf(struct cache_hasher *h, const char *data, size_t size);
void cache_hash_file(struct cache_hasher *h, const char *path);
void cache_hash_tool(struct cache_hasher *h, const char *path);
struct cache_key cache_hasher_done(struct cache_hasher *h);

/* One cache directory and what a run did with it: the driver has one (cache_open and the
   functions without a cache argument use it), each library call its own. */
struct cache {
  char *root; /* the cache directory, NULL when off */
  unsigned long long max_bytes;
  int verbose, quiet, hits, misses, stores, warned;
  mode_t mask; /* the umask: entries are as readable as other files */
};

int cache_init(struct cache *c, const char *dir, unsigned long long max, int verbose, int quiet,
               mode_t mask);
void cache_done(struct cache *c);
int cache_get_mem(struct cache *c, struct cache_key k, char **data, size_t *size);
void cache_put_mem(struct cache *c, struct cache_key k, const char *buf, size_t len);
void cache_trim_in(struct cache *c);

int cache_open(const char *dir, unsigned long long max_bytes, int verbose);
int cache_on(void);
int cache_get(struct cache_key k, const char *dst);
void cache_put(struct cache_key k, const char *src);
void cache_put_log(struct cache_key k, const char *log);
void cache_get_log(struct cache_key k, const char *log);
void cache_trim(void);
void cache_counts(int *hits, int *misses);

#endif
