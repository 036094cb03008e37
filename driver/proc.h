/* proc: spawning children without a shell, waiting, and signal handling. */
#ifndef SHARD_PROC_H
#define SHARD_PROC_H

#include <sys/types.h>

void proc_init(int verbose);
pid_t proc_spawn(char *const argv[], const char *log);
pid_t proc_spawn_fd(char *const argv[], const char *log, int fd);
pid_t proc_fork(void);
pid_t proc_wait(int *status);
void proc_reap(pid_t pid, int *status);
pid_t proc_wait_fds(const int *fds, int n, int *status);
int proc_run(char *const argv[], const char *log);
int proc_run_stderr(char *const argv[], const char *log);
char *proc_status(int status);
long proc_last_maxrss(void);
void proc_interrupt_point(void);
void proc_interrupted(int sig);
void proc_block(int on);
void proc_kill_all(void);

#endif
