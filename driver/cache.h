/* cache: compiled shard objects and whole outputs, keyed by what determines their bytes. */
#ifndef SHARD_CACHE_H
#define SHARD_CACHE_H

#include <stdint.h>

/* A cache key: XXH3-128 of everything that determines an object's bytes. */
struct cache_key {
  uint64_t lo, hi;
};

/* Incremental key building. */
struct cache_hasher;
struct cache_hasher *cache_hasher_new(const char *kind);
void cache_hash_str(struct cache_hasher *h, const char *s);
void cache_hash_file(struct cache_hasher *h, const char *path);
void cache_hash_tool(struct cache_hasher *h, const char *path);
struct cache_key cache_hasher_done(struct cache_hasher *h);

int cache_open(const char *dir, unsigned long long max_bytes, int verbose);
int cache_on(void);
int cache_get(struct cache_key k, const char *dst);
void cache_put(struct cache_key k, const char *src);
void cache_trim(void);
void cache_counts(int *hits, int *misses);

#endif
