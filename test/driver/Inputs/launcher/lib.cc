// C++ for the launcher tests: templates (linkonce_odr), a class with a vtable, inline
// functions, a static local, exceptions.
#include <stdexcept>
#include <string>
#include <vector>
namespace {
int hidden(int x) { return x * 7; }
} // namespace
template <typename T> T total(const std::vector<T> &v) {
  T s{};
  for (const T &x : v)
    s += x;
  return s;
}
struct Shape {
  virtual ~Shape() = default;
  virtual int area() const = 0;
};
struct Square : Shape {
  int side;
  explicit Square(int s) : side(s) {}
  int area() const override { return side * side + hidden(side); }
};
int counter() {
  static int n = 0;
  return ++n;
}
int sum_ints(int n) {
  std::vector<int> v;
  for (int i = 0; i < n; i++)
    v.push_back(i);
  return total(v);
}
std::string join(int n) {
  std::string s;
  for (int i = 0; i < n; i++)
    s += std::to_string(i);
  return s;
}
int area_of(int side) {
  Square q(side);
  const Shape &s = q;
  return s.area();
}
int checked(int x) {
  if (x < 0)
    throw std::invalid_argument("negative");
  return x;
}
