// A C++ program for the instrumented-build tests: templates, inline members, virtual
// calls, static helpers, a lambda and exceptions, so that a split holds copies of
// linkonce_odr functions and of locals in several shards. `instr N` runs N rounds.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
int mix(int x) { return x % 5 == 0 ? x / 5 : x * 7 + 3; }
struct Shape {
  virtual ~Shape() = default;
  virtual long area() const = 0;
};
struct Square : Shape {
  long s;
  explicit Square(long s) : s(s) {}
  long area() const override { return s * s; }
};
struct Rect : Shape {
  long w, h;
  Rect(long w, long h) : w(w), h(h) {}
  long area() const override { return w * h + mix(int(w)); }
};
} // namespace

template <typename T> T clampTo(T v, T hi) { return v > hi ? hi : v; }

long shapes(int n) {
  std::vector<Shape *> all;
  for (int i = 0; i < n; i++)
    all.push_back(i % 3 ? static_cast<Shape *>(new Rect(i, mix(i))) : new Square(i));
  long sum = 0;
  for (Shape *s : all)
    sum += clampTo<long>(s->area(), 1000000);
  for (Shape *s : all)
    delete s;
  return sum;
}

long words(int n) {
  std::map<std::string, int> count;
  for (int i = 0; i < n; i++)
    count["w" + std::to_string(mix(i) % 17)] += i;
  std::vector<std::pair<std::string, int>> v(count.begin(), count.end());
  std::sort(v.begin(), v.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
  return v.empty() ? 0 : v.front().second + long(v.size());
}

int checked(int x) {
  if (x % 11 == 10)
    throw std::runtime_error("eleven");
  return clampTo(mix(x), 500);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100;
  long total = shapes(n) + words(n);
  for (int i = 0; i < n; i++) {
    try {
      total += checked(i);
    } catch (const std::exception &) {
      total -= 1;
    }
  }
  std::printf("%ld\n", total);
  return 0;
}
