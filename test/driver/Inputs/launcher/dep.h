// A header, for the dependency-file test.
#define DEP_VALUE 42
