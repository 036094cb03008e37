/* cli: the command-line front end: shard [options] -o OUT INPUT into a pipeline
   description (syntax only: nothing is looked up on the file system here). */
#ifndef SHARD_CLI_H
#define SHARD_CLI_H

#include "opts.h"

/* What the command line asks for. */
enum cli_action { CLI_RUN, CLI_HELP, CLI_VERSION, CLI_LAUNCH };

enum cli_action cli_parse(struct opts *o, int argc, char **argv, char ***cmd);
void cli_help(void);
void cli_version(const struct opts *o);

#endif
