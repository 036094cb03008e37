/* The program of test/driver/shared-locals.test: two units built from shared-static.c. */
#include <stdio.h>
int ext(int v) { return v & 3; }
int one_first(int), one_second(int), two_first(int), two_second(int);
int main(void) {
  printf("%d %d %d %d\n", one_first(3), one_second(3), two_first(3), two_second(3));
  return 0;
}
