/* Front-end and backend warnings in one source (test/driver/launcher-compile.test): an
   uninitialized variable (-Wall) and two frames over -Wframe-larger-than=1000. */
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

int unset(void) {
  int y;
  return y;
}
