/* ehframe: ld -r keeps one copy of each comdat group (a linkonce_odr function that several
   shards compiled) and drops the others' sections, but not their unwind entries: the FDEs of
   the dropped copies stay in .eh_frame, their relocations turned into R_*_NONE against no
   symbol (on RISC-V: of their own type, against no symbol). A final link drops such FDEs;
   this drops them from the linked relocatable object already, with their relocations, so
   that it holds the unwind tables of the code it holds, as the serial compile's object does.
   ELF of either class and byte order, .eh_frame with RELA relocations (every target Shard
   emits but 32-bit x86 and ARM); any other layout, or anything it does not expect, is left
   as it is. */
#include "ehframe.h"

#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
  SHT_SYMTAB_ = 2, SHT_RELA_ = 4, SHT_NOBITS_ = 8, SHT_REL_ = 9, SHT_SYMTAB_SHNDX_ = 18,
  STT_SECTION_ = 3
};

struct obj {
  unsigned char *p;
  size_t size;
  int is64, big;
  uint64_t shoff, shnum, shent;
};

/* A record of .eh_frame: [off, end), a CIE or an FDE, and what becomes of it. */
struct rec {
  uint64_t off, end, cie; /* cie: an FDE's CIE's offset */
  int is_cie, dead;
  uint64_t to; /* its offset in the new section */
};

/* The N-byte unsigned integer at OFF (in bounds: the callers check). */
static uint64_t get(const struct obj *o, const unsigned char *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++)
    v |= (uint64_t)p[o->big ? n - 1 - i : i] << (8 * i);
  return v;
}

