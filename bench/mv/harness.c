/* Timing harness of the multiversioning benchmark (bench/mv.sh).
 *
 *   harness [-r REPS] [-t MS] [-k NAME,NAME...]     time and checksum the kernels
 *   harness --list                                  print "kernel NAME GROUP FUNCTION" per kernel
 *   harness --cpu                                   print which x86-64 levels the CPU has
 *
 * For each kernel: inputs are built from a fixed seed, the kernel runs once and its
 * results are checksummed ("sum NAME HEX": every build must print the same); then
 * the number of calls that takes about MS milliseconds is calibrated, and the call
 * is timed REPS times over that many calls; the best repetition is printed as
 * "time NAME NS_PER_CALL CALLS_PER_REP". Inputs stay in L1/L2 (at most ~64 KiB). */
#define _POSIX_C_SOURCE 200809L
#include "kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- Deterministic inputs ------------------------------------------------- */

static uint64_t rng_state;
static void seed(uint64_t s) { rng_state = s * 0x9E3779B97F4A7C15ull + 1; }
static uint64_t rnd(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1Dull;
}
static uint32_t rndn(uint32_t n) { return (uint32_t)((rnd() >> 32) % n); }

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}
#define FNV0 1469598103934665603ull

/* ---- Buffers ------------------------------------------------------------- */

enum {
  NV = 2048,    /* element-wise kernels: two or three arrays of 8 KiB */
  NR = 4096,    /* 32-bit reductions: 16 KiB */
  ND = 2048,    /* 64-bit data: 16 KiB */
  SW = 64,      /* stencil width */
  SH = 48,      /* stencil height: 12 KiB per grid */
  MM = 32,      /* matmul order: 4 KiB per matrix */
  NP = 1024,    /* polynomial: two arrays of 8 KiB */
  TEXT = 16384, /* parser input */
  NODES = 4096, /* list: 64 KiB, shuffled */
  KEYS = 2048,  /* hash table: keys inserted, 4096 slots, 2048 lookups (half present) */
  SLOTS = 4096,
};

/* Every array lives in one page-aligned arena, at the same offsets in every build
 * (so that data alignment cannot differ between builds), and consecutive arrays
 * are staggered by 5 cache lines, so that the same index of two arrays never has
 * the same address modulo 4 KiB (4K aliasing, L1 set and way-predictor conflicts
 * made the baseline saxpy vary by up to 1.7x from process to process). */
static unsigned char arena[1 << 20] __attribute__((aligned(4096)));
static size_t arena_used;
static void *take(size_t bytes) {
  void *p = arena + arena_used;
  arena_used += (bytes + 63) / 64 * 64 + 5 * 64;
  if (arena_used > sizeof arena) {
    fprintf(stderr, "harness: arena too small\n");
    exit(1);
  }
  return p;
}

static float *fx, *fy, *fa, *fb;
static uint32_t *ua, *ub, *uc;
static int32_t *ia, iout[2];
static float *sin_, *sout;
static float *ma, *mb, *mc;
static double *dx, *dy, *da;
static uint64_t *qa;
static unsigned char *text;
static struct node *nodes;
static struct node *head;
static char (*keypool)[32], (*copies)[32];
static const char **keys, **queries, **slots;
static struct strtab table;

static void alloc_all(void) {
  fx = take(NV * sizeof *fx), fy = take(NV * sizeof *fy);
  fa = take(NR * sizeof *fa), fb = take(NR * sizeof *fb);
  ua = take(NR * sizeof *ua), ub = take(NV * sizeof *ub), uc = take(NV * sizeof *uc);
  ia = take(NR * sizeof *ia);
  sin_ = take(SW * SH * sizeof *sin_), sout = take(SW * SH * sizeof *sout);
  ma = take(MM * MM * sizeof *ma), mb = take(MM * MM * sizeof *mb), mc = take(MM * MM * sizeof *mc);
  dx = take(NP * sizeof *dx), dy = take(NP * sizeof *dy), da = take(ND * sizeof *da);
  qa = take(ND * sizeof *qa);
  text = take(TEXT);
  nodes = take(NODES * sizeof *nodes);
  keypool = take(2 * KEYS * sizeof *keypool), copies = take(KEYS * sizeof *copies);
  keys = take(KEYS * sizeof *keys), queries = take(KEYS * sizeof *queries);
  slots = take(SLOTS * sizeof *slots);
  table.slots = slots, table.mask = SLOTS - 1;
}
static uint64_t ret; /* a kernel's return value */
static volatile uint64_t sink;

