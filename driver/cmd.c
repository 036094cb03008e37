/* cmd: the argv of every tool the jobs run (opt, clang, ld.lld, llvm-objcopy), from the
   paths the job model (job.c) gives, in one place for every executor. */
#define _XOPEN_SOURCE 700
#include "cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  const char *profile = opts_profile(o), *gen = opts_profile_gen(o);
  char *prof = profile ? fmt("shard-profile-use<path=%s;level=%d>,", profile, o->olevel)
               : gen   ? fmt("shard-profile-gen<path=%s;level=%d%s>,", gen, o->olevel,
                           o->profile_atomic ? ";atomic" : "")
                       : xstrdup("");
  av_pushf(a, "-passes=%s%sshard-cost,shard-partition<shards=%d>,shard-split<%s%s%s;quick-exit%s>",
           prof, mv, o->shards, split, pre, notify ? ";notify=3" : "", part == 0 ? ";verify" : "");
  free(prof);
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

/* Phase 2, the input and output of a shard compile: -c -x ir BC -o OBJ. */
static void ir_args(struct argv *a, const char *bc, const char *obj) {
  av_push(a, "-c");
  av_push(a, "-x");
  av_push(a, "ir");
  av_push(a, bc);
  av_push(a, "-o");
  av_push(a, obj);
}

/* Phase 2, the flags every shard compile gets after its own. */
static void shard_flags(struct argv *a, const struct opts *o) {
  /* The plugin has the simplification pipeline skip the functions the split simplified, and
     the imports it marked for their callers in the same call graph SCC (-O0 has neither). */
  if (opts_compile_plugin(o))
    av_pushf(a, "-fpass-plugin=%s", o->plugin);
  /* ld -r cannot carry an address-significance table (it keeps a stale one that lld
     --icf=safe ignores with a warning), so the shards do not emit one, as llc did not. */
  av_push(a, "-fno-addrsig");
  /* A crash would otherwise leave a reproducer (a copy of the shard) in $TMPDIR; the shard
     itself is the reproducer (--keep-temps keeps it, -v shows the command). */
  av_push(a, "-fno-crash-diagnostics");
}

/* Phase 2, the flags a compile of the launcher's template gets after its own: the template's
   flags that only the front end uses must not fail a -Werror build; the diagnostics are
   written plain, for diag.c to read (it colours them as clang would). */
void cmd_launcher_flags(struct argv *a) {
  av_push(a, "-Qunused-arguments");
  av_push(a, "-fno-color-diagnostics");
}

/* Phase 2, one shard: [launcher] clang -O<l> -c -x ir BC -o OBJ, or as a compiler launcher the
   user's compiler and flags (the template, which carries the target, -O level and relocation
   model) in place of clang -O<l>. Without a template the target comes from the manifest's
   triple (clang would otherwise override the module's with its default) and the relocation
   model from the module's flags (-fno-pic, -fPIC, -fPIE override it; -mcmodel= is added); CPU
   and features are not passed: every function carries its target-cpu and target-features
   attributes. */
void cmd_compile(struct argv *a, const struct opts *o, const struct manifest *m, const char *bc,
                 const char *obj) {
  for (char **w = o->launcher; w && *w; w++)
    av_push(a, *w);
  if (o->compile_cmd) {
    for (char **w = o->compile_cmd; *w; w++)
      if ((!opts_profile(o) || !opts_profile_flag(*w)) && /* the split applied it */
          (!opts_profile_gen(o) || !opts_profile_gen_flag(*w)))
        av_push(a, *w);
    ir_args(a, bc, obj);
    shard_flags(a, o);
    cmd_launcher_flags(a);
    return;
  }
  av_pushf(a, "%s/clang", o->bindir);
  if (m->triple)
    av_pushf(a, "--target=%s", m->triple);
  av_pushf(a, "-O%d", o->olevel);
  ir_args(a, bc, obj);
  av_push(a, o->reloc ? o->reloc : reloc_flag(m->reloc));
  if (o->cmodel)
    av_pushf(a, "-mcmodel=%s", o->cmodel);
  shard_flags(a, o);
}

/* Phase 3, link: ld.lld -r OBJS (NULL-terminated) -o OUT. */
void cmd_link(struct argv *a, const struct opts *o, char *const *objs, const char *out) {
  av_pushf(a, "%s/ld.lld", o->bindir);
  av_push(a, "-r");
  if (o->compress_debug) /* ld -r writes the sections it links uncompressed unless asked */
    av_pushf(a, "--compress-debug-sections=%s", o->compress_debug);
  for (; *objs; objs++)
    av_push(a, *objs);
  av_push(a, "-o");
  av_push(a, out);
}

/* Whether promoted symbol P needs options of its own: objcopy's list syntax cannot carry a
   '#' (it starts a comment there). */
static int needs_option(const struct promo *p) {
  return strchr(p->new, '#') || (p->old && strchr(p->old, '#'));
}

/* Pushes the objcopy options that restore the manifest's promoted symbols: one per name the
   lists cannot carry, then DIR/localize.syms and DIR/redefine.syms when they list any
   (cmd_write_syms writes them). objcopy matches both lists against the names before
   renaming. */
void cmd_syms(struct argv *a, const struct manifest *m, const char *dir) {
  int nl = 0, nr = 0;
  for (size_t i = 0; i < m->npromos; i++) {
    const struct promo *p = &m->promos[i];
    int own = needs_option(p);
    if (own)
      av_pushf(a, "--localize-symbol=%s", p->new);
    else
      nl++;
    if (p->old && own)
      av_pushf(a, "--redefine-sym=%s=%s", p->new, p->old);
    else if (p->old)
      nr++;
  }
  if (nl)
    av_pushf(a, "--localize-symbols=%s/localize.syms", dir);
  if (nr)
    av_pushf(a, "--redefine-syms=%s/redefine.syms", dir);
}

/* Writes DIR/localize.syms and DIR/redefine.syms: the promoted symbols that cmd_syms leaves
   to the lists. */
void cmd_write_syms(const struct manifest *m, const char *dir) {
  char *lp = fmt("%s/localize.syms", dir), *rp = fmt("%s/redefine.syms", dir);
  FILE *lf = fopen(lp, "w"), *rf = fopen(rp, "w");
  if (!lf || !rf)
    die("cannot create '%s': %s", lf ? rp : lp, strerror(errno));
  for (size_t i = 0; i < m->npromos; i++) {
    const struct promo *p = &m->promos[i];
    if (needs_option(p))
      continue;
    fprintf(lf, "%s\n", p->new);
    if (p->old)
      fprintf(rf, "%s %s\n", p->new, p->old);
  }
  if (fclose(lf) || fclose(rf))
    die("cannot write the symbol lists in '%s': %s", lp, strerror(errno));
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
