/* Kernels of the multiversioning benchmark (bench/mv.sh): the one file that each
 * build compiles differently. Every kernel is an external function called from
 * harness.c (another translation unit), so each is a candidate for cloning on
 * its own.
 *
 * Floating-point kernels are strict C (no -ffast-math; clang's default
 * -ffp-contract=on, so a*b+c may become an FMA where the target has one). The
 * harness feeds them small integers and short binary fractions, for which every
 * product and sum is exact: fused and unfused evaluation give the same bits, and
 * every build prints the same checksums. */
#include "kernels.h"

#include <string.h>

/* ---- Vectorisable loops ------------------------------------------------------ */

/* y = a*x + y: 256-bit vectors and FMA at x86-64-v3. */
void k_saxpy(float *restrict y, const float *restrict x, float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

/* c += a*b on 32-bit integers: SSE2 has no 32-bit vector multiply (PMULLD is SSE4.1). */
void k_imadd(uint32_t *restrict c, const uint32_t *restrict a, const uint32_t *restrict b, int n) {
  for (int i = 0; i < n; i++)
    c[i] += a[i] * b[i];
}

/* Signed 32-bit min and max reduction: PMINSD/PMAXSD are SSE4.1. */
void k_minmax(const int32_t *restrict a, int n, int32_t *restrict out) {
  int32_t mn = INT32_MAX, mx = INT32_MIN;
  for (int i = 0; i < n; i++) {
    mn = a[i] < mn ? a[i] : mn;
    mx = a[i] > mx ? a[i] : mx;
  }
  out[0] = mn;
  out[1] = mx;
}

/* 2-D five-point stencil on floats (interior points). */
void k_stencil(float *restrict out, const float *restrict in, int w, int h) {
  for (int y = 1; y < h - 1; y++)
    for (int x = 1; x < w - 1; x++) {
      int c = y * w + x;
      out[c] = 0.5f * in[c] + 0.125f * (in[c - 1] + in[c + 1] + in[c - w] + in[c + w]);
    }
}

/* Small dense matrix product c = a*b, n x n floats, i-k-j order (the j loop vectorises). */
void k_matmul(float *restrict c, const float *restrict a, const float *restrict b, int n) {
  for (int i = 0; i < n * n; i++)
    c[i] = 0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++) {
      float aik = a[i * n + k];
      for (int j = 0; j < n; j++)
        c[i * n + j] += aik * b[k * n + j];
    }
}

/* ---- Floating-point math ---------------------------------------------------- */

/* Degree-7 polynomial by Horner's rule, per element (vectorises; FMA at x86-64-v3). */
void k_poly(double *restrict y, const double *restrict x, int n) {
  for (int i = 0; i < n; i++) {
    double t = x[i];
    y[i] =
        ((((((0.0078125 * t - 0.046875) * t + 0.125) * t - 0.25) * t + 0.5) * t - 1.5) * t + 2.25) *
            t -
        3.0;
  }
}

