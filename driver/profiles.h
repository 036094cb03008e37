/* profiles: the profile flags of a compile the launcher shards. The split applies an
   IR-level profile (-fprofile-use=) and inserts IR-level instrumentation (-fprofile-generate)
   on the whole module, as clang's pipeline does before it goes on; the other combinations
   run the compiler unchanged (docs/launcher.md, Profiles and Instrumented builds). */
#ifndef SHARD_PROFILES_H
#define SHARD_PROFILES_H

struct profiles {
  char *use;  /* the IR-level profile the last profile-use flag names (absolute), or NULL */
  char *gen;  /* the raw profile -fprofile-generate[=DIR] has the program write, or NULL */
  int atomic; /* -fprofile-update=atomic (or prefer-atomic) */
  char *why;  /* the first reason to run the compiler unchanged, or NULL */
};

int profiles_take(struct profiles *p, const char *a);
void profiles_check(struct profiles *p, int olevel, int size_opt);

#endif
