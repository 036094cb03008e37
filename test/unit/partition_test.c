/* Unit tests of passes/partition/partition.c: prints "N passed, N failed" and exits nonzero on failure. */
#include "partition/partition.h"

#include <stdio.h>

static int passed, failed;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (cond) {                                                                                    \
      passed++;                                                                                    \
    } else {                                                                                       \
      failed++;                                                                                    \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                     \
    }                                                                                              \
  } while (0)

static void test_union_find(void) {
  uint32_t p[6];
  shard_uf_init(p, 6);
  shard_uf_union(p, 4, 2);
  shard_uf_union(p, 5, 4);
  CHECK(shard_uf_find(p, 5) == 2);
  CHECK(shard_uf_find(p, 4) == 2);
  CHECK(shard_uf_find(p, 3) == 3);
  shard_uf_union(p, 0, 5);
  CHECK(shard_uf_find(p, 2) == 0);
  CHECK(shard_uf_find(p, 1) == 1);
}

static void test_auto_count(void) {
  CHECK(shard_auto_count(0) == 1);
  CHECK(shard_auto_count(1) == 1);
  CHECK(shard_auto_count(SHARD_TARGET_COST) == 1);
  CHECK(shard_auto_count(SHARD_TARGET_COST + 1) == 2);
  CHECK(shard_auto_count((uint64_t)SHARD_TARGET_COST * 3) == 4);
  CHECK(shard_auto_count((uint64_t)SHARD_TARGET_COST * 12 + 1) == 16);
  CHECK(shard_auto_count((uint64_t)SHARD_TARGET_COST * 16) == 16);
  CHECK(shard_auto_count((uint64_t)SHARD_TARGET_COST * 1000) == SHARD_MAX_AUTO);
}

static void test_assign_balance(void) {
  /* Without edges: largest first onto the least-loaded shard, equal loads to the
   * lowest: 10->0, 8->1, 5->1 (13), 4->0 (14), 3->1 (16). */
  uint64_t cost[] = {4, 10, 3, 8, 5};
  struct shard_graph g = {5, 0, cost, NULL, NULL, NULL};
  unsigned shard[5];
  uint64_t load[2];
  CHECK(shard_assign(&g, 2, 1000, shard, load) == 0);
  CHECK(shard[1] == 0 && shard[3] == 1 && shard[4] == 1 && shard[0] == 0 && shard[2] == 1);
  CHECK(load[0] == 14 && load[1] == 16);

  /* Ties keep input order and pick the lowest shard. */
  uint64_t same[] = {1, 1, 1};
  struct shard_graph g3 = {3, 0, same, NULL, NULL, NULL};
  unsigned s3[3];
  uint64_t l3[3];
  CHECK(shard_assign(&g3, 3, 0, s3, l3) == 0);
  CHECK(s3[0] == 0 && s3[1] == 1 && s3[2] == 2);

  /* More shards than items: the rest stay empty. */
  uint64_t one[] = {7};
  struct shard_graph g1 = {1, 0, one, NULL, NULL, NULL};
  unsigned s1[1];
  uint64_t l4[4];
  CHECK(shard_assign(&g1, 4, 0, s1, l4) == 0);
  CHECK(s1[0] == 0 && l4[0] == 7 && l4[1] == 0 && l4[3] == 0);

  /* No items at all; no shards is an error. */
  struct shard_graph g0 = {0, 0, NULL, NULL, NULL, NULL};
  uint64_t l2[2];
  CHECK(shard_assign(&g0, 2, 0, NULL, l2) == 0);
  CHECK(l2[0] == 0 && l2[1] == 0);
  CHECK(shard_assign(&g, 0, 0, shard, load) == -1);
}

static void test_cluster(void) {
  /* 1 is referenced only by 0: it joins 0. 2 is referenced by 0 and 3: it stays. */
  uint64_t cost[] = {10, 5, 5, 10};
  uint32_t from[] = {0, 0, 3}, to[] = {1, 2, 2}, w[] = {1, 1, 1};
  uint8_t mergeable[] = {0, 1, 1, 0};
  struct shard_graph g = {4, 3, cost, from, to, w};
  uint32_t p[4];
  shard_uf_init(p, 4);
  shard_cluster(&g, mergeable, 100, p);
  CHECK(shard_uf_find(p, 1) == shard_uf_find(p, 0));
  CHECK(shard_uf_find(p, 2) == 2);
  CHECK(shard_uf_find(p, 3) == 3);
  /* Under a cap of 14 the joined group (15) would be too large. */
  shard_uf_init(p, 4);
  shard_cluster(&g, mergeable, 14, p);
  CHECK(shard_uf_find(p, 1) == 1);
}

