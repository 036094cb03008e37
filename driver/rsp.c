/* rsp: response files (@FILE) read as GNU tools read them: words separated by blanks, with
   '...', "..." and backslash quoting; nested files expanded too. */
#define _XOPEN_SOURCE 700
#include "rsp.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits the response file's TEXT into words as GNU tools do (blanks separate; '...', "..."
   and backslash quote) and appends them to A. */
static void rsp_words(struct argv *a, const char *text) {
  char *w = xmalloc(strlen(text) + 1);
  const char *p = text;
  while (*p) {
    while (*p && isspace((unsigned char)*p))
      p++;
    if (!*p)
      break;
    size_t n = 0;
    char q = 0;
    for (; *p && (q || !isspace((unsigned char)*p)); p++) {
      if (*p == '\\' && p[1] && q != '\'')
        w[n++] = *++p;
      else if (q && *p == q)
        q = 0;
      else if (!q && (*p == '\'' || *p == '"'))
        q = *p;
      else
        w[n++] = *p;
    }
    w[n] = 0;
    av_push(a, w);
  }
  free(w);
}

/* Reads file PATH whole into a string, or returns NULL. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  size_t n = 0, cap = 4096;
  char *s = xmalloc(cap);
  for (size_t r; (r = fread(s + n, 1, cap - n - 1, f)) > 0;)
    if ((n += r) == cap - 1)
      s = xrealloc(s, cap *= 2);
  s[n] = 0;
  fclose(f);
  return s;
}

/* Appends ARG to A, expanding a response file @FILE (nested ones too, up to DEPTH); returns
   NULL, or the first file that cannot be read (a new string; its @FILE is left in A). */
static char *expand(struct argv *a, const char *arg, int depth) {
  if (arg[0] != '@' || !arg[1]) {
    av_push(a, arg);
    return NULL;
  }
  char *text = depth < 16 ? slurp(arg + 1) : NULL, *bad = NULL;
  if (!text) {
    av_push(a, arg);
    return xstrdup(arg + 1);
  }
  struct argv w = {0};
  rsp_words(&w, text);
  for (int i = 0; i < w.n; i++) {
    char *b = expand(a, w.v[i], depth + 1);
    if (b && !bad)
      bad = b;
    else
      free(b);
  }
  av_free(&w);
  free(text);
  return bad;
}

/* Appends ARG to A, a response file @FILE expanded (nested ones too); returns NULL, or the
   first file that cannot be read (a new string; its @FILE is left in A as it was). */
char *rsp_expand(struct argv *a, const char *arg) { return expand(a, arg, 0); }
