// Functions for the launcher's flag matrix: a loop to vectorise (-march), a local buffer
// (-fstack-protector-strong), a heap overflow on request (-fsanitize=address), global data
// (-fdata-sections, -fPIC, -mcmodel=), a float reduction (-ffast-math), a signed overflow on
// request (-fsanitize=undefined), calls to the C library (-fno-plt).
#include <stdlib.h>
#include <string.h>
int table[256] = {1};
int *table_addr(void) { return table; }
float scale(float *restrict out, const float *restrict in, int n) {
  for (int i = 0; i < n; i++)
    out[i] = in[i] * 3.0f + 1.0f;
  return out[0];
}
int copy_name(const char *s) {
  char buf[64];
  strcpy(buf, s);
  return (int)strlen(buf) + table[0];
}
int overflow(int n) {
  int *p = malloc(8 * sizeof *p);
  memset(p, 0, 8 * sizeof *p);
  int v = p[n];
  free(p);
  return v;
}
float sum(const float *a, int n) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
int grow(int x) { return x + 16; }
