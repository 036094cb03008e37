/* Partitioning algorithms: union-find and cost balancing (see partition.h). */
#include "partition.h"

#include <stdlib.h>

void shard_uf_init(uint32_t *parent, size_t n)
{
	for (size_t i = 0; i < n; i++)
		parent[i] = (uint32_t)i;
}

uint32_t shard_uf_find(uint32_t *parent, uint32_t x)
{
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

void shard_uf_union(uint32_t *parent, uint32_t a, uint32_t b)
{
	a = shard_uf_find(parent, a);
	b = shard_uf_find(parent, b);
	if (a < b)
		parent[b] = a;
	else if (b < a)
		parent[a] = b;
}

unsigned shard_auto_count(uint64_t total_cost)
{
	uint64_t n = (total_cost + SHARD_TARGET_COST - 1) / SHARD_TARGET_COST;
	if (n < 1)
		n = 1;
	if (n > SHARD_MAX_AUTO)
		n = SHARD_MAX_AUTO;
	return (unsigned)n;
}

/* Orders item indices by cost, descending; equal costs keep input order. */
static const uint64_t *sort_cost;
static int by_cost_desc(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	if (sort_cost[a] != sort_cost[b])
		return sort_cost[a] > sort_cost[b] ? -1 : 1;
	return a < b ? -1 : (a > b);
}

/* Min-heap of shards keyed by (load, index). */
static int heap_less(const uint64_t *load, unsigned a, unsigned b)
{
	return load[a] < load[b] || (load[a] == load[b] && a < b);
}

static void heap_down(unsigned *heap, unsigned n, const uint64_t *load, unsigned i)
{
	for (;;) {
		unsigned l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && heap_less(load, heap[l], heap[m]))
			m = l;
		if (r < n && heap_less(load, heap[r], heap[m]))
			m = r;
		if (m == i)
			return;
		unsigned t = heap[i];
		heap[i] = heap[m];
		heap[m] = t;
		i = m;
	}
}

int shard_balance(const uint64_t *cost, size_t n, unsigned nshards,
                  unsigned *shard, uint64_t *load)
{
	if (nshards == 0)
		return -1;
	size_t *order = malloc((n ? n : 1) * sizeof *order);
	unsigned *heap = malloc(nshards * sizeof *heap);
	if (!order || !heap) {
		free(order);
		free(heap);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	sort_cost = cost;
	qsort(order, n, sizeof *order, by_cost_desc);
	for (unsigned s = 0; s < nshards; s++) {
		load[s] = 0;
		heap[s] = s;
	}
	for (size_t k = 0; k < n; k++) {
		size_t i = order[k];
		unsigned s = heap[0];
		shard[i] = s;
		load[s] += cost[i];
		heap_down(heap, nshards, load, 0);
	}
	free(order);
	free(heap);
	return 0;
}
