/* Partitioning algorithms: union-find and cost balancing (see partition.h). */
#include "partition/partition.h"

#include <stdlib.h>

void shard_uf_init(uint32_t *parent, size_t n) {
  for (size_t i = 0; i < n; i++)
    parent[i] = (uint32_t)i;
}

uint32_t shard_uf_find(uint32_t *parent, uint32_t x) {
  uint32_t root = x;
  while (parent[root] != root)
    root = parent[root];
  while (parent[x] != root) { /* path compression */
    uint32_t next = parent[x];
    parent[x] = root;
    x = next;
  }
  return root;
}

void shard_uf_union(uint32_t *parent, uint32_t a, uint32_t b) {
  a = shard_uf_find(parent, a);
  b = shard_uf_find(parent, b);
  if (a < b)
    parent[b] = a;
  else if (b < a)
    parent[a] = b;
}

unsigned shard_auto_count(uint64_t total_cost) {
  unsigned n = 1;
  while (n < SHARD_MAX_AUTO && (uint64_t)n * SHARD_TARGET_COST < total_cost)
    n *= 2;
  return n;
}

/* Orders item indices by cost, descending; equal costs keep input order. */
static const uint64_t *sort_cost;
static int by_cost_desc(const void *pa, const void *pb) {
  size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
  if (sort_cost[a] != sort_cost[b])
    return sort_cost[a] > sort_cost[b] ? -1 : 1;
  return a < b ? -1 : (a > b);
}

/* Edges of g grouped by endpoint: the edges of item i are idx[start[i] .. start[i+1]). */
struct adj {
  size_t *start;
  uint32_t *idx;
};

/* Builds incoming (by_to) or both-direction adjacency; returns 0 or -1 on no memory. */
static int adj_build(const struct shard_graph *g, int both, struct adj *a) {
  size_t deg = both ? 2 * g->m : g->m;
  a->start = calloc(g->n + 1, sizeof *a->start);
  a->idx = malloc((deg ? deg : 1) * sizeof *a->idx);
  if (!a->start || !a->idx) {
    free(a->start);
    free(a->idx);
    return -1;
  }
  for (size_t e = 0; e < g->m; e++) {
    a->start[g->to[e] + 1]++;
    if (both)
      a->start[g->from[e] + 1]++;
  }
  for (size_t i = 0; i < g->n; i++)
    a->start[i + 1] += a->start[i];
  size_t *fill = malloc((g->n ? g->n : 1) * sizeof *fill);
  if (!fill) {
    free(a->start);
    free(a->idx);
    return -1;
  }
  for (size_t i = 0; i < g->n; i++)
    fill[i] = a->start[i];
  for (size_t e = 0; e < g->m; e++) {
    a->idx[fill[g->to[e]]++] = (uint32_t)e;
    if (both)
      a->idx[fill[g->from[e]]++] = (uint32_t)e;
  }
  free(fill);
  return 0;
}

static void adj_free(struct adj *a) {
  free(a->start);
  free(a->idx);
}

void shard_cluster(const struct shard_graph *g, const uint8_t *mergeable, uint64_t cap,
                   uint32_t *parent) {
  struct adj in;
  uint64_t *gcost = calloc(g->n ? g->n : 1, sizeof *gcost);
  if (!gcost || adj_build(g, 0, &in)) {
    free(gcost);
    return; /* clustering is an optimisation: without memory, skip it */
  }
  for (size_t i = 0; i < g->n; i++)
    gcost[shard_uf_find(parent, (uint32_t)i)] += g->cost[i];
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t i = 0; i < g->n; i++) {
      if (!mergeable[i])
        continue;
      uint32_t self = shard_uf_find(parent, (uint32_t)i), other = UINT32_MAX;
      int single = 1;
      for (size_t k = in.start[i]; k < in.start[i + 1] && single; k++) {
        uint32_t r = shard_uf_find(parent, g->from[in.idx[k]]);
        if (r == self)
          continue;
        if (other == UINT32_MAX)
          other = r;
        else if (other != r)
          single = 0;
      }
      if (!single || other == UINT32_MAX || gcost[self] + gcost[other] > cap)
        continue;
      uint64_t sum = gcost[self] + gcost[other];
      shard_uf_union(parent, self, other);
      gcost[shard_uf_find(parent, self)] = sum;
      changed = 1;
    }
  }
  adj_free(&in);
  free(gcost);
}

