/* presimplify.test: hello and bye, which both shards hold, print a line with printf, which
   the split's pipeline turns into puts with a new string constant. */
int printf(const char *, ...);
void hello(void) { printf("hello\n"); }
void bye(void) { printf("bye\n"); }
int user0(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    hello();
    s += i * n;
  }
  return s;
}
int user1(int n) {
  int s = 1;
  for (int i = 0; i < n; i++) {
    bye();
    hello();
    s *= i + n;
  }
  return s;
}
