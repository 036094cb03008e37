// Test program linked against the driver's output of lib.c.
#include <stdio.h>
int f3(int), f5(int), sum(int), hook(int), get_counter(void);
const char *greeting(void);
int main(void) {
  int a = f3(3), b = f5(7), c = sum(10), d = hook(1);
  printf("%s %d %d %d %d %d\n", greeting(), a, b, c, d, get_counter());
  return 0;
}
