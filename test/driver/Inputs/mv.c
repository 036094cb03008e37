/* A kernel worth multiversioning (a popcount loop) and one that is not (a list walk). */
#include <stdio.h>

struct node { struct node *next; int v; };

__attribute__((noinline)) int bits(const unsigned long long *a, int n) {
  int c = 0;
  for (int i = 0; i < n; i++)
    c += __builtin_popcountll(a[i]);
  return c;
}

__attribute__((noinline)) int walk(const struct node *p) {
  int s = 0;
  for (; p; p = p->next)
    s += p->v;
  return s;
}

int main(void) {
  static unsigned long long a[4096];
  static struct node nodes[100];
  for (int i = 0; i < 4096; i++)
    a[i] = 0x9e3779b97f4a7c15ull * (unsigned long long)(i + 1);
  for (int i = 0; i < 100; i++)
    nodes[i] = (struct node){i + 1 < 100 ? &nodes[i + 1] : 0, i};
  printf("%d %d\n", bits(a, 4096), walk(nodes));
  return 0;
}
