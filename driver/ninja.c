/* ninja: --emit-ninja FILE, the shard jobs (split, compile, link) as a Ninja build file.
   The driver has already split the input into the work dir (so the shard count is known);
   FILE gets one split edge (the same opt commands, then a check of the shard count and the
   objcopy symbol lists), one compile edge per shard and one link edge, each with the argv the
   driver itself would run (cmd.c), so that ninja -f FILE builds the same OUT. Every path in
   FILE is absolute: ninja can run it from any directory. */
#define _XOPEN_SOURCE 700
#include "ninja.h"
#include "cmd.h"
#include "util.h"
#include "work.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Dies unless S can go into a Ninja file: no line breaks anywhere, and no '|' in a path on a
   build line (PATH set), which Ninja cannot escape. */
static void check_text(const char *s, int path) {
  if (strpbrk(s, path ? "\n\r|" : "\n\r"))
    die("cannot write '%s' into a Ninja file: Ninja cannot express %s", s,
        path ? "a path with '|' or a line break" : "a line break");
}

/* Checks before any work that the paths FILE will name can be written in a Ninja file. */
void ninja_check(const struct opts *o) {
  const char *paths[] = {o->ninja, o->keep, o->input, o->out, o->bindir, o->plugin};
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
    check_text(paths[i], 1);
  for (char **w = o->launcher; w && *w; w++)
    check_text(*w, 0);
  if (o->mv_targets)
    check_text(o->mv_targets, 0);
  if (o->malloc_lib)
    check_text(o->malloc_lib, 0);
}

/* Writes S to F as a Ninja path on a build line: '$', ' ' and ':' escaped with '$'. */
static void put_path(FILE *f, const char *s) {
  check_text(s, 1);
  for (; *s; s++) {
    if (*s == '$' || *s == ' ' || *s == ':')
      fputc('$', f);
    fputc(*s, f);
  }
}

/* Writes S to F as the value of a Ninja variable: '$' escaped as '$$'. */
static void put_value(FILE *f, const char *s) {
  check_text(s, 0);
  for (; *s; s++) {
    if (*s == '$')
      fputc('$', f);
    fputc(*s, f);
  }
}

/* Writes S to F as one /bin/sh word: as it is when it holds only characters the shell
   takes literally, else in single quotes (a quote inside as '\''). */
static void put_word(FILE *f, const char *s) {
  static const char plain[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-";
  if (*s && strspn(s, plain) == strlen(s)) {
    fputs(s, f);
    return;
  }
  fputc('\'', f);
  for (; *s; s++)
    if (*s == '\'')
      fputs("'\\''", f);
    else
      fputc(*s, f);
  fputc('\'', f);
}

/* Returns argv V as one shell command line (heap), each word quoted as put_word does. */
static char *shell_words(char *const *v) {
  char *s = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&s, &n);
  if (!f)
    die("out of memory");
  for (int i = 0; v[i]; i++) {
    if (i)
      fputc(' ', f);
    put_word(f, v[i]);
  }
  fclose(f);
  return s;
}

/* Returns a shell word for S (heap). */
static char *shell_word(const char *s) {
  char *const v[] = {(char *)s, NULL};
  return shell_words(v);
}

/* Returns P as an absolute path (relative ones are taken from the current directory). */
static char *absolute(const char *p) {
  char cwd[PATH_MAX];
  if (p[0] == '/')
    return xstrdup(p);
  if (!getcwd(cwd, sizeof cwd))
    die("cannot get the current directory: %s", strerror(errno));
  while (p[0] == '.' && p[1] == '/')
    p += 2;
  return fmt("%s/%s", cwd, p);
}

/* Returns the path of the running shard binary. */
static char *self_path(void) {
  char *self = self_exe();
  if (!self)
    die("cannot find the shard binary (/proc/self/exe): %s", strerror(errno));
  return self;
}

/* Writes a "build" line's list of paths, one per continued line. */
static void put_paths(FILE *f, char *const *paths) {
  for (; *paths; paths++) {
    fputs(" $\n    ", f);
    put_path(f, *paths);
  }
}

