// A source with an error, for the launcher tests.
int broken(int x) { return x + ; }