uint64_t shard_cut(const struct shard_graph *g, const unsigned *shard) {
  uint64_t cut = 0;
  for (size_t e = 0; e < g->m; e++)
    if (shard[g->from[e]] != shard[g->to[e]])
      cut += g->w[e];
  return cut;
}

/* Adds to conn[s] the weight item i shares with the items already placed in shard s. */
static void connections(const struct shard_graph *g, const struct adj *a, size_t i,
                        const unsigned *shard, unsigned nshards, uint64_t *conn) {
  for (unsigned s = 0; s < nshards; s++)
    conn[s] = 0;
  for (size_t k = a->start[i]; k < a->start[i + 1]; k++) {
    size_t e = a->idx[k];
    uint32_t o = g->from[e] == i ? g->to[e] : g->from[e];
    if (o != i && shard[o] < nshards)
      conn[shard[o]] += g->w[e];
  }
}

int shard_assign(const struct shard_graph *g, unsigned nshards, unsigned slack, unsigned *shard,
                 uint64_t *load) {
  if (nshards == 0)
    return -1;
  struct adj a;
  size_t *order = malloc((g->n ? g->n : 1) * sizeof *order);
  uint64_t *conn = malloc(nshards * sizeof *conn);
  if (!order || !conn || adj_build(g, 1, &a)) {
    free(order);
    free(conn);
    return -1;
  }
  uint64_t total = 0, largest = 0;
  for (size_t i = 0; i < g->n; i++) {
    total += g->cost[i];
    if (g->cost[i] > largest)
      largest = g->cost[i];
    order[i] = i;
    shard[i] = nshards; /* unplaced */
  }
  uint64_t bound = (total + nshards - 1) / nshards * (1000 + slack) / 1000;
  if (bound < largest)
    bound = largest;
  for (unsigned s = 0; s < nshards; s++)
    load[s] = 0;
  sort_cost = g->cost;
  qsort(order, g->n, sizeof *order, by_cost_desc);

  /* Greedy: the most connected shard with room; ties go to the lighter, then lower shard. */
  for (size_t k = 0; k < g->n; k++) {
    size_t i = order[k];
    connections(g, &a, i, shard, nshards, conn);
    unsigned best = nshards, lightest = 0;
    for (unsigned s = 0; s < nshards; s++) {
      if (load[s] < load[lightest])
        lightest = s;
      if (load[s] + g->cost[i] > bound)
        continue;
      if (best == nshards || conn[s] > conn[best] ||
          (conn[s] == conn[best] && load[s] < load[best]))
        best = s;
    }
    if (best == nshards)
      best = lightest;
    shard[i] = best;
    load[best] += g->cost[i];
  }

  /* Refinement: move an item where it has more connections, while the bound holds. */
  for (int pass = 0; pass < 4; pass++) {
    int moved = 0;
    for (size_t k = 0; k < g->n; k++) {
      size_t i = order[k];
      unsigned cur = shard[i], best = cur;
      connections(g, &a, i, shard, nshards, conn);
      for (unsigned s = 0; s < nshards; s++)
        if (s != cur && conn[s] > conn[best] && load[s] + g->cost[i] <= bound)
          best = s;
      if (best == cur)
        continue;
      load[cur] -= g->cost[i];
      load[best] += g->cost[i];
      shard[i] = best;
      moved = 1;
    }
    if (!moved)
      break;
  }
  adj_free(&a);
  free(order);
  free(conn);
  return 0;
}

