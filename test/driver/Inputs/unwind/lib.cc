// An inline function that throws, kept out of line at its calls ([[clang::noinline]]), so
// that each shard that calls it compiles its own copy; padding between the callers.
#include <stdexcept>
inline int helper(int x) {
  if (x < 0)
    throw std::runtime_error("negative");
  return x * 2;
}
int first(int x) {
  [[clang::noinline]] return helper(x) + 1;
}
#define PAD(n) int pad##n(int x) { int s = n; for (int i = 0; i < x; i++) s = s * 31 + (i ^ (s >> 3)); return s; }
PAD(1) PAD(2) PAD(3) PAD(4) PAD(5) PAD(6) PAD(7) PAD(8)
int second(int x) {
  [[clang::noinline]] return helper(x - 1) + helper(x - 2);
}
