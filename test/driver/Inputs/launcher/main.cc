// Links with launcher/lib.cc's object.
#include <cstdio>
#include <stdexcept>
#include <string>
int counter(), sum_ints(int), area_of(int), checked(int);
std::string join(int);
int main() {
  int caught = 0;
  try {
    checked(-1);
  } catch (const std::invalid_argument &) {
    caught = 1;
  }
  counter();
  std::printf("%d %d %s %d %d\n", sum_ints(10), area_of(3), join(5).c_str(), counter(), caught);
  return 0;
}
