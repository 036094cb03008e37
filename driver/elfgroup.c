/* elfgroup: the split gives each local function that several shards may compile (a shared
   local, "grouped" in the manifest) a linkonce_odr definition in a comdat group named after
   its promoted symbol, so that ld -r keeps one copy of it. Once the symbol is local again,
   that group must not be deduplicated by name against other objects' groups (a static of
   another unit may have the same name): this clears its GRP_COMDAT flag, which leaves a
   plain group that every linker keeps. ELF of either class and byte order. */
#include "elfgroup.h"

#include "manifest.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { SHT_SYMTAB_ = 2, SHT_GROUP_ = 17, GRP_COMDAT_ = 1, STB_LOCAL_ = 0 };

struct elf {
  unsigned char *p;
  size_t size;
  int is64, big;
};

/* The N-byte unsigned integer at OFF (in bounds: the callers check). */
static uint64_t get(const struct elf *e, size_t off, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++)
    v |= (uint64_t)e->p[off + (e->big ? n - 1 - i : i)] << (8 * i);
  return v;
}

/* Stores the 4-byte V at OFF. */
static void put4(struct elf *e, size_t off, uint32_t v) {
  for (int i = 0; i < 4; i++)
    e->p[off + (e->big ? 3 - i : i)] = (unsigned char)(v >> (8 * i));
}

/* Whether [OFF, OFF+LEN) lies inside the file. */
static int inside(const struct elf *e, uint64_t off, uint64_t len) {
  return off <= e->size && len <= e->size - off;
}

/* The field of the section header at BASE: at F64 (W64 bytes) in ELF64, at F32 (W32) in ELF32. */
static uint64_t shdr(const struct elf *e, size_t base, int f64, int w64, int f32, int w32) {
  return e->is64 ? get(e, base + f64, w64) : get(e, base + f32, w32);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The final names (after objcopy's renaming) of M's grouped promotions, sorted; *N their count. */
static char **grouped_names(const struct manifest *m, size_t *n) {
  char **v = xcalloc(m->npromos + 1, sizeof *v);
  *n = 0;
  for (size_t i = 0; i < m->npromos; i++)
    if (m->promos[i].grouped)
      v[(*n)++] = m->promos[i].old ? m->promos[i].old : m->promos[i].new;
  qsort(v, *n, sizeof *v, by_name);
  return v;
}

/* Clears GRP_COMDAT in each group of the SIZE bytes of relocatable object DATA whose signature
   is a local symbol that M's manifest says is grouped; *CHANGED says whether any was. Returns
   NULL, or why DATA is not an object it can read (a new string). */
char *elfgroup_private(char *data, size_t size, const struct manifest *m, int *changed) {
  struct elf e = {(unsigned char *)data, size, 0, 0};
  *changed = 0;
  size_t nn;
  char **names = grouped_names(m, &nn);
  char *err = NULL;
  if (!nn)
    goto out;
  if (size < 64 || memcmp(data, "\177ELF", 4) || (data[4] != 1 && data[4] != 2) ||
      (data[5] != 1 && data[5] != 2)) {
    err = xstrdup("not an ELF object");
    goto out;
  }
  e.is64 = data[4] == 2, e.big = data[5] == 2;
  uint64_t shoff = e.is64 ? get(&e, 40, 8) : get(&e, 32, 4);
  uint64_t shentsize = get(&e, e.is64 ? 58 : 46, 2), shnum = get(&e, e.is64 ? 60 : 48, 2);
  if (shentsize != (e.is64 ? 64u : 40u) || !inside(&e, shoff, shentsize)) {
    err = xstrdup("bad section header table");
    goto out;
  }
  if (!shnum) /* more sections than e_shnum holds: section 0's sh_size has the count */
    shnum = shdr(&e, shoff, 32, 8, 20, 4);
  if (shnum > size / shentsize || !inside(&e, shoff, shnum * shentsize)) {
    err = xstrdup("section header table out of the file");
    goto out;
  }
  for (uint64_t i = 0; i < shnum && !err; i++) {
    size_t h = shoff + i * shentsize;
    if (get(&e, h + 4, 4) != SHT_GROUP_)
      continue;
    uint64_t goff = shdr(&e, h, 24, 8, 16, 4), gsize = shdr(&e, h, 32, 8, 20, 4);
    uint64_t link = get(&e, h + (e.is64 ? 40 : 24), 4), info = get(&e, h + (e.is64 ? 44 : 28), 4);
    if (gsize < 4 || !inside(&e, goff, gsize) || link >= shnum) {
      err = fmt("bad group section %llu", (unsigned long long)i);
      break;
    }
    size_t sh = shoff + link * shentsize;
    uint64_t soff = shdr(&e, sh, 24, 8, 16, 4), ssize = shdr(&e, sh, 32, 8, 20, 4);
    uint64_t strl = get(&e, sh + (e.is64 ? 40 : 24), 4), entsz = e.is64 ? 24 : 16;
    if (get(&e, sh + 4, 4) != SHT_SYMTAB_ || strl >= shnum || (info + 1) * entsz > ssize ||
        !inside(&e, soff, ssize)) {
      err = fmt("bad symbol table for group section %llu", (unsigned long long)i);
      break;
    }
    size_t sym = soff + info * entsz, st = shoff + strl * shentsize;
    uint64_t name = get(&e, sym, 4), bind = e.p[sym + (e.is64 ? 4 : 12)] >> 4;
    uint64_t toff = shdr(&e, st, 24, 8, 16, 4), tsize = shdr(&e, st, 32, 8, 20, 4);
    if (!inside(&e, toff, tsize) || name >= tsize || !memchr(data + toff + name, 0, tsize - name)) {
      err = fmt("bad signature name for group section %llu", (unsigned long long)i);
      break;
    }
    const char *sig = data + toff + name;
    uint32_t flags = (uint32_t)get(&e, goff, 4);
    if (bind == STB_LOCAL_ && (flags & GRP_COMDAT_) &&
        bsearch(&sig, names, nn, sizeof *names, by_name)) {
      put4(&e, goff, flags & ~(uint32_t)GRP_COMDAT_);
      *changed = 1;
    }
  }
out:
  free(names);
  return err;
}
