/* A unit with a static that both of its big functions call (test/driver/shared-locals.test):
   built twice, with -DUNIT=one -DK=1000 and -DUNIT=two -DK=2000, into one program. The static
   is too big for the inliner (16 calls) yet within the split's import limit, so that each
   shard may compile a copy of it. */
int ext(int);

static int helper(int x) {
#define E4(n) x += ext(n); x += ext(n + 1); x += ext(n + 2); x += ext(n + 3);
  E4(0) E4(4) E4(8) E4(12)
  return x + K;
}

#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define G(n) CAT(UNIT, n)

int G(first)(int n) {
  int s = 0, x = n;
  for (int i = 0; i < n; i++) {
    E4(i) E4(i + 4) E4(i + 8) E4(i + 12)
    s += helper(i) + x;
  }
  return s;
}

int G(second)(int n) {
  int s = 0, x = n;
  for (int i = 0; i < n; i++) {
    E4(i * 2) E4(i * 3) E4(i * 5) E4(i * 7)
    s += helper(i * 3) - x;
  }
  return s;
}