/* Cuts items [lo, hi) into ns shards from s0 on (see shard_bisect). */
static void bisect(size_t lo, size_t hi, const uint64_t *cost, const uint64_t *key, unsigned s0,
                   unsigned ns, unsigned window, unsigned *shard) {
  if (ns == 1) {
    for (size_t i = lo; i < hi; i++)
      shard[i] = s0;
    return;
  }
  unsigned nl = ns / 2;
  uint64_t total = 0;
  for (size_t i = lo; i < hi; i++)
    total += cost[i];
  uint64_t target = total / ns * nl + total % ns * nl / ns;
  uint64_t w = total / 1000 * window + total % 1000 * window / 1000;
  /* Cut j puts [lo, j) left. Inside the window the cut goes before the item with the
     largest key (content-defined, so it moves only when an edit reaches that item or the
     window's ends); with no cut inside, the closest cut to the target wins. */
  size_t best = lo, near = lo;
  int found = 0;
  uint64_t bestkey = 0, neardist = UINT64_MAX, prefix = 0;
  for (size_t j = lo; j <= hi; j++) {
    uint64_t d = prefix > target ? prefix - target : target - prefix;
    if (d < neardist)
      neardist = d, near = j;
    if (d <= w && j > lo && j < hi && (!found || key[j] > bestkey))
      found = 1, best = j, bestkey = key[j];
    if (j < hi)
      prefix += cost[j];
  }
  size_t cut = found ? best : near;
  bisect(lo, cut, cost, key, s0, nl, window, shard);
  bisect(cut, hi, cost, key, s0 + nl, ns - nl, window, shard);
}

void shard_bisect(size_t n, const uint64_t *cost, const uint64_t *key, unsigned nshards,
                  unsigned window, unsigned *shard, uint64_t *load) {
  if (nshards == 0)
    return;
  bisect(0, n, cost, key, 0, nshards, window, shard);
  for (unsigned s = 0; s < nshards; s++)
    load[s] = 0;
  for (size_t i = 0; i < n; i++)
    load[shard[i]] += cost[i];
}

/* Sort record for shard_stable_order: an item, its home and whether it is its own home. */
struct placed {
  uint32_t home, moved, item;
};

static int by_home(const void *pa, const void *pb) {
  const struct placed *a = pa, *b = pb;
  if (a->home != b->home)
    return a->home < b->home ? -1 : 1;
  if (a->moved != b->moved)
    return a->moved < b->moved ? -1 : 1;
  return a->item < b->item ? -1 : (a->item > b->item);
}

int shard_stable_order(const struct shard_graph *g, const uint8_t *floating, uint32_t *order) {
  const uint32_t unset = UINT32_MAX;
  struct adj in;
  uint32_t *home = malloc((g->n ? g->n : 1) * sizeof *home);
  uint32_t *next = malloc((g->n ? g->n : 1) * sizeof *next);
  struct placed *p = malloc((g->n ? g->n : 1) * sizeof *p);
  if (!home || !next || !p || adj_build(g, 0, &in)) {
    free(home);
    free(next);
    free(p);
    return -1;
  }
  for (size_t i = 0; i < g->n; i++)
    home[i] = floating[i] ? unset : (uint32_t)i;
  /* Rounds: a floating item whose referrers include placed ones takes the home of the
     heaviest such reference (then the lowest home). Each round reads the last round's
     homes only, so the result does not depend on the order items are visited in. */
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t v = 0; v < g->n; v++) {
      next[v] = home[v];
      if (home[v] != unset)
        continue;
      uint32_t best = unset, bw = 0;
      for (size_t k = in.start[v]; k < in.start[v + 1]; k++) {
        uint32_t e = in.idx[k], h = home[g->from[e]];
        if (h != unset && (best == unset || g->w[e] > bw || (g->w[e] == bw && h < best)))
          best = h, bw = g->w[e];
      }
      next[v] = best;
      changed |= best != unset;
    }
    uint32_t *t = home;
    home = next;
    next = t;
  }
  for (size_t i = 0; i < g->n; i++) {
    uint32_t h = home[i] == unset ? (uint32_t)i : home[i];
    p[i] = (struct placed){h, h != i, (uint32_t)i};
  }
  qsort(p, g->n, sizeof *p, by_home);
  for (size_t i = 0; i < g->n; i++)
    order[i] = p[i].item;
  adj_free(&in);
  free(home);
  free(next);
  free(p);
  return 0;
}
