/* diag: the backend diagnostics of the launcher's compiles. A compile of IR prints a backend
   diagnostic as "warning: FILE:L:C: TEXT" (its location from the module's debug locations, or
   "<unknown>:0:0"), where the compiler from the source prints "FILE:L:C: warning: TEXT": the
   logs are read in shard order, each diagnostic kept once (a function several shards hold is
   reported by each), the location put first, a promoted symbol named as in the object, and one "N
   warnings generated." line at the end with the number of distinct warnings. */
#define _XOPEN_SOURCE 700
#include "diag.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct argv seen;    /* the diagnostics kept, in order */
static int warnings;        /* how many of them are warnings */
static struct argv renames; /* pairs: a promoted symbol's name, its name in the object */

/* The kind ("warning", "error", "remark", "note") LINE starts with, its length in *N; or NULL. */
static const char *kind_of(const char *line, size_t *n) {
  static const char *const kinds[] = {"warning", "error", "remark", "note", NULL};
  for (const char *const *k = kinds; *k; k++) {
    *n = strlen(*k);
    if (!strncmp(line, *k, *n) && line[*n] == ':' && line[*n + 1] == ' ')
      return *k;
  }
  return NULL;
}

/* The length of a "FILE:L:C: " location at S, or 0. */
static size_t location(const char *s) {
  const char *p = s;
  while (*p && *p != ' ' && *p != ':')
    p++;
  for (int field = 0; field < 2; field++) {
    if (*p++ != ':' || !isdigit((unsigned char)*p))
      return 0;
    while (isdigit((unsigned char)*p))
      p++;
  }
  return p[0] == ':' && p[1] == ' ' && p > s ? (size_t)(p + 2 - s) : 0;
}

/* LINE in the compiler's form from the source: the location first, none when unknown. */
static char *reformat(const char *line) {
  size_t n;
  const char *kind = kind_of(line, &n);
  if (!kind)
    return xstrdup(line);
  const char *rest = line + n + 2;
  size_t loc = location(rest);
  if (!loc)
    return xstrdup(line);
  if (!strncmp(rest, "<unknown>:0:0: ", loc))
    return fmt("%s: %s", kind, rest + loc);
  return fmt("%.*s%s: %s", (int)loc, rest, kind, rest + loc);
}

/* Whether LINE is the compiler's count ("2 warnings generated.", "1 warning and 1 error
   generated."): the count is made again over the distinct diagnostics. */
static int is_count(const char *line) {
  return isdigit((unsigned char)line[0]) && strstr(line, " generated.");
}

/* Names promoted symbol NEW by its name in the object, OLD, in the diagnostics to come. */
void diag_rename(const char *new, const char *old) {
  av_push(&renames, new);
  av_push(&renames, old);
}

/* D with each quoted promoted name ('NAME') replaced by the object's name (frees D). */
static char *renamed(char *d) {
  for (int i = 0; i + 1 < renames.n; i += 2) {
    char *q = fmt("'%s'", renames.v[i]), *at = strstr(d, q);
    if (at) {
      char *r = fmt("%.*s'%s'%s", (int)(at - d), d, renames.v[i + 1], at + strlen(q));
      free(d);
      d = r;
    }
    free(q);
  }
  return d;
}

/* Takes diagnostic D (its lines, joined) once. */
static void keep(char *d) {
  d = renamed(d);
  for (int i = 0; i < seen.n; i++)
    if (!strcmp(seen.v[i], d)) {
      free(d);
      return;
    }
  size_t n;
  const char *k = kind_of(d, &n);
  warnings += (k && !strcmp(k, "warning")) || strstr(d, ": warning: ") != NULL;
  av_take(&seen, d);
}

/* Reads the compiler's log LOG: its diagnostics, each a first line and the lines that follow
   it (the source line, the caret), are kept once. */
void diag_add_file(const char *log) {
  FILE *f = fopen(log, "r");
  if (!f)
    return;
  char *line = NULL, *d = NULL;
  size_t cap = 0;
  for (ssize_t r; (r = getline(&line, &cap, f)) > 0;) {
    if (line[r - 1] == '\n')
      line[r - 1] = 0;
    if (is_count(line))
      continue;
    size_t n;
    char *l = reformat(line);
    if (d && (kind_of(line, &n) || location(line))) /* a new diagnostic */
      keep(d), d = NULL;
    char *joined = d ? fmt("%s\n%s", d, l) : xstrdup(l);
    free(d);
    free(l);
    d = joined;
  }
  if (d)
    keep(d);
  free(line);
  fclose(f);
}

/* Prints the diagnostics kept and the count of warnings, and forgets them. */
void diag_flush(void) {
  for (int i = 0; i < seen.n; i++)
    fprintf(stderr, "%s\n", seen.v[i]);
  if (warnings)
    fprintf(stderr, "%d warning%s generated.\n", warnings, warnings == 1 ? "" : "s");
  av_free(&seen);
  av_free(&renames);
  seen = renames = (struct argv){0};
  warnings = 0;
}