/* Writes one edge: build OUTS | IMPLICIT_OUTS: RULE INS | IMPLICIT_INS, with its command
   and description. */
static void put_edge(FILE *f, const char *rule, struct argv *outs, struct argv *iouts,
                     struct argv *ins, struct argv *iins, const char *cmd, const char *desc) {
  fputs("build", f);
  put_paths(f, outs->v);
  if (iouts->n) {
    fputs(" $\n    |", f);
    put_paths(f, iouts->v);
  }
  fprintf(f, ": %s", rule);
  put_paths(f, ins->v);
  if (iins->n) {
    fputs(" $\n    |", f);
    put_paths(f, iins->v);
  }
  fputs("\n  cmd = ", f);
  put_value(f, cmd);
  fputs("\n  desc = ", f);
  put_value(f, desc);
  fputs("\n\n", f);
  av_free(outs), av_free(iouts), av_free(ins), av_free(iins);
}

/* The split edge's command: the opt part(s) as the driver runs them (in parallel, each
   waited for, all stopped if ninja is interrupted), then the shard count check. */
static char *split_cmd(const struct opts *a, const char *dir, int n, const char *file) {
  int parts = cmd_split_parts(a);
  char *s = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&s, &len);
  if (!f)
    die("out of memory");
  if (parts > 1) { /* the background parts ignore SIGINT (sh without job control) */
    fputs("trap 'kill", f);
    for (int i = 0; i < parts; i++)
      fprintf(f, " $p%d", i);
    fputs(" 2>/dev/null; wait; exit 1' INT TERM HUP; ", f);
  }
  for (int i = 0; i < parts; i++) {
    struct argv v = {0};
    cmd_split(&v, a, dir, parts, i, 0);
    char *w = shell_words(v.v);
    if (parts > 1)
      fprintf(f, "%s & p%d=$!; ", w, i);
    else
      fprintf(f, "%s && ", w);
    free(w);
    av_free(&v);
  }
  if (parts > 1) {
    fputs("s=0; ", f);
    for (int i = 0; i < parts; i++)
      fprintf(f, "wait $p%d || s=1; ", i);
    fputs("test $s = 0 && ", f);
  }
  char *self = self_path();
  struct argv c = {0};
  av_push(&c, self);
  av_push(&c, NINJA_AFTER_SPLIT);
  av_push(&c, dir);
  av_pushf(&c, "%d", n);
  av_push(&c, file);
  char *w = shell_words(c.v);
  fputs(w, f);
  free(w);
  free(self);
  av_free(&c);
  fclose(f);
  return s;
}

/* The link edge's command: ld.lld -r and llvm-objcopy as the driver runs them (the symbol
   options from DIR/objcopy.rsp, which the split edge writes), into OUT.shard-tmp, then
   renamed onto OUT: a failed or interrupted link leaves no OUT and no temporary. */
static char *link_cmd(const struct opts *a, const char *dir, int n, const char *out) {
  struct argv l = {0}, c = {0}, syms = {0};
  char *in = cmd_link(&l, a, dir, n), *tmp = fmt("%s.shard-tmp", out);
  av_pushf(&syms, "@%s/objcopy.rsp", dir);
  cmd_objcopy(&c, a, syms.v, in, tmp);
  char *lw = l.n ? shell_words(l.v) : NULL, *cw = shell_words(c.v), *tw = shell_word(tmp),
       *ow = shell_word(out);
  char *s = fmt("t=%s; trap 'rm -f \"$t\"; exit 1' INT TERM HUP; %s%s%s && mv -f %s %s || "
                "{ rm -f %s; exit 1; }",
                tw, lw ? lw : "", lw ? " && " : "", cw, tw, ow, tw);
  free(lw), free(cw), free(tw), free(ow), free(in), free(tmp);
  av_free(&l), av_free(&c), av_free(&syms);
  return s;
}

