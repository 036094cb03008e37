/* Calls the generated huge(x, p) of huge.awk (huge-function.test) and prints its result. */
#include <stdio.h>

long huge(long x, volatile long *p);

int main(void) {
  volatile long sink;
  printf("%lx\n", huge(12345, &sink));
  return 0;
}
