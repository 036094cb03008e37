/* profiles: the profile flags of a compile the launcher shards (profiles.h). */
#define _XOPEN_SOURCE 700
#include "profiles.h"
#include "opts.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What a profile-use flag names: an indexed profile of clang's front-end instrumentation
   (-fprofile-instr-generate), an IR-level one (-fprofile-generate), one with a
   context-sensitive part (-fcs-profile-generate), or a file that cannot be read here. */
enum profile { PROFILE_UNREADABLE, PROFILE_FRONT_END, PROFILE_IR, PROFILE_CS_IR };

/* Records in P why the compiler runs unchanged: option A, then WHY (the first reason kept). */
static void unchanged(struct profiles *p, const char *a, const char *why) {
  if (!p->why)
    p->why = fmt("'%s' (%s)", a, why);
}

/* The kind of profile that option A, -fprofile-use[=P] or -fprofile-instr-use[=P], names, and
   its absolute path in *PATH (P defaults to default.profdata, a directory holds it). */
static enum profile profile_kind(const char *a, char **path) {
  const char *eq = strchr(a, '=');
  const char *p = eq && eq[1] ? eq + 1 : "default.profdata";
  struct stat st;
  char *file =
      stat(p, &st) == 0 && S_ISDIR(st.st_mode) ? fmt("%s/default.profdata", p) : xstrdup(p);
  *path = realpath(file, NULL);
  free(file);
  FILE *f = *path ? fopen(*path, "rb") : NULL;
  uint64_t head[2] = {0, 0}; /* an indexed profile's magic and version */
  int ok = f && fread(head, sizeof head, 1, f) == 1;
  if (f)
    fclose(f);
  const uint64_t magic = 0x8169666f72706cffULL, ir = 1ULL << 56, cs = 1ULL << 57;
  if (!ok || head[0] != magic)
    return PROFILE_UNREADABLE;
  return head[1] & cs ? PROFILE_CS_IR : head[1] & ir ? PROFILE_IR : PROFILE_FRONT_END;
}

/* Takes profile-use flag A into P. A front-end profile is the front end's: the module
   carries its counts, and the split imports the callees of hot calls. An IR-level one is
   applied by the split to the whole module (shard-profile-use), as the pipeline would before
   it goes on, and the shard compiles go without it: in a shard the functions' control-flow
   hashes and a promoted local's name differ from the whole module's. A context-sensitive
   part is applied after inlining, and a file that cannot be read is the compiler's to
   report: the compiler runs unchanged. */
static void take_use(struct profiles *p, const char *a) {
  char *path;
  enum profile k = profile_kind(a, &path);
  free(p->use);
  p->use = NULL;
  if (k == PROFILE_IR && strpbrk(path, ";,<>"))
    unchanged(p, a, "a path the pass text cannot carry");
  else if (k == PROFILE_IR)
    p->use = path, path = NULL;
  else if (k == PROFILE_CS_IR)
    unchanged(p, a, "a context-sensitive profile");
  else if (k == PROFILE_UNREADABLE)
    unchanged(p, a, "not an indexed profile shard can read");
  free(path);
}

/* Takes IR-level instrumentation flag A, -fprofile-generate[=DIR], into P: the program writes
   default_%m.profraw (in DIR), the name clang gives the split's instrumentation. The split
   instruments the whole module (shard-profile-gen), as the pipeline does before it goes on:
   in a shard the functions' control-flow hashes would differ from the whole module's. */
static void take_gen(struct profiles *p, const char *a) {
  const char *dir = a[18] == '=' ? a + 19 : NULL;
  size_t n = dir ? strlen(dir) : 0;
  free(p->gen);
  p->gen = !dir                     ? xstrdup("default_%m.profraw")
           : n && dir[n - 1] == '/' ? fmt("%sdefault_%%m.profraw", dir)
                                    : fmt("%s/default_%%m.profraw", dir);
  if (strpbrk(p->gen, ";,<>"))
    unchanged(p, a, "a path the pass text cannot carry");
}

/* Takes compiler option A into P when it is a profile flag; returns whether it was one. */
int profiles_take(struct profiles *p, const char *a) {
  if (opts_profile_flag(a))
    take_use(p, a);
  else if (!strcmp(a, "-fno-profile-use") || !strcmp(a, "-fno-profile-instr-use"))
    free(p->use), p->use = NULL;
  else if (!strcmp(a, "-fprofile-generate") || !strncmp(a, "-fprofile-generate=", 19))
    take_gen(p, a);
  else if (!strcmp(a, "-fno-profile-generate"))
    free(p->gen), p->gen = NULL;
  else if (!strncmp(a, "-fprofile-update=", 17))
    p->atomic = !strcmp(a + 17, "atomic") || !strcmp(a + 17, "prefer-atomic");
  else
    return 0;
  return 1;
}

/* After the command's last option, at -O level OLEVEL (SIZE_OPT: -Os or -Oz): records in P
   what the split cannot do as clang does, which runs the compiler unchanged (the split's
   pipelines are -O1..-O3's). */
void profiles_check(struct profiles *p, int olevel, int size_opt) {
  if (p->why)
    return;
  if (p->use && size_opt)
    p->why = xstrdup("an IR-level profile at -Os or -Oz");
  else if (p->gen && (size_opt || olevel == 0))
    p->why = xstrdup("IR-level instrumentation at -O0, -Os or -Oz");
  else if (p->gen && p->use)
    p->why = xstrdup("IR-level instrumentation with a profile's use");
}