/* Writes the Ninja file to F. A is the driver's options with absolute paths. */
static void write_file(FILE *f, const struct manifest *m, const struct opts *o,
                       const struct opts *a, const char *dir, const char *file) {
  int n = m->nshards;
  struct argv outs = {0}, iouts = {0}, ins = {0}, iins = {0};
  check_text(a->input, 0), check_text(a->out, 0), check_text(file, 0);
  fprintf(f, "# Written by shard --emit-ninja: %s in %d shard%s, linked into %s.\n", a->input, n,
          n == 1 ? "" : "s", a->out);
  fprintf(f, "# Run: ninja -f %s", file);
  fputs("\n# Editing the input splits it again; if it then needs another shard count, the split"
        "\n# fails and asks for shard --emit-ninja to be run again.\n"
        "ninja_required_version = 1.3\nbuilddir = ",
        f);
  put_value(f, dir);
  fprintf(f, "\n\npool shard_jobs\n  depth = %d\n\n", o->jobs);
  const char *cmdvar = "$cmd";
  if (o->malloc_lib) { /* --malloc: as the driver runs the tools, after the caller's preloads */
    char *lib = shell_word(o->malloc_lib);
    char *set = fmt("LD_PRELOAD=\"${LD_PRELOAD:+$LD_PRELOAD:}\"%s && export LD_PRELOAD &&", lib);
    fputs("preload = ", f);
    put_value(f, set);
    fputs("\n\n", f);
    free(lib), free(set);
    cmdvar = "$preload $cmd";
  }
  fprintf(f,
          "rule split\n  command = %s\n  description = $desc\n\n"
          "rule compile\n  command = %s\n  description = $desc\n  pool = shard_jobs\n\n"
          "rule link\n  command = %s\n  description = $desc\n\n",
          cmdvar, cmdvar, cmdvar);

  for (int k = 0; k < n; k++)
    av_pushf(&outs, "%s/shard.%d.bc", dir, k);
  av_pushf(&outs, "%s/manifest", dir);
  av_pushf(&iouts, "%s/localize.syms", dir);
  av_pushf(&iouts, "%s/redefine.syms", dir);
  av_pushf(&iouts, "%s/objcopy.rsp", dir);
  av_push(&ins, a->input);
  av_pushf(&iins, "%s/opt", a->bindir);
  av_push(&iins, a->plugin);
  char *self = self_path(), *cmd = split_cmd(a, dir, n, file);
  av_push(&iins, self);
  char *desc = fmt("SPLIT %s", o->input);
  put_edge(f, "split", &outs, &iouts, &ins, &iins, cmd, desc);
  free(self), free(cmd), free(desc);

  /* Largest first, as phase 2 starts them (ninja starts ready edges in file order). */
  struct shard **order = xmalloc(n * sizeof *order);
  for (int k = 0; k < n; k++)
    order[k] = &m->shards[k];
  qsort(order, n, sizeof *order, work_by_cost);
  for (int i = 0; i < n; i++) {
    int k = order[i]->id;
    struct argv v = {0};
    cmd_compile(&v, a, m, dir, k);
    cmd = shell_words(v.v);
    desc = fmt("SHARD %d/%d", k, n);
    av_pushf(&outs, "%s/shard.%d.o", dir, k);
    av_pushf(&ins, "%s/shard.%d.bc", dir, k);
    av_pushf(&iins, "%s/clang", a->bindir);
    put_edge(f, "compile", &outs, &iouts, &ins, &iins, cmd, desc);
    free(cmd), free(desc);
    av_free(&v);
  }
  free(order);

  av_push(&outs, a->out);
  for (int k = 0; k < n; k++)
    av_pushf(&ins, "%s/shard.%d.o", dir, k);
  av_pushf(&iins, "%s/objcopy.rsp", dir);
  av_pushf(&iins, "%s/localize.syms", dir);
  av_pushf(&iins, "%s/redefine.syms", dir);
  if (n > 1)
    av_pushf(&iins, "%s/ld.lld", a->bindir);
  av_pushf(&iins, "%s/llvm-objcopy", a->bindir);
  cmd = link_cmd(a, dir, n, a->out);
  desc = fmt("LINK %s", o->out);
  put_edge(f, "link", &outs, &iouts, &ins, &iins, cmd, desc);
  free(cmd), free(desc);
  fputs("default ", f);
  put_path(f, a->out);
  fputc('\n', f);
}