/* ---- Kernels: setup (inputs), run (one call), check (checksum of results) ---- */

static void setup_saxpy(void) {
  seed(1);
  for (int i = 0; i < NV; i++)
    fx[i] = (float)rndn(16), fy[i] = (float)rndn(16);
}
static void run_saxpy(void) { k_saxpy(fy, fx, 0.5f, NV); }
static uint64_t check_saxpy(void) { return fnv(FNV0, fy, NV * sizeof *fy); }

static void setup_imadd(void) {
  seed(2);
  for (int i = 0; i < NV; i++)
    ua[i] = (uint32_t)rnd(), ub[i] = (uint32_t)rnd(), uc[i] = (uint32_t)rnd();
}
static void run_imadd(void) { k_imadd(uc, ua, ub, NV); }
static uint64_t check_imadd(void) { return fnv(FNV0, uc, NV * sizeof *uc); }

static void setup_minmax(void) {
  seed(3);
  for (int i = 0; i < NR; i++)
    ia[i] = (int32_t)(uint32_t)rnd();
}
static void run_minmax(void) { k_minmax(ia, NR, iout); }
static uint64_t check_minmax(void) { return fnv(FNV0, iout, sizeof iout); }

static void setup_stencil(void) {
  seed(4);
  for (int i = 0; i < SW * SH; i++)
    sin_[i] = (float)rndn(16), sout[i] = 0;
}
static void run_stencil(void) { k_stencil(sout, sin_, SW, SH); }
static uint64_t check_stencil(void) { return fnv(FNV0, sout, SW * SH * sizeof *sout); }

static void setup_matmul(void) {
  seed(5);
  for (int i = 0; i < MM * MM; i++)
    ma[i] = (float)rndn(8), mb[i] = (float)rndn(8);
}
static void run_matmul(void) { k_matmul(mc, ma, mb, MM); }
static uint64_t check_matmul(void) { return fnv(FNV0, mc, MM * MM * sizeof *mc); }

static void setup_poly(void) {
  seed(6);
  for (int i = 0; i < NP; i++)
    dx[i] = ((double)rndn(64) - 32) / 16; /* [-2, 2) in steps of 1/16: Horner is exact */
}
static void run_poly(void) { k_poly(dy, dx, NP); }
static uint64_t check_poly(void) { return fnv(FNV0, dy, NP * sizeof *dy); }

static void setup_dsum(void) {
  seed(7);
  for (int i = 0; i < ND; i++)
    da[i] = ((double)rndn(1024) - 512) / 8;
}
static void run_dsum(void) {
  double s = k_dsum(da, ND);
  memcpy(&ret, &s, sizeof s);
}
static uint64_t check_dsum(void) { return fnv(FNV0, &ret, sizeof ret); }

static void setup_fdot(void) {
  seed(8);
  for (int i = 0; i < NR; i++)
    fa[i] = (float)rndn(8), fb[i] = (float)rndn(8);
}
static void run_fdot(void) {
  float s = k_fdot(fa, fb, NR);
  uint32_t u;
  memcpy(&u, &s, sizeof u);
  ret = u;
}
static uint64_t check_fdot(void) { return fnv(FNV0, &ret, sizeof ret); }

static void setup_popcount(void) {
  seed(9);
  for (int i = 0; i < ND; i++)
    qa[i] = rnd();
}
static void run_popcount(void) { ret = k_popcount(qa, ND); }
static uint64_t check_popcount(void) { return fnv(FNV0, &ret, sizeof ret); }

static void setup_clz(void) {
  seed(10);
  for (int i = 0; i < NR; i++)
    ua[i] = (uint32_t)rnd() >> rndn(32);
}
static void run_clz(void) { ret = k_clz(ua, NR); }
static uint64_t check_clz(void) { return fnv(FNV0, &ret, sizeof ret); }

