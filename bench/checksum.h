/* What the SQLite workloads (bench/workload.c, speedtest.c, functions.c) print: a 64-bit
 * FNV-1a checksum of every value they read, and the count of rows read. Each includes it once. */
#ifndef SHARD_BENCH_CHECKSUM_H
#define SHARD_BENCH_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

static uint64_t checksum = 1469598103934665603ULL; /* FNV-1a 64 offset basis */
static unsigned long long rows_seen;

/* Adds N bytes at P to the checksum. */
static void hash_bytes(const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    checksum ^= b[i];
    checksum *= 1099511628211ULL;
  }
}

#endif
