/* ninja: --emit-ninja FILE, the shard jobs (split, compile, link) as a Ninja build file.
   The driver has already split the input into the work dir (so the shard count is known);
   FILE gets one edge per job of the job model (job.c): the split (the same opt commands, then
   a check of the shard count and the objcopy symbol lists), one compile per shard and the
   link, each with the argv the local executor would run, so that ninja -f FILE builds the
   same OUT. Every path in FILE is absolute: ninja can run it from any directory. */
#define _XOPEN_SOURCE 700
#include "ninja.h"

#include "cmd.h"
#include "finish.h"
#include "job.h"
#include "util.h"
#include "workdir.h"

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

/* Opens a stream into a new heap string, *S once the stream is closed. */
static FILE *memstream(char **s, size_t *n) {
  FILE *f = open_memstream(s, n);
  if (!f)
    die("out of memory");
  return f;
}

/* Returns argv V as one shell command line (heap), each word quoted as put_word does. */
static char *shell_words(char *const *v) {
  char *s = NULL;
  size_t n = 0;
  FILE *f = memstream(&s, &n);
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
static void put_edge(FILE *f, const char *rule, const struct argv *outs, const struct argv *iouts,
                     const struct argv *ins, const struct argv *iins, const char *cmd,
                     const char *desc) {
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
}

/* Appends copies of B's words to A. */
static void push_all(struct argv *a, const struct argv *b) {
  for (int i = 0; i < b->n; i++)
    av_push(a, b->v[i]);
}

/* The end of the split edge's command, as shell words: shard --ninja-after-split DIR N FILE. */
static char *after_split_cmd(const char *dir, int n, const char *file) {
  char *self = self_path();
  struct argv c = {0};
  av_push(&c, self);
  av_push(&c, NINJA_AFTER_SPLIT);
  av_push(&c, dir);
  av_pushf(&c, "%d", n);
  av_push(&c, file);
  char *w = shell_words(c.v);
  free(self);
  av_free(&c);
  return w;
}

/* The split edge's command: split job J's parts as the local executor runs them (in
   parallel, each waited for, all stopped if ninja is interrupted), then the shard count
   check. */
static char *split_cmd(const struct job *j, const char *dir, int n, const char *file) {
  int parts = j->nsteps;
  char *s = NULL;
  size_t len = 0;
  FILE *f = memstream(&s, &len);
  if (parts > 1) { /* the background parts ignore SIGINT (sh without job control) */
    fputs("trap 'kill", f);
    for (int i = 0; i < parts; i++)
      fprintf(f, " $p%d", i);
    fputs(" 2>/dev/null; wait; exit 1' INT TERM HUP; ", f);
  }
  for (int i = 0; i < parts; i++) {
    char *w = shell_words(j->step[i].argv.v);
    if (parts > 1)
      fprintf(f, "%s & p%d=$!; ", w, i);
    else
      fprintf(f, "%s && ", w);
    free(w);
  }
  if (parts > 1) {
    fputs("s=0; ", f);
    for (int i = 0; i < parts; i++)
      fprintf(f, "wait $p%d || s=1; ", i);
    fputs("test $s = 0 && ", f);
  }
  char *w = after_split_cmd(dir, n, file);
  fputs(w, f);
  free(w);
  fclose(f);
  return s;
}

/* The link edge's command: link job J's ld.lld -r and llvm-objcopy (which writes TMP) as the
   local executor runs them, the shared locals' groups made private (SELF PRIVATE_GROUPS DIR
   TMP), then TMP renamed onto OUT: a failed or interrupted link leaves no OUT and no
   temporary. */
static char *link_cmd(const struct job *j, char *self, const char *dir, const char *tmp) {
  char *gv[] = {self, NINJA_PRIVATE_GROUPS, (char *)dir, (char *)tmp, NULL};
  char *lw = j->nsteps > 1 ? shell_words(j->step[0].argv.v) : NULL,
       *cw = shell_words(j->step[j->nsteps - 1].argv.v), *gw = shell_words(gv),
       *tw = shell_word(tmp), *ow = shell_word(j->out.v[0]);
  char *s = fmt("t=%s; trap 'rm -f \"$t\"; exit 1' INT TERM HUP; %s%s%s && %s && mv -f %s %s || "
                "{ rm -f %s; exit 1; }",
                tw, lw ? lw : "", lw ? " && " : "", cw, gw, tw, ow, tw);
  free(lw), free(cw), free(gw), free(tw), free(ow);
  return s;
}

/* Writes the head of the file: what it builds, builddir, the job pool and the three rules
   (with --malloc, each command preloads the allocator). */
static void put_head(FILE *f, const struct opts *o, const struct opts *a, int n, const char *dir,
                     const char *file) {
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
}

/* Writes the split edge: it also writes the symbol lists and objcopy.rsp (after-split), and
   depends on the shard binary that checks them. */
static void split_edge(FILE *f, const struct opts *o, const struct opts *a, int n, const char *dir,
                       const char *file) {
  struct job j;
  struct argv iouts = {0}, iins = {0};
  job_split(&j, a, dir, n, job_split_parts(a), 0);
  av_pushf(&iouts, "%s/localize.syms", dir);
  av_pushf(&iouts, "%s/redefine.syms", dir);
  av_pushf(&iouts, "%s/objcopy.rsp", dir);
  push_all(&iins, &j.tools);
  char *self = self_path(), *cmd = split_cmd(&j, dir, n, file);
  av_push(&iins, self);
  char *desc = fmt("SPLIT %s", o->input);
  put_edge(f, "split", &j.out, &iouts, &j.in, &iins, cmd, desc);
  free(self), free(cmd), free(desc);
  av_free(&iouts), av_free(&iins);
  job_free(&j);
}

/* Writes one compile edge per shard, the largest first, as the local executor starts them
   (ninja starts ready edges in file order). */
static void compile_edges(FILE *f, const struct manifest *m, const struct opts *a,
                          const char *dir) {
  int n = m->nshards;
  struct argv none = {0};
  struct shard **order = xmalloc(n * sizeof *order);
  for (int k = 0; k < n; k++)
    order[k] = &m->shards[k];
  qsort(order, n, sizeof *order, job_by_cost);
  for (int i = 0; i < n; i++) {
    struct job j;
    job_compile(&j, a, m, dir, order[i]->id);
    char *cmd = shell_words(j.step[0].argv.v), *desc = fmt("SHARD %d/%d", j.k, n);
    put_edge(f, "compile", &j.out, &none, &j.in, &j.tools, cmd, desc);
    free(cmd), free(desc);
    job_free(&j);
  }
  free(order);
}

/* Writes the link edge: objcopy reads its symbol options from DIR/objcopy.rsp, which the
   split edge writes. */
static void link_edge(FILE *f, const struct opts *o, const struct opts *a, int n, const char *dir) {
  struct job j;
  struct argv syms = {0}, none = {0}, iins = {0};
  char *tmp = fmt("%s.shard-tmp", a->out), *self = self_path();
  av_pushf(&syms, "@%s/objcopy.rsp", dir);
  job_link(&j, a, dir, n, syms.v, tmp);
  av_pushf(&iins, "%s/objcopy.rsp", dir);
  av_pushf(&iins, "%s/localize.syms", dir);
  av_pushf(&iins, "%s/redefine.syms", dir);
  push_all(&iins, &j.tools);
  av_push(&iins, self);
  char *cmd = link_cmd(&j, self, dir, tmp), *desc = fmt("LINK %s", o->out);
  put_edge(f, "link", &j.out, &none, &j.in, &iins, cmd, desc);
  free(tmp), free(cmd), free(desc), free(self);
  av_free(&syms), av_free(&iins);
  job_free(&j);
}

/* Writes the Ninja file to F: a head, then one edge per job. A is the driver's options with
   absolute paths. */
static void write_file(FILE *f, const struct manifest *m, const struct opts *o,
                       const struct opts *a, const char *dir, const char *file) {
  put_head(f, o, a, m->nshards, dir, file);
  split_edge(f, o, a, m->nshards, dir, file);
  compile_edges(f, m, a, dir);
  link_edge(f, o, a, m->nshards, dir);
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
  char *tmp = work_tmp_name(o->ninja);
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
  for (int k = 0; k < m.nshards; k++)
    job_check_shard(dir, k);
  struct argv syms = {0};
  cmd_write_syms(&m, dir);
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

/* shard --ninja-private-groups DIR OBJ, run by the link edge after objcopy: makes the comdat
   groups of the shared locals that DIR/manifest lists private to OBJ (elfgroup) and drops the
   unwind entries of the copies ld -r dropped (ehframe), as the driver's own link does. */
int ninja_private_groups(int argc, char **argv) {
  if (argc != 4)
    die("usage: shard %s DIR OBJ (run by the link edge of shard --emit-ninja's file)",
        NINJA_PRIVATE_GROUPS);
  struct manifest m;
  char *mp = fmt("%s/manifest", argv[2]);
  manifest_read(mp, &m);
  char *err = finish_file(argv[3], &m);
  if (err)
    die("cannot make the shared locals' groups private: %s", err);
  manifest_free(&m);
  free(mp);
  return 0;
}
