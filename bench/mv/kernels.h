/* Kernels of the multiversioning benchmark (bench/mv.sh). kernels.c is the file
 * that each build compiles differently (baseline, Shard multiversioning, -march=);
 * harness.c prepares inputs, times the kernels and checksums their results. */
#ifndef SHARD_BENCH_MV_KERNELS_H
#define SHARD_BENCH_MV_KERNELS_H

#include <stdint.h>

/* Vectorisable loops. */
void k_saxpy(float *restrict y, const float *restrict x, float a, int n);
void k_imadd(uint32_t *restrict c, const uint32_t *restrict a, const uint32_t *restrict b, int n);
void k_minmax(const int32_t *restrict a, int n, int32_t *restrict out /* [2]: min, max */);
void k_stencil(float *restrict out, const float *restrict in, int w, int h);
void k_matmul(float *restrict c, const float *restrict a, const float *restrict b, int n);

/* Floating-point math (strict: no -ffast-math; clang's default -ffp-contract=on). */
void k_poly(double *restrict y, const double *restrict x, int n);
double k_dsum(const double *a, int n);
float k_fdot(const float *a, const float *b, int n);

/* Bit operations. */
uint64_t k_popcount(const uint64_t *a, int n);
uint64_t k_clz(const uint32_t *a, int n);
uint64_t k_bitscan(const uint64_t *a, int n);
void k_varshift(uint32_t *restrict c, const uint32_t *restrict a, const uint32_t *restrict s,
                int n);

/* Code that no x86-64 level should change. */
uint64_t k_parse(const unsigned char *p, long n);
struct node {
  struct node *next;
  int64_t v;
};
int64_t k_listwalk(const struct node *p);
struct strtab {
  const char **slots; /* mask + 1 slots, NULL when empty */
  uint32_t mask;
};
void k_hash_insert(struct strtab *t, const char *const *keys, int n);
uint64_t k_hash_lookup(const struct strtab *t, const char *const *q, int n);

#endif
