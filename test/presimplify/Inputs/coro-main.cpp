// The program of new-function.test: what coro.cpp's users return.
extern "C" int printf(const char *, ...);
int user0(int), user1(int);
int main() { printf("%d %d\n", user0(5), user1(6)); }
