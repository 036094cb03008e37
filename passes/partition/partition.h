/* Pure C partitioning algorithms used by the shard-partition pass.
 * No LLVM here: the pass builds a plain weighted graph, these functions decide. */
#ifndef SHARD_PARTITION_H
#define SHARD_PARTITION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Union-find over n items; parent[] must hold n entries. */
void shard_uf_init(uint32_t *parent, size_t n);
uint32_t shard_uf_find(uint32_t *parent, uint32_t x);
/* Joins the sets of a and b; the smaller index becomes the representative. */
void shard_uf_union(uint32_t *parent, uint32_t a, uint32_t b);

/* Predicted cost one shard should carry at most when the count is chosen automatically. */
#define SHARD_TARGET_COST 32768u
#define SHARD_MAX_AUTO 32u

/* Shard count for a module of the given total cost: the smallest power of two that is at
 * least total / SHARD_TARGET_COST, clamped to [1, SHARD_MAX_AUTO]. A power of two divides
 * evenly among 2, 4, 8 or 16 workers (11 equal shards on 2 cores wait for the 11th).
 * Depends on the module only, never on -j. */
unsigned shard_auto_count(uint64_t total_cost);

/* A directed reference graph over n items: edge e goes from[e] -> to[e] with weight w[e]. */
struct shard_graph {
  size_t n, m;
  const uint64_t *cost; /* n costs */
  const uint32_t *from, *to, *w;
};

/* Call-graph clustering: joins every item with mergeable[i] set whose referrers all lie in
 * one other group into that group (a static helper with one caller goes with its caller),
 * as long as the joined group costs at most cap. Repeats until nothing changes. parent[]
 * is the union-find of shard_uf_* over the n items and may already hold groups. */
void shard_cluster(const struct shard_graph *g, const uint8_t *mergeable, uint64_t cap,
                   uint32_t *parent);

/* Assigns the n items of g (each one a group, in tie-break order) to nshards shards so that
 * few heavy edges cross shards and no shard costs more than max(largest item, total/nshards
 * * (1000 + slack) / 1000): largest first onto the connected shard that still has room, then
 * moves that lower the crossing weight within the same bound. Writes shard[i] and load[s].
 * Returns 0, or -1 when memory runs out. */
int shard_assign(const struct shard_graph *g, unsigned nshards, unsigned slack, unsigned *shard,
                 uint64_t *load);

/* Edit-stable placement: cuts the n items, in their given (source) order, into nshards
 * contiguous ranges by recursive bisection. Each cut lies within window/1000 of its range's
 * cost from the balanced point, before the item with the largest key[] there (a hash of its
 * name), so an edit that changes one item's cost, or adds or removes an item, moves a cut
 * only when that item or a window end crosses the chosen one: the other ranges keep their
 * items. With no cut inside the window, the one closest to the balanced point. Writes
 * shard[i] and load[s]. */
void shard_bisect(size_t n, const uint64_t *cost, const uint64_t *key, unsigned nshards,
                  unsigned window, unsigned *shard, uint64_t *load);

/* The order in which shard_bisect cuts: every item in index (source) order, except the
 * floating ones (discardable: linkonce functions, locals), which go right after their
 * home, the non-floating item that reaches them by the heaviest reference, directly or
 * through other floating items (the nearest first). A C++ template then sits with the
 * code that uses it most, not where the front end happened to emit it. Floating items no
 * fixed item reaches keep their place. Writes the n item indices to order[]; returns 0, or
 * -1 when memory runs out. */
int shard_stable_order(const struct shard_graph *g, const uint8_t *floating, uint32_t *order);

/* Total weight of edges whose ends lie in different shards. */
uint64_t shard_cut(const struct shard_graph *g, const unsigned *shard);

#ifdef __cplusplus
}
#endif

#endif
