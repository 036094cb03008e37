/* Backend diagnostics (test/driver/launcher-compile.test): functions whose stack frames pass
   -Wframe-larger-than=1000, one of them a static helper that the shards of both callers hold. */
#include <string.h>

__attribute__((noinline)) static int helper(int x) {
  volatile char b[2000];
  b[x] = 1;
  return b[x + 1];
}

int big(int n) {
  char buf[4096];
  memset(buf, n, sizeof buf);
  return buf[n] + buf[n / 2] + helper(n);
}

int other(int x) { return helper(x) + helper(x + 1); }

int third(int x) { return helper(x * 3) + 1; }