static void test_assign(void) {
  /* Two heavy items, each tied to a light one: each pair shares a shard, nothing is cut. */
  uint64_t cost[] = {10, 10, 1, 1};
  uint32_t from[] = {0, 1}, to[] = {2, 3}, w[] = {5, 5};
  struct shard_graph g = {4, 2, cost, from, to, w};
  unsigned shard[4];
  uint64_t load[2];
  CHECK(shard_assign(&g, 2, 100, shard, load) == 0);
  CHECK(shard[0] == shard[2] && shard[1] == shard[3] && shard[0] != shard[1]);
  CHECK(load[0] == 11 && load[1] == 11);
  CHECK(shard_cut(&g, shard) == 0);
  /* The balance bound wins over connections: one shard cannot take all four. */
  uint32_t from2[] = {0, 0, 0}, to2[] = {1, 2, 3}, w2[] = {9, 9, 9};
  struct shard_graph g2 = {4, 3, cost, from2, to2, w2};
  CHECK(shard_assign(&g2, 2, 30, shard, load) == 0);
  CHECK(load[0] <= 12 && load[1] <= 12);
  CHECK(shard_cut(&g2, shard) > 0);
}

/* shard_bisect: contiguous ranges, bounded imbalance, and an edit to one item's cost (or
 * an added item) moves no other item. */
static void test_bisect(void) {
  enum { N = 400, S = 16 };
  uint64_t cost[N + 1], key[N + 1], load[S], total = 0;
  unsigned a[N + 1], b[N + 1];
  uint64_t x = 88172645463325252ull;
  for (size_t i = 0; i < N; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    cost[i] = 20 + x % 300;
    key[i] = x * 0x9e3779b97f4a7c15ull;
    total += cost[i];
  }
  shard_bisect(N, cost, key, S, 30, a, load);
  int contiguous = 1;
  uint64_t max = 0, sum = 0;
  for (size_t i = 1; i < N; i++)
    contiguous &= a[i] == a[i - 1] || a[i] == a[i - 1] + 1;
  for (unsigned s = 0; s < S; s++)
    sum += load[s], max = load[s] > max ? load[s] : max;
  CHECK(contiguous && a[0] == 0 && a[N - 1] == S - 1);
  CHECK(sum == total);
  CHECK(max * S <= total * 13 / 10); /* within 30% of the mean */
  /* Small edits, one at a time: at most the edited item's range changes. */
  int moved = 0;
  for (size_t e = 0; e < N; e += 7) {
    uint64_t old = cost[e];
    cost[e] += 10;
    shard_bisect(N, cost, key, S, 30, b, load);
    cost[e] = old;
    for (size_t i = 0; i < N; i++)
      moved += a[i] != b[i];
  }
  CHECK(moved <= N / 7 * 2); /* a few cuts move by an item or two, most none */
  /* An item added in the middle: the items before its range keep their shards. */
  for (size_t i = N; i > N / 2; i--)
    cost[i] = cost[i - 1], key[i] = key[i - 1];
  cost[N / 2] = 50, key[N / 2] = 12345;
  shard_bisect(N + 1, cost, key, S, 30, b, load);
  int same_before = 1;
  for (size_t i = 0; i < N / 4; i++)
    same_before &= a[i] == b[i];
  CHECK(same_before);
  /* More shards than items: empty shards, every item placed. */
  shard_bisect(3, cost, key, 8, 30, b, load);
  CHECK(b[0] < 8 && b[1] < 8 && b[2] < 8 && b[0] <= b[1] && b[1] <= b[2]);
}

/* shard_stable_order: fixed items keep their order; a floating item follows the fixed one
 * that reaches it by the heaviest reference, through other floating ones too; unreached
 * floating items keep their place. */
static void test_stable_order(void) {
  /* 0 fixed, 1 floating (used by 3 twice, by 0 once), 2 floating (used by 1 only),
     3 fixed, 4 floating (unreached), 5 fixed. */
  uint64_t cost[6] = {1, 1, 1, 1, 1, 1};
  uint32_t from[] = {0, 3, 1}, to[] = {1, 1, 2}, w[] = {1, 2, 1};
  struct shard_graph g = {6, 3, cost, from, to, w};
  uint8_t floating[6] = {0, 1, 1, 0, 1, 0};
  uint32_t order[6];
  CHECK(shard_stable_order(&g, floating, order) == 0);
  uint32_t want[6] = {0, 3, 1, 2, 4, 5};
  int same = 1;
  for (int i = 0; i < 6; i++)
    same &= order[i] == want[i];
  CHECK(same);
}

int main(void) {
  test_union_find();
  test_auto_count();
  test_assign_balance();
  test_cluster();
  test_assign();
  test_bisect();
  test_stable_order();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