static void setup_bitscan(void) {
  seed(11);
  for (int i = 0; i < ND; i++) /* about 8 set bits per word */
    qa[i] = rnd() & rnd() & rnd();
}
static void run_bitscan(void) { ret = k_bitscan(qa, ND); }
static uint64_t check_bitscan(void) { return fnv(FNV0, &ret, sizeof ret); }

static void setup_varshift(void) {
  seed(12);
  for (int i = 0; i < NV; i++)
    ua[i] = (uint32_t)rnd(), ub[i] = (uint32_t)rnd() & 1023, uc[i] = 0;
}
static void run_varshift(void) { k_varshift(uc, ua, ub, NV); }
static uint64_t check_varshift(void) { return fnv(FNV0, uc, NV * sizeof *uc); }

static void setup_parse(void) {
  static const char ops[] = "+-*=<>(){};,.!&|";
  seed(13);
  size_t n = 0;
  while (n < TEXT - 64) {
    char *o = (char *)text + n;
    int k = (int)rndn(100), len = 0;
    if (k < 30) { /* identifier */
      int l = 1 + (int)rndn(10);
      for (int i = 0; i < l; i++)
        o[len++] = i && rndn(4) == 0 ? (char)('0' + rndn(10)) : (char)('a' + rndn(26));
    } else if (k < 45) { /* number */
      int l = 1 + (int)rndn(6);
      for (int i = 0; i < l; i++)
        o[len++] = (char)('0' + rndn(10));
    } else if (k < 52) { /* string with escapes */
      int l = (int)rndn(16);
      o[len++] = '"';
      for (int i = 0; i < l; i++) {
        if (rndn(6) == 0)
          o[len++] = '\\', o[len++] = "n\"t\\"[rndn(4)];
        else
          o[len++] = (char)('a' + rndn(26));
      }
      o[len++] = '"';
    } else if (k < 55) { /* line comment */
      len = sprintf(o, "// c%u\n", rndn(1000));
    } else if (k < 57) { /* block comment */
      len = sprintf(o, "/* b%u ** x */", rndn(1000));
    } else if (k < 75) { /* operator, sometimes a lone '/' */
      o[len++] = rndn(10) == 0 ? '/' : ops[rndn(sizeof ops - 1)];
    } else if (k < 92) {
      o[len++] = ' ';
    } else {
      o[len++] = '\n';
    }
    n += (size_t)len;
  }
  memset(text + n, ' ', TEXT - n);
}
static void run_parse(void) { ret = k_parse(text, TEXT); }
static uint64_t check_parse(void) { return fnv(FNV0, &ret, sizeof ret); }

static void setup_listwalk(void) {
  static int perm[NODES];
  seed(14);
  for (int i = 0; i < NODES; i++)
    perm[i] = i;
  for (int i = NODES - 1; i > 0; i--) {
    int j = (int)rndn((uint32_t)i + 1), t = perm[i];
    perm[i] = perm[j], perm[j] = t;
  }
  for (int i = 0; i < NODES; i++) {
    nodes[perm[i]].v = (int64_t)(rnd() >> 40);
    nodes[perm[i]].next = i + 1 < NODES ? &nodes[perm[i + 1]] : NULL;
  }
  head = &nodes[perm[0]];
}
static void run_listwalk(void) { ret = (uint64_t)k_listwalk(head); }
static uint64_t check_listwalk(void) { return fnv(FNV0, &ret, sizeof ret); }

static void setup_hash(void) {
  static const char *const prefixes[] = {"config.", "config.section.", "user_", "item-0000", "x"};
  seed(15);
  for (int i = 0; i < 2 * KEYS; i++) /* distinct: the index is part of every key */
    snprintf(keypool[i], sizeof keypool[i], "%s%x_%u", prefixes[rndn(5)], (unsigned)i * 2654435761u,
             rndn(100));
  for (int i = 0; i < KEYS; i++)
    keys[i] = keypool[i];
  /* Queries: half present (a separate copy, so strcmp compares bytes), half absent. */
  for (int i = 0; i < KEYS; i++) {
    int j = (int)rndn(KEYS);
    if (i & 1) {
      memcpy(copies[i], keypool[j], sizeof copies[i]);
      queries[i] = copies[i];
    } else {
      queries[i] = keypool[KEYS + j];
    }
  }
  memset(slots, 0, SLOTS * sizeof *slots);
  k_hash_insert(&table, keys, KEYS);
}
static void run_hash(void) { ret = k_hash_lookup(&table, queries, KEYS); }
static uint64_t check_hash(void) {
  uint64_t h = fnv(FNV0, &ret, sizeof ret);
  for (int i = 0; i < SLOTS; i++) {
    int64_t k = slots[i] ? (slots[i] - keypool[0]) / 32 : -1;
    h = fnv(h, &k, sizeof k);
  }
  return h;
}

