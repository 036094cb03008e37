// Calls the flag matrix's functions: overflow(argc + 7) reads one past the end, grow() overflows.
#include <stdio.h>
float scale(float *restrict, const float *restrict, int);
int copy_name(const char *), overflow(int), grow(int);
int main(int argc, char **argv) {
  float in[16] = {1}, out[16];
  (void)argv;
  printf("%d\n", grow(0x7ffffff0 + argc));
  printf("%g %d %d\n", scale(out, in, 16), copy_name("shard"), overflow(argc + 7));
  return 0;
}
