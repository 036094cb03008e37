/* diag: the backend diagnostics of the launcher's compiles. A compile of IR prints a backend
   diagnostic as "warning: FILE:L:C: TEXT" (its location from the module's debug locations, or
   "<unknown>:0:0"), where the compiler from the source prints "FILE:L:C: warning: TEXT": the
   logs are read in shard order, each diagnostic kept once (a function several shards hold is
   reported by each), the location put first, a promoted symbol named as in the object, the
   module's file named as the source, and one "N warnings generated." line at the end with the
   number of distinct warnings. The split's diagnostics (opt's: a profile's use) are the ones
   clang reports in group -Wbackend-plugin, which the compiler's flags silence or make errors.
   The compiles write plain text (-fno-color-diagnostics); the colours, when the compiler's
   flags or a colour terminal ask for them, are put on here as clang puts them. */
#define _XOPEN_SOURCE 700
#include "diag.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct argv seen;    /* the diagnostics kept, in order */
static int diag_warnings;   /* how many of them are warnings */
static int errors;          /* how many are errors */
static struct argv renames; /* pairs: a promoted symbol's name, its name in the object */
static const char *module;  /* the module's file, named in a diagnostic without a location */
static const char *source;  /* what the compiler from the source names instead */
static int colors;          /* print in clang's colours */
static int fe_warnings;     /* the front end's count, printed with the backend's */

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
  size_t loc = location(rest), m = module ? strlen(module) : 0;
  if (!loc && m && !strncmp(rest, module, m) && !strncmp(rest + m, ": ", 2))
    return fmt("%s: %s%s", kind, source, rest + m);
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

/* The level of clang's group -Wbackend-plugin under compiler command ARGV, by clang's rules:
   on by default; -w silences every warning; the last of -Wbackend-plugin, -Werror=backend-plugin
   (on) and -Wno-backend-plugin, -Wno-everything (off) decides whether it is on; an error with
   -Werror=backend-plugin, or with the last of -Werror and -Wno-error unless
   -Wno-error=backend-plugin came after the last -Werror=backend-plugin. */
enum diag_level diag_plugin_level(char *const *argv) {
  int on = 1, quiet = 0, werror = 0, group = -1; /* group: -Werror=G's 1, -Wno-error=G's 0 */
  for (char *const *a = argv + 1; *a; a++) {
    if (!strcmp(*a, "-w") || !strcmp(*a, "--no-warnings"))
      quiet = 1;
    else if (!strcmp(*a, "-Wbackend-plugin"))
      on = 1;
    else if (!strcmp(*a, "-Wno-backend-plugin") || !strcmp(*a, "-Wno-everything"))
      on = 0;
    else if (!strcmp(*a, "-Werror=backend-plugin"))
      on = 1, group = 1;
    else if (!strcmp(*a, "-Wno-error=backend-plugin"))
      group = 0;
    else if (!strcmp(*a, "-Werror") || !strcmp(*a, "-Wno-error"))
      werror = (*a)[3] != 'n';
  }
  if (quiet || !on)
    return DIAG_IGNORED;
  return group == 1 || (group < 0 && werror) ? DIAG_ERROR : DIAG_WARNING;
}

/* Whether $TERM names a terminal with colours, as LLVM's sys::Process decides. */
static int term_has_colors(void) {
  const char *t = getenv("TERM");
  static const char *const prefixes[] = {"screen", "xterm", "vt100", "rxvt", NULL};
  if (!t)
    return 0;
  if (!strcmp(t, "ansi") || !strcmp(t, "cygwin") || !strcmp(t, "linux"))
    return 1;
  for (const char *const *p = prefixes; *p; p++)
    if (!strncmp(t, *p, strlen(*p)))
      return 1;
  size_t n = strlen(t);
  return n >= 5 && !strcmp(t + n - 5, "color");
}

/* Prints the diagnostics to come in colour when compiler command ARGV asks for it, as clang
   decides: the last of -f[no-]color-diagnostics, -f[no-]diagnostics-color[=always|never|auto],
   else (auto) when stderr is a terminal with colours. */
void diag_colors(char *const *argv) {
  int on = -1; /* -1: auto */
  for (char *const *a = argv + 1; *a; a++) {
    if (!strcmp(*a, "-fcolor-diagnostics") || !strcmp(*a, "-fdiagnostics-color") ||
        !strcmp(*a, "-fdiagnostics-color=always"))
      on = 1;
    else if (!strcmp(*a, "-fno-color-diagnostics") || !strcmp(*a, "-fno-diagnostics-color") ||
             !strcmp(*a, "-fdiagnostics-color=never"))
      on = 0;
    else if (!strcmp(*a, "-fdiagnostics-color=auto"))
      on = -1;
  }
  colors = on >= 0 ? on : isatty(STDERR_FILENO) && term_has_colors();
}

/* Whether the diagnostics are printed in colour (diag_colors). */
int diag_colored(void) { return colors; }

/* Prints the front end's log LOG (its diagnostics as the compiler printed them) to stderr but
   for its count, which the count printed at the end takes in. */
