/* manifest: reading and validating DIR/manifest written by the plugin's shard-split. */
#define _XOPEN_SOURCE 700
#include "manifest.h"
#include "ir/limits.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 8

/* What reading a manifest keeps beside M: where it is (for messages) and the first error. */
struct reading {
  const char *path;
  int line;       /* the current line; 0 after the last */
  char *err;      /* the first error, a new string */
  int have_reloc; /* a reloc line was seen */
  int nseen;      /* shard lines seen */
  size_t pcap;    /* room in M->promos */
};

/* Records a malformed manifest (at the current line, while reading one); returns -1. */
static int malformed(struct reading *r, const char *what, const char *arg) {
  if (r->err)
    return -1;
  if (r->line)
    r->err = fmt("malformed manifest '%s' line %d: %s%s", r->path, r->line, what, arg);
  else
    r->err = fmt("malformed manifest '%s': %s%s", r->path, what, arg);
  return -1;
}

/* Parses an unsigned decimal field into *V; -1 after recording it as malformed. */
static int unum(struct reading *r, const char *s, const char *what, unsigned long long *v) {
  char *end;
  errno = 0;
  if (*s < '0' || *s > '9')
    return malformed(r, what, s);
  *v = strtoull(s, &end, 10);
  if (*end || errno)
    return malformed(r, what, s);
  return 0;
}

/* Splits LINE in place at single spaces into at most MAX_FIELDS fields; returns the count. */
static int split(char *line, char **f) {
  int n = 0;
  for (char *p = line; n < MAX_FIELDS;) {
    f[n++] = p;
    p = strchr(p, ' ');
    if (!p)
      break;
    *p++ = 0;
  }
  return n;
}

/* Takes a "shards N" line. */
static int take_shards(struct manifest *m, struct reading *r, char **f, int n) {
  unsigned long long v;
  if (n != 2 || m->nshards >= 0)
    return malformed(r, "expected one 'shards N' line", "");
  if (unum(r, f[1], "bad shard count ", &v))
    return -1;
  if (v < 1 || v > SHARD_MAX_SHARDS)
    return malformed(r, "shard count out of range: ", f[1]);
  m->nshards = (int)v;
  m->shards = xcalloc(v, sizeof *m->shards);
  return 0;
}

/* Takes a "reloc pie|pic|static" line. */
static int take_reloc(struct manifest *m, struct reading *r, char **f, int n) {
  if (n != 2 || r->have_reloc)
    return malformed(r, "expected one 'reloc pie', 'reloc pic' or 'reloc static' line", "");
  if (!strcmp(f[1], "pie"))
    m->reloc = RELOC_PIE;
  else if (!strcmp(f[1], "pic"))
    m->reloc = RELOC_PIC;
  else if (!strcmp(f[1], "static"))
    m->reloc = RELOC_STATIC;
  else
    return malformed(r, "expected 'reloc pie', 'reloc pic' or 'reloc static'; got ", f[1]);
  r->have_reloc = 1;
  return 0;
}

/* Takes a "shard K cost C functions F" line (K: the next shard). */
static int take_shard(struct manifest *m, struct reading *r, char **f, int n) {
  if (n != 6 || strcmp(f[2], "cost") || strcmp(f[4], "functions"))
    return malformed(r, "expected 'shard K cost C functions F'", "");
  if (m->nshards < 0)
    return malformed(r, "'shard' line before 'shards N'", "");
  if (r->nseen >= m->nshards)
    return malformed(r, "more shard lines than 'shards' says", "");
  struct shard *s = &m->shards[r->nseen];
  unsigned long long k;
  if (unum(r, f[1], "bad shard number ", &k))
    return -1;
  if (k != (unsigned long long)r->nseen)
    return malformed(r, "shard lines must number 0..N-1 in order; got ", f[1]);
  s->id = r->nseen++;
  return unum(r, f[3], "bad cost ", &s->cost) || unum(r, f[5], "bad function count ", &s->funcs)
             ? -1
             : 0;
}

/* Takes a "promoted NEW OLD" line. */
static int take_promo(struct manifest *m, struct reading *r, char **f, int n) {
  if (n != 3 || !*f[1] || !*f[2])
    return malformed(r, "expected 'promoted NEW OLD'", "");
  if (m->npromos == r->pcap) {
    r->pcap = r->pcap ? 2 * r->pcap : 64;
    m->promos = xrealloc(m->promos, r->pcap * sizeof *m->promos);
  }
  struct promo *p = &m->promos[m->npromos++];
  p->new = xstrdup(f[1]);
  p->old = strcmp(f[2], "-") ? xstrdup(f[2]) : NULL;
  p->grouped = 0;
  return 0;
}

/* Takes a "grouped NEW" line, which follows NEW's "promoted" line. */
static int take_grouped(struct manifest *m, struct reading *r, char **f, int n) {
  if (n != 2 || !*f[1])
    return malformed(r, "expected 'grouped NEW'", "");
  if (!m->npromos || strcmp(m->promos[m->npromos - 1].new, f[1]))
    return malformed(r, "'grouped' line not after the 'promoted' line of ", f[1]);
  m->promos[m->npromos - 1].grouped = 1;
  return 0;
}

