/* job: the job model, what every executor runs (local.c as processes, ninja.c as a Ninja
   file; later threads): the jobs of a build, the commands each runs, their logs and the files
   they read and write. Building a job touches no file; running it is the executor's.

   A build has three kinds of jobs: the split (opt with the plugin, in one or several parts at
   once), which writes the manifest and the shards' modules; one compile per shard; the link
   (ld.lld -r, with two shards or more, then llvm-objcopy to restore the promoted symbols).
   Every file but the input and the output lives in the work directory DIR:
     DIR/manifest, DIR/shard.K.bc, DIR/split[.I].log       the split (part I > 0)
     DIR/shard.K.o, DIR/shard.K.clang.log                  shard K's compile
     DIR/linked.o, DIR/{localize,redefine}.syms, DIR/{link,objcopy}.log   the link */
#ifndef SHARD_JOB_H
#define SHARD_JOB_H

#include "cache.h"
#include "manifest.h"
#include "opts.h"
#include "util.h"

enum job_kind { JOB_SPLIT, JOB_COMPILE, JOB_LINK };

/* One command of a job: its argv, the file that gets its stdout and stderr, and what failed
   when it fails ("shard 3: clang failed"; the status follows). */
struct step {
  struct argv argv;
  char *log;
  char *fail;
};

/* A job: its steps (the split's parts run at once, the link's one after the other), the files
   it reads (in) and writes (out), and the programs it runs (tools: their identity is an input
   too). */
struct job {
  enum job_kind kind;
  int k; /* JOB_COMPILE: the shard */
  int nsteps;
  struct step *step;
  struct argv in, out, tools;
};

/* The LLVM tools the jobs run (in the tools directory), NULL-terminated. */
extern const char *const job_tools[];

char *shard_file(const char *dir, int k, const char *ext);
char *job_split_log(const char *dir, int part);
int job_split_parts(const struct opts *o);
int job_by_cost(const void *a, const void *b);
void job_split(struct job *j, const struct opts *o, const char *dir, int nshards, int parts,
               int notify);
void job_compile(struct job *j, const struct opts *o, const struct manifest *m, const char *dir,
                 int k);
void job_link(struct job *j, const struct opts *o, const char *dir, int nshards, char *const *syms,
              const char *tmp);
struct cache_key job_shard_key(const struct opts *o, const struct manifest *m, const char *bc,
                               const char *data, size_t size);
struct cache_key job_output_key(const struct opts *o, const char *driver, const char *data,
                                size_t size);
void job_free(struct job *j);
void job_check_shard(const char *dir, int k);

#endif