struct bench {
  const char *name, *group, *func; /* func: the kernels.c function that is timed */
  void (*setup)(void), (*run)(void);
  uint64_t (*check)(void);
};
#define B(n, g) {#n, g, "k_" #n, setup_##n, run_##n, check_##n}
static const struct bench benches[] = {
    B(saxpy, "vector"),
    B(imadd, "vector"),
    B(minmax, "vector"),
    B(stencil, "vector"),
    B(matmul, "vector"),
    B(poly, "fp"),
    B(dsum, "fp"),
    B(fdot, "fp"),
    B(popcount, "bits"),
    B(clz, "bits"),
    B(bitscan, "bits"),
    B(varshift, "bits"),
    B(parse, "scalar"),
    B(listwalk, "scalar"),
    {"hash", "scalar", "k_hash_lookup", setup_hash, run_hash, check_hash},
};
enum { NBENCH = sizeof benches / sizeof benches[0] };

/* ---- Timing -------------------------------------------------------------- */

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double time_calls(void (*run)(void), long calls) {
  double t0 = now_ns();
  for (long i = 0; i < calls; i++)
    run();
  return now_ns() - t0;
}

static int selected(const char *list, const char *name) {
  if (!list)
    return 1;
  size_t n = strlen(name);
  for (const char *p = list; (p = strstr(p, name)); p += n)
    if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == 0))
      return 1;
  return 0;
}

int main(int argc, char **argv) {
  int reps = 5;
  double rep_ms = 20;
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-r") && i + 1 < argc) {
      reps = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "-t") && i + 1 < argc) {
      rep_ms = atof(argv[++i]);
    } else if (!strcmp(argv[i], "-k") && i + 1 < argc) {
      only = argv[++i];
    } else if (!strcmp(argv[i], "--list")) {
      for (int k = 0; k < NBENCH; k++)
        printf("kernel %s %s %s\n", benches[k].name, benches[k].group, benches[k].func);
      return 0;
    } else if (!strcmp(argv[i], "--cpu")) {
      __builtin_cpu_init();
      printf("cpu x86-64-v2=%d x86-64-v3=%d x86-64-v4=%d\n", !!__builtin_cpu_supports("x86-64-v2"),
             !!__builtin_cpu_supports("x86-64-v3"), !!__builtin_cpu_supports("x86-64-v4"));
      return 0;
    } else {
      fprintf(stderr, "usage: %s [-r REPS] [-t MS] [-k NAME,...] | --list | --cpu\n", argv[0]);
      return 2;
    }
  }
  if (reps < 1 || rep_ms <= 0) {
    fprintf(stderr, "harness: bad -r or -t\n");
    return 2;
  }
  alloc_all();
  for (int k = 0; k < NBENCH; k++) {
    const struct bench *b = &benches[k];
    if (!selected(only, b->name))
      continue;
    b->setup();
    b->run();
    printf("sum %s %016llx\n", b->name, (unsigned long long)b->check());
    /* Calibrate: double the calls until a batch takes an eighth of a repetition. */
    double target = rep_ms * 1e6, t;
    long calls = 1;
    while ((t = time_calls(b->run, calls)) < target / 8 && calls < (1L << 40))
      calls *= 2;
    calls = (long)((double)calls * target / (t > 1 ? t : 1));
    if (calls < 1)
      calls = 1;
    double best = 1e300;
    for (int r = 0; r < reps; r++) {
      t = time_calls(b->run, calls) / (double)calls;
      if (t < best)
        best = t;
    }
    sink = ret;
    printf("time %s %.3f %ld\n", b->name, best, calls);
    fflush(stdout);
  }
  return 0;
}