/* Strict double sum: without reassociation it cannot vectorise; no target helps. */
double k_dsum(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

/* Strict float dot product: a loop-carried chain of s = fmuladd(a, b, s). With FMA
 * (x86-64-v3) each step waits for a fused multiply-add (4 cycles on Zen 4) instead of
 * an add (3 cycles), the multiply being off the chain: x86-64-v3 is slower. */
float k_fdot(const float *a, const float *b, int n) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

/* ---- Bit operations ---------------------------------------------------------- */

/* POPCNT is x86-64-v2; the vectorised form uses PSHUFB (SSSE3, v2) or VPSHUFB (v3). */
uint64_t k_popcount(const uint64_t *a, int n) {
  uint64_t s = 0;
  for (int i = 0; i < n; i++)
    s += (uint64_t)__builtin_popcountll(a[i]);
  return s;
}

/* Count leading zeros: BSR at the baseline, LZCNT at v3, VPLZCNTD (AVX-512 CD) at v4. */
uint64_t k_clz(const uint32_t *a, int n) {
  uint64_t s = 0;
  for (int i = 0; i < n; i++)
    s += (uint64_t)__builtin_clz(a[i] | 1u);
  return s;
}

/* Bit-scan loop: visit the set bits of each word (TZCNT and BLSR at v3). */
uint64_t k_bitscan(const uint64_t *a, int n) {
  uint64_t s = 0;
  for (int i = 0; i < n; i++) {
    uint64_t w = a[i];
    while (w) {
      s += (uint64_t)__builtin_ctzll(w) ^ (uint64_t)i;
      w &= w - 1;
    }
  }
  return s;
}

/* Variable shifts: per-element shift counts (VPSLLVD/VPSRLVD are AVX2). */
void k_varshift(uint32_t *restrict c, const uint32_t *restrict a, const uint32_t *restrict s,
                int n) {
  for (int i = 0; i < n; i++)
    c[i] = (a[i] << (s[i] & 31)) ^ (a[i] >> ((s[i] >> 5) & 31));
}

/* ---- Code that should not change ------------------------------------------- */

/* A tokenizer as a state machine: identifiers, numbers, strings with escapes,
 * line and block comments, operators. Returns a hash of what it saw. */
enum { S_START, S_IDENT, S_NUM, S_STR, S_STR_ESC, S_SLASH, S_LINE, S_BLOCK, S_BLOCK_STAR };

uint64_t k_parse(const unsigned char *p, long n) {
  uint64_t h = 1469598103934665603ull, num = 0, sum = 0;
  uint64_t idents = 0, nums = 0, strs = 0, ops = 0, lines = 1, comments = 0;
  int st = S_START;
  for (long i = 0; i < n; i++) {
    unsigned c = p[i];
  again:
    switch (st) {
    case S_START:
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
        st = S_IDENT;
        h = (h ^ c) * 1099511628211ull;
      } else if (c >= '0' && c <= '9') {
        st = S_NUM;
        num = c - '0';
      } else if (c == '"') {
        st = S_STR;
        strs++;
      } else if (c == '/') {
        st = S_SLASH;
      } else if (c == '\n') {
        lines++;
      } else if (c != ' ' && c != '\t') {
        ops = ops * 31 + c;
      }
      break;
    case S_IDENT:
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9')) {
        h = (h ^ c) * 1099511628211ull;
      } else {
        idents++;
        st = S_START;
        goto again;
      }
      break;
    case S_NUM:
      if (c >= '0' && c <= '9') {
        num = num * 10 + (c - '0');
      } else {
        nums++;
        sum += num;
        st = S_START;
        goto again;
      }
      break;
    case S_STR:
      if (c == '\\')
        st = S_STR_ESC;
      else if (c == '"')
        st = S_START;
      else
        h += c;
      break;
    case S_STR_ESC:
      h = h * 3 + (c == 'n' ? 10 : c);
      st = S_STR;
      break;
    case S_SLASH:
      if (c == '/') {
        st = S_LINE;
        comments++;
      } else if (c == '*') {
        st = S_BLOCK;
        comments++;
      } else {
        ops = ops * 31 + '/';
        st = S_START;
        goto again;
      }
      break;
    case S_LINE:
      if (c == '\n') {
        lines++;
        st = S_START;
      }
      break;
    case S_BLOCK:
      if (c == '*')
        st = S_BLOCK_STAR;
      else if (c == '\n')
        lines++;
      break;
    case S_BLOCK_STAR:
      if (c == '/')
        st = S_START;
      else if (c != '*') {
        st = S_BLOCK;
        goto again;
      }
      break;
    }
  }
  return h ^ (sum * 7) ^ (idents << 8) ^ (nums << 16) ^ (strs << 24) ^ (ops << 3) ^ (lines << 32) ^
         (comments << 40);
}

/* Pointer chasing through a shuffled list. */
int64_t k_listwalk(const struct node *p) {
  int64_t s = 0;
  for (; p; p = p->next)
    s += p->v;
  return s;
}

/* Open-addressing string table (linear probing), FNV-1a hash, strcmp on probe. */
static uint32_t fnv1a(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

void k_hash_insert(struct strtab *t, const char *const *keys, int n) {
  for (int i = 0; i < n; i++) {
    uint32_t j = fnv1a(keys[i]) & t->mask;
    while (t->slots[j] && strcmp(t->slots[j], keys[i]) != 0)
      j = (j + 1) & t->mask;
    t->slots[j] = keys[i];
  }
}

uint64_t k_hash_lookup(const struct strtab *t, const char *const *q, int n) {
  uint64_t found = 0;
  for (int i = 0; i < n; i++) {
    uint32_t j = fnv1a(q[i]) & t->mask;
    for (;;) {
      const char *s = t->slots[j];
      if (!s)
        break;
      if (strcmp(s, q[i]) == 0) {
        found += j + 1;
        break;
      }
      j = (j + 1) & t->mask;
    }
  }
  return found;
}
