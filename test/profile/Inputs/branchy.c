/* A program with hot and cold paths, a static helper and a memcpy of a size known only at
   run time, for the IR-level profile tests: `branchy N` runs the hot loop N times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int helper(int x) { return x % 7 == 0 ? x / 7 : x * 3 + 1; }

int rare(int x) {
  int s = 0;
  for (int i = 0; i < x; i++)
    s += helper(i) ^ x;
  return s;
}

__attribute__((noinline)) int step(int x, char *dst, const char *src, size_t n) {
  memcpy(dst, src, n);
  if (x > 1000000)
    return rare(x);
  return helper(x) + dst[0];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  char src[64] = "profile", dst[64];
  long sum = 0;
  for (int i = 0; i < n; i++)
    sum += step(i, dst, src, (size_t)(8 + argc));
  printf("%ld\n", sum);
  return 0;
}