/* Stores the N-byte V at P. */
static void put(const struct obj *o, unsigned char *p, int n, uint64_t v) {
  for (int i = 0; i < n; i++)
    p[o->big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* Section I's header, and its fields by their ELF64 and ELF32 offsets and widths. */
static unsigned char *sh(const struct obj *o, uint64_t i) { return o->p + o->shoff + i * o->shent; }
static uint64_t field(const struct obj *o, uint64_t i, int f64, int w64, int f32, int w32) {
  return o->is64 ? get(o, sh(o, i) + f64, w64) : get(o, sh(o, i) + f32, w32);
}
static uint64_t sh_type(const struct obj *o, uint64_t i) { return get(o, sh(o, i) + 4, 4); }
static uint64_t sh_offset(const struct obj *o, uint64_t i) { return field(o, i, 24, 8, 16, 4); }
static uint64_t sh_size(const struct obj *o, uint64_t i) { return field(o, i, 32, 8, 20, 4); }
static uint64_t sh_link(const struct obj *o, uint64_t i) { return field(o, i, 40, 4, 24, 4); }
static uint64_t sh_info(const struct obj *o, uint64_t i) { return field(o, i, 44, 4, 28, 4); }
static uint64_t sh_align(const struct obj *o, uint64_t i) { return field(o, i, 48, 8, 32, 4); }
static void set_offset(struct obj *o, uint64_t i, uint64_t v) {
  put(o, sh(o, i) + (o->is64 ? 24 : 16), o->is64 ? 8 : 4, v);
}
static void set_size(struct obj *o, uint64_t i, uint64_t v) {
  put(o, sh(o, i) + (o->is64 ? 32 : 20), o->is64 ? 8 : 4, v);
}

/* Whether section I's contents lie in the file (NOBITS: nothing to read). */
static int in_file(const struct obj *o, uint64_t i) {
  uint64_t off = sh_offset(o, i), n = sh_size(o, i);
  return sh_type(o, i) == SHT_NOBITS_ || (off <= o->size && n <= o->size - off);
}

/* Reads the header and section table; 0 when it is not a relocatable ELF object it knows. */
static int open_obj(struct obj *o, char *data, size_t size) {
  *o = (struct obj){(unsigned char *)data, size, 0, 0, 0, 0, 0};
  if (size < 64 || memcmp(data, "\177ELF", 4) || (data[4] != 1 && data[4] != 2) ||
      (data[5] != 1 && data[5] != 2))
    return 0;
  o->is64 = data[4] == 2, o->big = data[5] == 2;
  unsigned char *p = o->p;
  if (get(o, p + 16, 2) != 1 /* ET_REL */ || get(o, p + (o->is64 ? 56 : 44), 2) /* e_phnum */)
    return 0;
  o->shoff = o->is64 ? get(o, p + 40, 8) : get(o, p + 32, 4);
  o->shent = get(o, p + (o->is64 ? 58 : 46), 2), o->shnum = get(o, p + (o->is64 ? 60 : 48), 2);
  if (o->shent != (o->is64 ? 64u : 40u) || o->shoff > size || size - o->shoff < o->shent)
    return 0;
  if (!o->shnum) /* more sections than e_shnum holds: section 0's sh_size has the count */
    o->shnum = sh_size(o, 0);
  if (o->shnum > (size - o->shoff) / o->shent)
    return 0;
  for (uint64_t i = 0; i < o->shnum; i++)
    if (!in_file(o, i))
      return 0;
  return 1;
}

/* The index of the section named NAME, or 0 (none, or several). */
static uint64_t find_section(const struct obj *o, const char *name) {
  uint64_t strndx = get(o, o->p + (o->is64 ? 62 : 50), 2), found = 0;
  if (strndx == 0xffff) /* SHN_XINDEX: in section 0's sh_link */
    strndx = sh_link(o, 0);
  if (strndx >= o->shnum)
    return 0;
  uint64_t toff = sh_offset(o, strndx), tsize = sh_size(o, strndx), len = strlen(name) + 1;
  for (uint64_t i = 1; i < o->shnum; i++) {
    uint64_t n = get(o, sh(o, i), 4);
    if (n < tsize && tsize - n >= len && !memcmp(o->p + toff + n, name, len)) {
      if (found)
        return 0;
      found = i;
    }
  }
  return found;
}

/* The size of an entry of relocation section R (RELA, or REL). */
static uint64_t rel_size(const struct obj *o, uint64_t r) {
  return sh_type(o, r) == SHT_RELA_ ? (o->is64 ? 24 : 12) : (o->is64 ? 16 : 8);
}

/* Relocation K of relocation section R: its offset, symbol index and type. */
static void reloc(const struct obj *o, uint64_t r, uint64_t k, uint64_t *off, uint64_t *sym,
                 uint64_t *type) {
  const unsigned char *e = o->p + sh_offset(o, r) + k * rel_size(o, r);
  *off = get(o, e, o->is64 ? 8 : 4);
  uint64_t info = get(o, e + (o->is64 ? 8 : 4), o->is64 ? 8 : 4);
  *sym = o->is64 ? info >> 32 : info >> 8;
  *type = o->is64 ? info & 0xffffffffu : info & 0xffu;
}

/* Symbol Y's st_info and st_value. */
static unsigned st_info(const struct obj *o, const unsigned char *y) { return y[o->is64 ? 4 : 12]; }
static uint64_t st_value(const struct obj *o, const unsigned char *y) {
  return o->is64 ? get(o, y + 8, 8) : get(o, y + 4, 4);
}

/* The SHT_SYMTAB_SHNDX section of symbol table T, or 0. */
static uint64_t shndx_table(const struct obj *o, uint64_t t) {
  for (uint64_t i = 1; i < o->shnum; i++)
    if (sh_type(o, i) == SHT_SYMTAB_SHNDX_ && sh_link(o, i) == t)
      return i;
  return 0;
}

/* The section index of symbol K of symbol table SYM (XNDX: its SHT_SYMTAB_SHNDX, or 0). */
static uint64_t sym_shndx(const struct obj *o, uint64_t sym, uint64_t xndx, uint64_t k) {
  const unsigned char *y = o->p + sh_offset(o, sym) + k * (o->is64 ? 24 : 16);
  uint64_t shndx = get(o, y + (o->is64 ? 6 : 14), 2);
  if (shndx == 0xffff && xndx && (k + 1) * 4 <= sh_size(o, xndx))
    shndx = get(o, o->p + sh_offset(o, xndx) + k * 4, 4);
  return shndx;
}

/* Whether symbol Y (of table T, which names it in the string table it links to) is a mapping
   symbol ($d, $x, ...: AArch64's and others' marks of where data and code begin). */
static int mapping_symbol(const struct obj *o, uint64_t t, const unsigned char *y) {
  uint64_t str = sh_link(o, t), name = get(o, y, 4);
  return st_info(o, y) == 0 /* STT_NOTYPE, STB_LOCAL */ && str < o->shnum && name < sh_size(o, str) &&
         o->p[sh_offset(o, str) + name] == '$';
}

/* Whether something but EH's own relocations depends on where EH's bytes lie: a symbol defined
   in EH other than its section symbol and mapping symbols (which remap_symbols moves), or a
   relocation of another section against one. */
static int eh_referenced(const struct obj *o, uint64_t eh, uint64_t ehrel) {
  uint64_t entsz = o->is64 ? 24 : 16;
  for (uint64_t t = 1; t < o->shnum; t++) {
    if (sh_type(o, t) != SHT_SYMTAB_)
      continue;
    uint64_t xndx = shndx_table(o, t);
    uint64_t nsyms = sh_size(o, t) / entsz;
    uint8_t *in_eh = xcalloc(nsyms + 1, 1);
    int bad = 0;
    for (uint64_t k = 1; k < nsyms && !bad; k++) {
      const unsigned char *y = o->p + sh_offset(o, t) + k * entsz;
      if (sym_shndx(o, t, xndx, k) == eh) {
        in_eh[k] = 1;
        bad = ((st_info(o, y) & 0xf) != STT_SECTION_ || st_value(o, y)) && !mapping_symbol(o, t, y);
      }
    }
    for (uint64_t r = 1; r < o->shnum && !bad; r++) {
      uint64_t type = sh_type(o, r);
      if ((type != SHT_RELA_ && type != SHT_REL_) || sh_link(o, r) != t || r == ehrel)
        continue;
      for (uint64_t k = 0; k < sh_size(o, r) / rel_size(o, r) && !bad; k++) {
        uint64_t off, sym, rtype;
        reloc(o, r, k, &off, &sym, &rtype);
        bad = sym < nsyms && in_eh[sym];
      }
    }
    free(in_eh);
    if (bad)
      return 1;
  }
  return 0;
}

/* The index of the record holding section offset OFF (records sorted, contiguous). */
static size_t record_of(const struct rec *v, size_t n, uint64_t off) {
  size_t lo = 0, hi = n;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (v[mid].off <= off)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* The records of .eh_frame (section EH) in *N; NULL when it is not a plain list of CIEs and
   FDEs (a 64-bit length, a terminator, an FDE whose CIE is not a record before it). */
static struct rec *records(const struct obj *o, uint64_t eh, size_t *n) {
  const unsigned char *p = o->p + sh_offset(o, eh);
  uint64_t size = sh_size(o, eh), off = 0;
  size_t cap = 64;
  struct rec *v = xmalloc(cap * sizeof *v);
  *n = 0;
  while (off < size) {
    uint64_t len = size - off >= 8 ? get(o, p + off, 4) : 0;
    if (len < 4 || len == 0xffffffffu || len > size - off - 4)
      goto bad;
    uint64_t id = get(o, p + off + 4, 4);
    struct rec r = {off, off + 4 + len, 0, id == 0, 0, 0};
    if (!r.is_cie) {
      if (id > off + 4)
        goto bad;
      r.cie = off + 4 - id;
      size_t k = *n ? record_of(v, *n, r.cie) : 0;
      if (!*n || v[k].off != r.cie || !v[k].is_cie)
        goto bad;
    }
    if (*n == cap)
      v = xrealloc(v, (cap *= 2) * sizeof *v);
    v[(*n)++] = r;
    off = r.end;
  }
  return v;
bad:
  free(v);
  return NULL;
}

/* Orders (offset, index) pairs. */
static int by_off(const void *a, const void *b) {
  const uint64_t *x = a, *y = b;
  return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Where section offset OFF of the old .eh_frame is in the new one (the end stays the end). */
static uint64_t moved(const struct rec *v, size_t n, uint64_t off) {
  const struct rec *last = &v[n - 1];
  if (off >= last->end)
    return last->to + (last->dead ? 0 : last->end - last->off) + (off - last->end);
  const struct rec *r = &v[record_of(v, n, off)];
  return off - r->off + r->to;
}

/* Marks the FDEs whose address relocation (at 8 past the record) names no symbol, and whose
   every relocation does not (R_*_NONE; RISC-V keeps the type): the FDEs of discarded code.
   Returns how many (none when a relocation lies outside the records). */
static size_t mark_dead(const struct obj *o, uint64_t rel, struct rec *v, size_t n) {
  uint64_t count = sh_size(o, rel) / rel_size(o, rel);
  int *live = xcalloc(n + 1, sizeof *live), *pc_none = xcalloc(n + 1, sizeof *pc_none);
  for (uint64_t k = 0; k < count; k++) {
    uint64_t off, sym, type;
    reloc(o, rel, k, &off, &sym, &type);
    if (off >= v[n - 1].end) {
      n = 0;
      break;
    }
    size_t r = record_of(v, n, off);
    if (sym)
      live[r] = 1;
    else if (off == v[r].off + 8)
      pc_none[r] = 1;
  }
  size_t dead = 0;
  for (size_t r = 0; r < n; r++)
    if (!v[r].is_cie && pc_none[r] && !live[r])
      v[r].dead = 1, dead++;
  free(live);
  free(pc_none);
  return dead;
}

/* The new contents of .eh_frame (EH) without the dead records, with each kept FDE's CIE
   pointer made right for its new place; sets each record's new offset. */
static unsigned char *pruned_frames(const struct obj *o, uint64_t eh, struct rec *v, size_t n,
                                    uint64_t *size) {
  const unsigned char *p = o->p + sh_offset(o, eh);
  unsigned char *out = xmalloc(sh_size(o, eh) + 1);
  uint64_t at = 0;
  for (size_t r = 0; r < n; r++) {
    v[r].to = at;
    if (v[r].dead)
      continue;
    memcpy(out + at, p + v[r].off, v[r].end - v[r].off);
    if (!v[r].is_cie) {
      size_t c = record_of(v, n, v[r].cie);
      put(o, out + at + 4, 4, at + 4 - v[c].to);
    }
    at += v[r].end - v[r].off;
  }
  *size = at;
  return out;
}

/* The new contents of .rela.eh_frame (REL): the relocations of kept records, at their new
   offsets, in their order. */
static unsigned char *pruned_relocs(const struct obj *o, uint64_t rel, const struct rec *v,
                                    size_t n, uint64_t *size) {
  uint64_t entsz = rel_size(o, rel), count = sh_size(o, rel) / entsz, at = 0;
  const unsigned char *p = o->p + sh_offset(o, rel);
  unsigned char *out = xmalloc(count * entsz + 1);
  for (uint64_t k = 0; k < count; k++) {
    uint64_t off, sym, type;
    reloc(o, rel, k, &off, &sym, &type);
    size_t r = record_of(v, n, off);
    if (v[r].dead)
      continue;
    memcpy(out + at, p + k * entsz, entsz);
    put(o, out + at, o->is64 ? 8 : 4, moved(v, n, off));
    at += entsz;
  }
  *size = at;
  return out;
}

/* Lays the sections out again in their file order, each at its alignment, with the new
   contents NEWA and NEWB (NA and NB bytes) of sections A and B, then the section header table:
   the new file in *W (its p to free); 0 when it would not fit in the old one's bytes. */
static int relayout(const struct obj *o, uint64_t a, unsigned char *newa, uint64_t na, uint64_t b,
                    unsigned char *newb, uint64_t nb, struct obj *w) {
  uint64_t *order = xmalloc(o->shnum * 2 * sizeof *order);
  for (uint64_t i = 0; i < o->shnum; i++)
    order[2 * i] = sh_offset(o, i), order[2 * i + 1] = i;
  qsort(order, o->shnum, 2 * sizeof *order, by_off);
  unsigned char *f = xcalloc(1, o->size + 1);
  uint64_t ehsize = o->is64 ? 64 : 52, at = ehsize;
  memcpy(f, o->p, ehsize);
  uint64_t *to = xmalloc(o->shnum * sizeof *to);
  for (uint64_t k = 0; k < o->shnum; k++) {
    uint64_t i = order[2 * k + 1], al = sh_align(o, i) ? sh_align(o, i) : 1;
    if (!i || sh_type(o, i) == 0) {
      to[i] = sh_offset(o, i);
      continue;
    }
    if (al & (al - 1) || al > 4096)
      al = 1;
    at = (at + al - 1) & ~(al - 1);
    to[i] = at;
    if (sh_type(o, i) == SHT_NOBITS_)
      continue;
    uint64_t n = i == a ? na : i == b ? nb : sh_size(o, i);
    const unsigned char *src = i == a ? newa : i == b ? newb : o->p + sh_offset(o, i);
    if (at > o->size || n > o->size - at) {
      at = o->size + 1;
      break;
    }
    memcpy(f + at, src, n);
    at += n;
  }
  uint64_t shoff = (at + 7) & ~(uint64_t)7;
  int fits = at <= o->size && shoff <= o->size && o->shnum * o->shent <= o->size - shoff;
  if (fits) {
    memcpy(f + shoff, o->p + o->shoff, o->shnum * o->shent);
    *w = *o;
    w->p = f, w->shoff = shoff, w->size = shoff + o->shnum * o->shent;
    for (uint64_t i = 1; i < o->shnum; i++)
      set_offset(w, i, to[i]);
    set_size(w, a, na), set_size(w, b, nb);
    put(w, f + (o->is64 ? 40 : 32), o->is64 ? 8 : 4, shoff);
  } else {
    free(f);
  }
  free(order);
  free(to);
  return fits;
}

/* Moves the symbols defined in EH but its section symbols (the mapping symbols eh_referenced
   lets through) with the records that hold them, in the new file W. */
static void remap_symbols(struct obj *w, uint64_t eh, const struct rec *v, size_t n) {
  uint64_t entsz = w->is64 ? 24 : 16;
  for (uint64_t t = 1; t < w->shnum; t++) {
    if (sh_type(w, t) != SHT_SYMTAB_)
      continue;
    uint64_t xndx = shndx_table(w, t);
    for (uint64_t k = 1; k < sh_size(w, t) / entsz; k++) {
      unsigned char *y = w->p + sh_offset(w, t) + k * entsz;
      if (sym_shndx(w, t, xndx, k) != eh || (st_info(w, y) & 0xf) == STT_SECTION_)
        continue;
      put(w, y + (w->is64 ? 8 : 4), w->is64 ? 8 : 4, moved(v, n, st_value(w, y)));
    }
  }
}

/* Drops the FDEs of discarded code from the relocatable object DATA (SIZE bytes), in place;
   returns its new size (SIZE: unchanged). */
size_t ehframe_prune(char *data, size_t size) {
  struct obj o;
  if (!open_obj(&o, data, size))
    return size;
  uint64_t eh = find_section(&o, ".eh_frame"), rel = 0;
  if (!eh || sh_type(&o, eh) == SHT_NOBITS_)
    return size;
  for (uint64_t i = 1; i < o.shnum; i++)
    if ((sh_type(&o, i) == SHT_RELA_ || sh_type(&o, i) == SHT_REL_) && sh_info(&o, i) == eh) {
      if (rel || sh_type(&o, i) == SHT_REL_)
        return size; /* REL keeps addends in the section: not handled */
      rel = i;
    }
  size_t n;
  struct rec *v = rel ? records(&o, eh, &n) : NULL;
  if (!v)
    return size;
  size_t out_size = size;
  if (n && mark_dead(&o, rel, v, n) && !eh_referenced(&o, eh, rel)) {
    uint64_t ne, nr;
    unsigned char *frames = pruned_frames(&o, eh, v, n, &ne);
    unsigned char *relocs = pruned_relocs(&o, rel, v, n, &nr);
    struct obj w; /* fits always, unless the input was packed tighter than aligned */
    if (relayout(&o, eh, frames, ne, rel, relocs, nr, &w)) {
      remap_symbols(&w, eh, v, n);
      memcpy(data, w.p, w.size);
      out_size = w.size;
      free(w.p);
    }
    free(frames);
    free(relocs);
  }
  free(v);
  return out_size;
}
