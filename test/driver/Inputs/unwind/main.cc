#include <cstdio>
#include <stdexcept>
int first(int), second(int), pad1(int), pad8(int);
int main() {
  printf("%d %d\n", pad1(5), pad8(5));
  for (int x : {3, 1, 0}) {
    try { printf("first(%d) = %d\n", x - 1, first(x - 1)); } catch (const std::exception &e) { printf("first(%d) threw %s\n", x - 1, e.what()); }
    try { printf("second(%d) = %d\n", x, second(x)); } catch (const std::exception &e) { printf("second(%d) threw %s\n", x, e.what()); }
  }
}
