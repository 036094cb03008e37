/* cmd: the argv of every tool run on the shards (opt, clang, ld.lld, llvm-objcopy), built in
   one place for the driver and for the Ninja file it can write instead. */
#define _XOPEN_SOURCE 700
#include "cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cmd_tools[] = {"opt", "clang", "ld.lld", "llvm-objcopy", NULL};

/* How many opt processes split the module. Each holds the whole module and makes the same
   plan, then writes every P-th shard. One process below 4 job slots: the compile jobs start
   as shards are written (work_build), so the other slot is busy anyway, and a second process
   would only parse and plan the module again, in a second copy of it. With 4 or more slots,
   half of them, up to 8, where one writer would starve the jobs (part 0 then verifies the
   input and writes the manifest while the others write the shards). */
int cmd_split_parts(const struct opts *o) {
  if (o->jobs < 4)
    return 1;
  return o->jobs / 2 < 8 ? o->jobs / 2 : 8;
}

/* Phase 1, part PART of PARTS: opt with the plugin annotates, partitions and splits the input
   into DIR; with NOTIFY, it reports each file written on its file descriptor 3. opt ends as
   soon as the files are written (quick-exit: the module is not freed). Part 0 verifies the
   input after writing its files (verify), not before (opt -disable-verify): the first jobs
   start sooner, and the driver reports a broken input before the jobs' failures. */
void cmd_split(struct argv *a, const struct opts *o, const char *dir, int parts, int part,
               int notify) {
  av_pushf(a, "%s/opt", o->bindir);
  av_pushf(a, "-load-pass-plugin=%s", o->plugin);
  char *mv =
      o->mv_targets ? fmt("shard-mv-annotate<targets=%s>,shard-mv,", o->mv_targets) : xstrdup("");
  char *split = parts == 1 ? fmt("dir=%s", dir) : fmt("dir=%s;parts=%d;part=%d", dir, parts, part);
  /* The split's share of the job slots simplifies the closure (not the output's concern). */
  int threads = o->jobs / parts < 1 ? 1 : o->jobs / parts > 8 ? 8 : o->jobs / parts;
  char *pre =
      opts_presimplifies(o) ? fmt(";presimplify=%d;threads=%d", o->olevel, threads) : xstrdup("");
  av_pushf(a, "-passes=%sshard-cost,shard-partition<shards=%d>,shard-split<%s%s%s;quick-exit%s>",
           mv, o->shards, split, pre, notify ? ";notify=3" : "", part == 0 ? ";verify" : "");
  free(pre);
  free(split);
  free(mv);
  av_push(a, "-disable-output");
  av_push(a, "-disable-verify");
  av_push(a, o->input);
}

/* The clang flag for the manifest's relocation model (as clang -c picks it for the source). */
static const char *reloc_flag(enum reloc r) {
  return r == RELOC_PIE ? "-fPIE" : r == RELOC_PIC ? "-fPIC" : "-fno-pic";
}

/* Phase 2, shard K: [launcher] clang -O<l> -c -x ir DIR/shard.K.bc -o DIR/shard.K.o. The
   target comes from the manifest's triple (clang would otherwise override the module's with
   its default); CPU and features are not passed: every function carries its target-cpu and
   target-features attributes. */
void cmd_compile(struct argv *a, const struct opts *o, const struct manifest *m, const char *dir,
                 int k) {
  for (char **w = o->launcher; w && *w; w++)
    av_push(a, *w);
  av_pushf(a, "%s/clang", o->bindir);
  if (m->triple)
    av_pushf(a, "--target=%s", m->triple);
  av_pushf(a, "-O%d", o->olevel);
  av_push(a, "-c");
  av_push(a, "-x");
  av_push(a, "ir");
  av_pushf(a, "%s/shard.%d.bc", dir, k);
  av_push(a, "-o");
  av_pushf(a, "%s/shard.%d.o", dir, k);
  av_push(a, reloc_flag(m->reloc));
  /* The plugin has the simplification pipeline skip the functions the split simplified. */
  if (opts_presimplifies(o))
    av_pushf(a, "-fpass-plugin=%s", o->plugin);
  /* ld -r cannot carry an address-significance table (it keeps a stale one that lld
     --icf=safe ignores with a warning), so the shards do not emit one, as llc did not. */
  av_push(a, "-fno-addrsig");
  /* A crash would otherwise leave a reproducer (a copy of the shard) in $TMPDIR; the shard
     itself is the reproducer (--keep-temps keeps it, -v shows the command). */
  av_push(a, "-fno-crash-diagnostics");
}

/* Phase 3, link: ld.lld -r of the shard objects (K ascending) into DIR/linked.o. Returns the
   object objcopy reads: DIR/linked.o, or DIR/shard.0.o with one shard (A stays empty). */
char *cmd_link(struct argv *a, const struct opts *o, const char *dir, int nshards) {
  if (nshards == 1)
    return fmt("%s/shard.0.o", dir);
  av_pushf(a, "%s/ld.lld", o->bindir);
  av_push(a, "-r");
  for (int k = 0; k < nshards; k++)
    av_pushf(a, "%s/shard.%d.o", dir, k);
  av_push(a, "-o");
  av_pushf(a, "%s/linked.o", dir);
  return fmt("%s/linked.o", dir);
}

/* Writes DIR/localize.syms and DIR/redefine.syms from the manifest's promoted symbols and
   pushes the objcopy options that use them; names objcopy's list syntax cannot carry ('#'
   starts a comment there) become options of their own. */
void cmd_syms(struct argv *a, const struct manifest *m, const char *dir) {
  char *lp = fmt("%s/localize.syms", dir), *rp = fmt("%s/redefine.syms", dir);
  FILE *lf = fopen(lp, "w"), *rf = fopen(rp, "w");
  int nl = 0, nr = 0;
  if (!lf || !rf)
    die("cannot create '%s': %s", lf ? rp : lp, strerror(errno));
  for (size_t i = 0; i < m->npromos; i++) {
    const struct promo *p = &m->promos[i];
    int hash = strchr(p->new, '#') || (p->old && strchr(p->old, '#'));
    if (hash)
      av_pushf(a, "--localize-symbol=%s", p->new);
    else
      fprintf(lf, "%s\n", p->new), nl++;
    if (p->old && hash)
      av_pushf(a, "--redefine-sym=%s=%s", p->new, p->old);
    else if (p->old)
      fprintf(rf, "%s %s\n", p->new, p->old), nr++;
  }
  if (fclose(lf) || fclose(rf))
    die("cannot write the symbol lists in '%s': %s", lp, strerror(errno));
  /* objcopy matches both lists against the names before renaming. */
  if (nl)
    av_pushf(a, "--localize-symbols=%s", lp);
  if (nr)
    av_pushf(a, "--redefine-syms=%s", rp);
  free(lp);
  free(rp);
}

/* Phase 3, promoted symbols: llvm-objcopy SYMS IN OUT, SYMS being cmd_syms' options. */
void cmd_objcopy(struct argv *a, const struct opts *o, char *const *syms, const char *in,
                 const char *out) {
  av_pushf(a, "%s/llvm-objcopy", o->bindir);
  for (; syms && *syms; syms++)
    av_push(a, *syms);
  av_push(a, in);
  av_push(a, out);
}
