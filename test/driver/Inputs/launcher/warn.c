// A source with a warning, for the launcher tests.
int unused_result(int x) {
  int y;
  return x + y;
}
