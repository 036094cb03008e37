/* Calls sum_all of bench/scale.sh --gen N (many-functions.test) twice: the second result also
   depends on the static counters the first call updated. */
#include <stdio.h>

unsigned sum_all(unsigned x);

int main(void) {
  unsigned a = sum_all(7);
  printf("%u %u\n", a, sum_all(8));
  return 0;
}