/* Takes line LINE (the current one, r->line) of the manifest. */
static int take_line(struct manifest *m, struct reading *r, char *line) {
  char *f[MAX_FIELDS] = {0};
  int n = split(line, f);
  if (r->line == 1) {
    if (n != 2 || strcmp(f[0], "shard-manifest"))
      return malformed(r, "expected 'shard-manifest 1' as the first line", "");
    if (strcmp(f[1], "1"))
      return malformed(r, "unsupported manifest version ", f[1]);
  } else if (!strcmp(f[0], "shards")) {
    return take_shards(m, r, f, n);
  } else if (!strcmp(f[0], "reloc")) {
    return take_reloc(m, r, f, n);
  } else if (!strcmp(f[0], "triple")) {
    if (n != 2 || !*f[1])
      return malformed(r, "expected one value after ", f[0]);
    if (m->triple)
      return malformed(r, "duplicate line: ", f[0]);
    m->triple = xstrdup(f[1]);
  } else if (!strcmp(f[0], "shard")) {
    return take_shard(m, r, f, n);
  } else if (!strcmp(f[0], "promoted")) {
    return take_promo(m, r, f, n);
  } else if (!strcmp(f[0], "grouped")) {
    return take_grouped(m, r, f, n);
  } /* other lines: ignored (forward compatibility) */
  return 0;
}

/* Parses and validates the SIZE bytes of manifest TEXT (named PATH in messages) into M;
   returns NULL, or the reason it is malformed (a new string; M is then freed). */
char *manifest_parse(const char *text, size_t size, const char *path, struct manifest *m) {
  struct reading r = {.path = path};
  memset(m, 0, sizeof *m);
  m->nshards = -1;
  for (size_t at = 0; at < size && !r.err;) {
    const char *nl = memchr(text + at, '\n', size - at);
    size_t len = nl ? (size_t)(nl - text - at) : size - at;
    char *line = xmalloc(len + 1);
    memcpy(line, text + at, len);
    line[len] = 0;
    r.line++;
    if (strlen(line) != len)
      malformed(&r, "NUL byte in line", "");
    else
      take_line(m, &r, line);
    free(line);
    at += len + 1;
  }
  r.line = 0;
  if (m->nshards < 0)
    malformed(&r, "no 'shards N' line", "");
  else if (!r.have_reloc)
    malformed(&r, "no 'reloc' line", "");
  else if (r.nseen != m->nshards)
    malformed(&r, "fewer 'shard' lines than 'shards' says", "");
  if (r.err)
    manifest_free(m);
  return r.err;
}

/* Reads and validates the manifest at PATH into M; dies with the reason if it is malformed. */
void manifest_read(const char *path, struct manifest *m) {
  FILE *fp = fopen(path, "r");
  if (!fp)
    die("cannot read manifest '%s': %s", path, strerror(errno));
  size_t n = 0, cap = 1 << 16;
  char *text = xmalloc(cap);
  for (size_t got; (got = fread(text + n, 1, cap - n, fp)) > 0;)
    if ((n += got) == cap)
      text = xrealloc(text, cap *= 2);
  int rerr = ferror(fp);
  fclose(fp);
  if (rerr)
    die("cannot read manifest '%s': read error", path);
  char *err = manifest_parse(text, n, path, m);
  free(text);
  if (err)
    die("%s", err);
}

/* Frees what M holds. */
void manifest_free(struct manifest *m) {
  for (size_t i = 0; i < m->npromos; i++) {
    free(m->promos[i].new);
    free(m->promos[i].old);
  }
  free(m->promos);
  free(m->shards);
  free(m->triple);
  memset(m, 0, sizeof *m);
}

/* The object file format LLVM gives TRIPLE when it is not ELF (as Triple::getDefaultFormat
   picks it: by architecture, then operating system, an explicit "-elf"/"-macho"/"-coff"
   environment first), or NULL for ELF. */
static const char *non_elf(const char *triple) {
  static const char *const os[][2] = {
      {"darwin", "Mach-O"},  {"macos", "Mach-O"}, {"ios", "Mach-O"},       {"tvos", "Mach-O"},
      {"watchos", "Mach-O"}, {"xros", "Mach-O"},  {"driverkit", "Mach-O"}, {"apple", "Mach-O"},
      {"windows", "COFF"},   {"win32", "COFF"},   {"cygwin", "COFF"},      {"mingw", "COFF"},
      {"uefi", "COFF"},      {"aix", "XCOFF"},    {"zos", "GOFF"}};
  const char *env = strrchr(triple, '-');
  if (env && strlen(env) >= 4 && !strcmp(env + strlen(env) - 3, "elf"))
    return NULL;
  if (env && (!strcmp(env, "-macho") || !strcmp(env, "-coff")))
    return env[1] == 'm' ? "Mach-O" : "COFF";
  if (!strncmp(triple, "wasm", 4))
    return "WebAssembly";
  if (!strncmp(triple, "spirv", 5))
    return "SPIR-V";
  if (!strncmp(triple, "dxil", 4))
    return "DXContainer";
  for (const char *p = strchr(triple, '-'); p; p = strchr(p + 1, '-'))
    for (size_t i = 0; i < sizeof os / sizeof *os; i++)
      if (!strncmp(p + 1, os[i][0], strlen(os[i][0])))
        return os[i][1];
  return NULL;
}

/* NULL when M's target produces ELF objects, the only kind ld.lld -r and the symbol
   restoring of phase 3 handle; else why not (a new string). */
char *manifest_target_error(const struct manifest *m, const char *input) {
  const char *f = m->triple ? non_elf(m->triple) : NULL;
  if (!f)
    return NULL;
  return fmt("'%s' targets '%s', whose objects are %s: shard produces ELF objects only", input,
             m->triple, f);
}

/* Dies unless M's target produces ELF objects; checked before any shard is compiled. */
void manifest_check_target(const struct manifest *m, const char *input) {
  char *err = manifest_target_error(m, input);
  if (err)
    die("%s", err);
}
