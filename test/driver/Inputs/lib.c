// Library for the driver tests: statics referenced from many functions (so splitting must
// promote them), a static table of function pointers, a string constant, a weak function.
static int counter;
static const char msg[] = "hello from shard";

static int sq(int x) { return x * x; }
static int cube(int x) { return x * sq(x); }
static int twice(int x) { counter++; return 2 * x; }
static int (*const ops[])(int) = {sq, cube, twice};

__attribute__((noinline)) int f1(int x) { counter++; return sq(x) + 1; }
__attribute__((noinline)) int f2(int x) { counter++; return cube(x) + 2; }
__attribute__((noinline)) int f3(int x) { return f1(x) + f2(x); }
__attribute__((noinline)) int f4(int x) { return x - 4; }
__attribute__((noinline)) int f5(int x) { return f4(x) * 5; }
__attribute__((noinline)) int apply(int i, int x) { return ops[i % 3](x); }
__attribute__((noinline)) int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += apply(i, i);
  return s;
}
__attribute__((weak)) int hook(int x) { return x + 100; }
int get_counter(void) { return counter; }
const char *greeting(void) { return msg; }
