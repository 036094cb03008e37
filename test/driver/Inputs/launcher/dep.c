// A source with a header, for the dependency-file test.
#include "dep.h"
#include <stddef.h>
int dep_value(void) { return DEP_VALUE + (int)sizeof(size_t); }