void diag_frontend(const char *log) {
  FILE *f = fopen(log, "r");
  char *line = NULL;
  size_t cap = 0;
  for (ssize_t r; f && (r = getline(&line, &cap, f)) > 0;) {
    const char *p = line; /* after the colour codes that end the line before */
    while (p[0] == '\033' && p[1] == '[' && strchr(p, 'm'))
      p = strchr(p, 'm') + 1;
    if (is_count(p)) /* "N warnings generated." (errors failed it); the codes kept */
      fe_warnings += atoi(p), fprintf(stderr, "%.*s", (int)(p - line), line);
    else
      fputs(line, stderr);
  }
  free(line);
  if (f)
    fclose(f);
}

/* Names the module's file MODULE as SOURCE, the file the compiler was given, in the
   diagnostics to come (a compile of IR names the module's file, one from the source the
   source's). */
void diag_source(const char *module_file, const char *source_file) {
  module = module_file;
  source = source_file;
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
  if (strncmp(d, "<inline asm>:", 13)) { /* the assembler's, which clang does not count */
    diag_warnings += (k && !strcmp(k, "warning")) || strstr(d, ": warning: ") != NULL;
    errors += (k && !strcmp(k, "error")) || strstr(d, ": error: ") != NULL;
  }
  av_take(&seen, d);
}

/* The split's diagnostic LINE (reformatted; freed) as clang reports a warning of group
   -Wbackend-plugin at LEVEL, or NULL when that silences it; not a warning: LINE. */
static char *plugin(char *line, enum diag_level level) {
  const char *w = "warning: ";
  size_t loc = location(line), n = strlen(w);
  if (strncmp(line + loc, w, n))
    return line;
  char *r = level == DIAG_IGNORED ? NULL
            : level == DIAG_ERROR
                ? fmt("%.*serror: %s [-Werror,-Wbackend-plugin]", (int)loc, line, line + loc + n)
                : fmt("%s [-Wbackend-plugin]", line);
  free(line);
  return r;
}

/* Reads log LOG (SPLIT: the split's, its warnings at LEVEL): its diagnostics, each a first
   line and the lines that follow it (the source line, the caret), are kept once. */
static void add(const char *log, int split, enum diag_level level) {
  FILE *f = fopen(log, "r");
  if (!f)
    return;
  char *line = NULL, *d = NULL;
  size_t cap = 0;
  int dropped = 0; /* the diagnostic being read is silenced */
  for (ssize_t r; (r = getline(&line, &cap, f)) > 0;) {
    if (line[r - 1] == '\n')
      line[r - 1] = 0;
    if (is_count(line))
      continue;
    size_t n;
    if (kind_of(line, &n) || location(line)) { /* a new diagnostic */
      if (d)
        keep(d), d = NULL;
      dropped = 0;
    }
    char *l = reformat(line);
    if (split && !dropped && !d)
      dropped = !(l = plugin(l, level));
    if (dropped)
      continue;
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

/* Reads the compiler's log LOG. */
void diag_add_file(const char *log) { add(log, 0, DIAG_WARNING); }

/* Reads the split's log LOG: its warnings are clang's -Wbackend-plugin at LEVEL. */
void diag_add_split(const char *log, enum diag_level level) { add(log, 1, level); }

/* Prints diagnostic D to F in clang's colours: the location bold, the kind in its colour, the
   message bold (not a note's); the lines after the first as they are. */
static void print_colored(FILE *f, const char *d) {
  size_t loc = location(d), n;
  const char *kind = kind_of(d + loc, &n);
  if (!kind) {
    fprintf(f, "%s\n", d);
    return;
  }
  const char *color = !strcmp(kind, "error")     ? "0;1;31"
                      : !strcmp(kind, "warning") ? "0;1;35"
                      : !strcmp(kind, "remark")  ? "0;1;34"
                                                 : "0;1;36";
  const char *msg = d + loc + n + 2, *end = strchr(msg, '\n');
  if (loc)
    fprintf(f, "\033[1m%.*s\033[0m", (int)loc, d);
  fprintf(f, "\033[%sm%s: \033[0m%s%.*s\033[0m\n", color, kind,
          strcmp(kind, "note") ? "\033[1m" : "", (int)(end ? end - msg : (ptrdiff_t)strlen(msg)),
          msg);
  if (end)
    fprintf(f, "%s\n", end + 1);
}

/* Prints the diagnostics kept (in colour to stderr when asked) and their count, as clang
   does, to F (to stderr, the front end's warnings counted too). */
static void print(FILE *f) {
  for (int i = 0; i < seen.n; i++)
    if (colors && f == stderr)
      print_colored(f, seen.v[i]);
    else
      fprintf(f, "%s\n", seen.v[i]);
  int warnings = f == stderr ? fe_warnings + diag_warnings : diag_warnings;
  if (warnings && errors)
    fprintf(f, "%d warning%s and %d error%s generated.\n", warnings, warnings == 1 ? "" : "s",
            errors, errors == 1 ? "" : "s");
  else if (warnings || errors)
    fprintf(f, "%d %s%s generated.\n", warnings + errors, warnings ? "warning" : "error",
            warnings + errors == 1 ? "" : "s");
}

/* Prints the diagnostics kept, also into the file COPY when given, and forgets them;
   returns how many were errors. */
int diag_flush(const char *copy) {
  print(stderr);
  FILE *f = copy ? fopen(copy, "w") : NULL;
  if (f)
    print(f), fclose(f);
  int n = errors;
  av_free(&seen);
  av_free(&renames);
  seen = renames = (struct argv){0};
  diag_warnings = errors = fe_warnings = 0;
  return n;
}
