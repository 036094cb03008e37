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

/* Parse state for error messages. */
static const char *mpath;
static int mline;

/* Reports a malformed manifest (at the current line, while reading one) and exits. */
static noreturn void malformed(const char *what, const char *arg) {
  if (mline)
    die("malformed manifest '%s' line %d: %s%s", mpath, mline, what, arg);
  die("malformed manifest '%s': %s%s", mpath, what, arg);
}

/* Parses an unsigned decimal field or reports it. */
static unsigned long long unum(const char *s, const char *what) {
  char *end;
  errno = 0;
  if (*s < '0' || *s > '9')
    malformed(what, s);
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno)
    malformed(what, s);
  return v;
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

/* What reading a manifest keeps beside M. */
struct reading {
  int have_reloc; /* a reloc line was seen */
  int nseen;      /* shard lines seen */
  size_t pcap;    /* room in M->promos */
};

/* Takes a "shards N" line. */
static void take_shards(struct manifest *m, char **f, int n) {
  if (n != 2 || m->nshards >= 0)
    malformed("expected one 'shards N' line", "");
  unsigned long long v = unum(f[1], "bad shard count ");
  if (v < 1 || v > SHARD_MAX_SHARDS)
    malformed("shard count out of range: ", f[1]);
  m->nshards = (int)v;
  m->shards = xmalloc(v * sizeof *m->shards);
  memset(m->shards, 0, v * sizeof *m->shards);
}

/* Takes a "reloc pie|pic|static" line. */
static void take_reloc(struct manifest *m, struct reading *r, char **f, int n) {
  if (n != 2 || r->have_reloc)
    malformed("expected one 'reloc pie', 'reloc pic' or 'reloc static' line", "");
  if (!strcmp(f[1], "pie"))
    m->reloc = RELOC_PIE;
  else if (!strcmp(f[1], "pic"))
    m->reloc = RELOC_PIC;
  else if (!strcmp(f[1], "static"))
    m->reloc = RELOC_STATIC;
  else
    malformed("expected 'reloc pie', 'reloc pic' or 'reloc static'; got ", f[1]);
  r->have_reloc = 1;
}

/* Takes a "shard K cost C functions F" line (K: the next shard). */
static void take_shard(struct manifest *m, struct reading *r, char **f, int n) {
  if (n != 6 || strcmp(f[2], "cost") || strcmp(f[4], "functions"))
    malformed("expected 'shard K cost C functions F'", "");
  if (m->nshards < 0)
    malformed("'shard' line before 'shards N'", "");
  if (r->nseen >= m->nshards)
    malformed("more shard lines than 'shards' says", "");
  struct shard *s = &m->shards[r->nseen];
  if (unum(f[1], "bad shard number ") != (unsigned long long)r->nseen)
    malformed("shard lines must number 0..N-1 in order; got ", f[1]);
  s->id = r->nseen++;
  s->cost = unum(f[3], "bad cost ");
  s->funcs = unum(f[5], "bad function count ");
}

/* Takes a "promoted NEW OLD" line. */
static void take_promo(struct manifest *m, struct reading *r, char **f, int n) {
  if (n != 3 || !*f[1] || !*f[2])
    malformed("expected 'promoted NEW OLD'", "");
  if (m->npromos == r->pcap) {
    r->pcap = r->pcap ? 2 * r->pcap : 64;
    m->promos = xrealloc(m->promos, r->pcap * sizeof *m->promos);
  }
  struct promo *p = &m->promos[m->npromos++];
  p->new = xstrdup(f[1]);
  p->old = strcmp(f[2], "-") ? xstrdup(f[2]) : NULL;
}

/* Takes line LINE (the current one, mline) of the manifest. */
static void take_line(struct manifest *m, struct reading *r, char *line) {
  char *f[MAX_FIELDS] = {0};
  int n = split(line, f);
  if (mline == 1) {
    if (n != 2 || strcmp(f[0], "shard-manifest"))
      malformed("expected 'shard-manifest 1' as the first line", "");
    if (strcmp(f[1], "1"))
      malformed("unsupported manifest version ", f[1]);
  } else if (!strcmp(f[0], "shards")) {
    take_shards(m, f, n);
  } else if (!strcmp(f[0], "reloc")) {
    take_reloc(m, r, f, n);
  } else if (!strcmp(f[0], "triple")) {
    if (n != 2 || !*f[1])
      malformed("expected one value after ", f[0]);
    if (m->triple)
      malformed("duplicate line: ", f[0]);
    m->triple = xstrdup(f[1]);
  } else if (!strcmp(f[0], "shard")) {
    take_shard(m, r, f, n);
  } else if (!strcmp(f[0], "promoted")) {
    take_promo(m, r, f, n);
  } /* other lines: ignored (forward compatibility) */
}

/* Reads and validates the manifest at PATH into M; dies with the reason if it is malformed. */
void manifest_read(const char *path, struct manifest *m) {
  FILE *fp = fopen(path, "r");
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  struct reading r = {0};
  if (!fp)
    die("cannot read manifest '%s': %s", path, strerror(errno));
  memset(m, 0, sizeof *m);
  m->nshards = -1;
  mpath = path;
  mline = 0;
  while ((len = getline(&line, &cap, fp)) >= 0) {
    mline++;
    if (len > 0 && line[len - 1] == '\n')
      line[--len] = 0;
    if (strlen(line) != (size_t)len)
      malformed("NUL byte in line", "");
    take_line(m, &r, line);
  }
  int rerr = ferror(fp);
  fclose(fp);
  free(line);
  mline = 0;
  if (rerr)
    die("cannot read manifest '%s': read error", path);
  if (m->nshards < 0)
    malformed("no 'shards N' line", "");
  if (!r.have_reloc)
    malformed("no 'reloc' line", "");
  if (r.nseen != m->nshards)
    malformed("fewer 'shard' lines than 'shards' says", "");
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

/* Dies unless M's target produces ELF objects, the only kind ld.lld -r and the symbol
   restoring of phase 3 handle; checked before any shard is compiled. */
void manifest_check_target(const struct manifest *m, const char *input) {
  const char *f = m->triple ? non_elf(m->triple) : NULL;
  if (f)
    die("'%s' targets '%s', whose objects are %s: shard produces ELF objects only", input,
        m->triple, f);
}