/* --emit-ninja: writes O's Ninja file for the split in the work dir (atomically, through a
   temporary file next to it). */
void ninja_write(const struct manifest *m, const struct opts *o) {
  struct opts a = *o;
  a.input = absolute(o->input);
  a.out = absolute(o->out);
  a.bindir = absolute(o->bindir);
  a.plugin = absolute(o->plugin);
  if (o->launcher) { /* the program was looked up at preflight: a path */
    int n = 0;
    while (o->launcher[n])
      n++;
    a.launcher = xmalloc((n + 1) * sizeof *a.launcher);
    memcpy(a.launcher, o->launcher, (n + 1) * sizeof *a.launcher);
    a.launcher[0] = absolute(o->launcher[0]);
  }
  char *dir = absolute(work_dir()), *file = absolute(o->ninja);
  char *tmp = fmt("%s.shard-tmp-%ld", o->ninja, (long)getpid());
  work_set_tmpout(tmp);
  FILE *f = fopen(tmp, "w");
  if (!f)
    die("cannot write '%s': %s", o->ninja, strerror(errno));
  write_file(f, m, o, &a, dir, file);
  if (ferror(f) | fclose(f))
    die("cannot write '%s': %s", o->ninja, strerror(errno));
  if (rename(tmp, o->ninja) < 0)
    die("cannot write '%s': %s", o->ninja, strerror(errno));
  work_set_tmpout(NULL);
  free(tmp), free(dir), free(file);
}

/* Writes one argument to a response file in the syntax LLVM tools read on Unix (GNU: a
   backslash makes the next character literal). */
static void put_rsp(FILE *f, const char *s) {
  for (; *s; s++) {
    if (strchr(" \t\n\r\v\f\\'\"", *s))
      fputc('\\', f);
    fputc(*s, f);
  }
  fputc('\n', f);
}

/* shard --ninja-after-split DIR N FILE, the end of the split edge: checks that DIR/manifest
   lists N shards (those FILE has edges for) and that they are there, then writes the objcopy
   symbol lists and DIR/objcopy.rsp with the options that use them. */
int ninja_after_split(int argc, char **argv) {
  if (argc != 5)
    die("usage: shard %s DIR N FILE (run by the split edge of shard --emit-ninja's file)",
        NINJA_AFTER_SPLIT);
  const char *dir = argv[2], *file = argv[4];
  struct manifest m;
  char *mp = fmt("%s/manifest", dir);
  manifest_read(mp, &m);
  if (m.nshards != atoi(argv[3]))
    die("the split now makes %d shard%s but '%s' has edges for %s: run shard --emit-ninja "
        "again to write it for the new count",
        m.nshards, m.nshards == 1 ? "" : "s", file, argv[3]);
  for (int k = 0; k < m.nshards; k++) {
    char *p = fmt("%s/shard.%d.bc", dir, k);
    if (access(p, R_OK) < 0)
      die("the manifest lists shard %d but '%s' is missing: %s", k, p, strerror(errno));
    free(p);
  }
  struct argv syms = {0};
  cmd_syms(&syms, &m, dir);
  char *rp = fmt("%s/objcopy.rsp", dir);
  FILE *f = fopen(rp, "w");
  if (!f)
    die("cannot create '%s': %s", rp, strerror(errno));
  for (int i = 0; i < syms.n; i++)
    put_rsp(f, syms.v[i]);
  if (ferror(f) | fclose(f))
    die("cannot write '%s': %s", rp, strerror(errno));
  av_free(&syms);
  free(rp);
  free(mp);
  return 0;
}
