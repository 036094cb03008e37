/* shard: splits one LLVM module into shards, compiles them in parallel, links one object.
   main picks the front end (the command line, the compiler launcher; the internal steps: a Ninja
   file's split edge, the Slurm executor's on-node wrapper) and hands its pipeline description
   to the pipeline. */
#define _XOPEN_SOURCE 700
#include "cli.h"
#include "launcher.h"
#include "ninja.h"
#include "pipeline.h"
#include "preflight.h"
#include "slurm.h"

#include <string.h>

int main(int argc, char **argv) {
  struct opts o;
  char **cmd = NULL;
  if (argc > 1 && !strcmp(argv[1], NINJA_AFTER_SPLIT))
    return ninja_after_split(argc, argv);
  if (argc > 1 && !strcmp(argv[1], NINJA_PRIVATE_GROUPS))
    return ninja_private_groups(argc, argv);
  if (argc > 1 && !strcmp(argv[1], SLURM_STEP))
    return slurm_step_main(argc, argv);
  switch (cli_parse(&o, argc, argv, &cmd)) {
  case CLI_HELP:
    cli_help();
    return 0;
  case CLI_VERSION:
    preflight_resolve(&o);
    cli_version(&o);
    return 0;
  case CLI_LAUNCH:
    launcher_setup(&o, cmd); /* or runs the compiler unchanged */
    break;
  case CLI_RUN:
    break;
  }
  return pipeline_run(&o);
}
