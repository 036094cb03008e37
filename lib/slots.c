/* slots: the host's job-slot callbacks as a make jobserver for a child process. The child
   (the driver) holds one implicit slot, taken from the host before it starts; a bridge
   thread keeps one token in the jobserver pipe while the child runs, taking a host slot for
   each token it writes, and gives a slot back for each token the child returns. Slots held
   = 1 + tokens written - tokens read back, never fewer than the jobs running. */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

struct lib_bridge {
  const struct shard_config *c;
  int fd[2];     /* the jobserver pipe */
  int held;      /* host slots held for tokens */
  pid_t pid;     /* the child, once started */
  int stop;      /* the child ended: the thread ends */
  int cancelled; /* a callback refused a slot */
  pthread_t thread;
  pthread_mutex_t mu;
  int started;
};

/* The tokens in the pipe now. */
static int tokens(const struct lib_bridge *b) {
  int n = 0;
  return ioctl(b->fd[0], FIONREAD, &n) < 0 ? 0 : n;
}

/* Whether the thread should end. */
static int stopping(struct lib_bridge *b) {
  pthread_mutex_lock(&b->mu);
  int s = b->stop;
  pthread_mutex_unlock(&b->mu);
  return s;
}

/* The bridge thread: one spare token in the pipe, surplus tokens back to the host. */
static void *run(void *arg) {
  struct lib_bridge *b = arg;
  const struct timespec tick = {0, 2000000};
  while (!stopping(b)) {
    int n = tokens(b);
    if (n == 0) {
      if (b->c->acquire(b->c->slot_user)) {
        pthread_mutex_lock(&b->mu);
        b->cancelled = 1;
        if (b->pid > 0 && !b->stop)
          kill(b->pid, SIGTERM);
        pthread_mutex_unlock(&b->mu);
        break;
      }
      b->held++;
      if (write(b->fd[1], "+", 1) != 1) {
        b->c->release(b->c->slot_user);
        b->held--;
      }
      continue;
    }
    char buf[64];
    while (n > 1) { /* the child gave some back */
      ssize_t r = read(b->fd[0], buf, n - 1 < (int)sizeof buf ? n - 1 : (int)sizeof buf);
      if (r <= 0)
        break;
      for (ssize_t i = 0; i < r; i++, b->held--)
        b->c->release(b->c->slot_user);
      n -= r;
    }
    nanosleep(&tick, NULL);
  }
  return NULL;
}

/* With host callbacks in C: takes the implicit slot and starts the bridge; NULL without
   callbacks, or with *ERROR set (cancelled, or no pipe). */
struct lib_bridge *bridge_start(const struct shard_config *c, char **error) {
  if (!c->acquire)
    return NULL;
  struct lib_bridge *b = calloc(1, sizeof *b);
  if (!b || pipe2(b->fd, O_CLOEXEC) < 0) {
    *error = lib_msg("shard: cannot create a pipe: %s", strerror(errno));
    free(b);
    return NULL;
  }
  fcntl(b->fd[0], F_SETFL, O_NONBLOCK);
  b->c = c;
  pthread_mutex_init(&b->mu, NULL);
  if (c->acquire(c->slot_user)) {
    *error = lib_msg("shard: cancelled (the host's job-slot callback refused a slot)");
    close(b->fd[0]);
    close(b->fd[1]);
    free(b);
    return NULL;
  }
  return b;
}

/* The pipe's ends for the child and the MAKEFLAGS that names them (a new string). */
void bridge_env(const struct lib_bridge *b, int *rfd, int *wfd, char **makeflags) {
  *rfd = b->fd[0];
  *wfd = b->fd[1];
  *makeflags = lib_msg(" -j --jobserver-auth=%d,%d", b->fd[0], b->fd[1]);
}

/* The child PID started: the bridge thread starts feeding tokens. */
int bridge_child(struct lib_bridge *b, pid_t pid) {
  b->pid = pid;
  b->started = !pthread_create(&b->thread, NULL, run, b);
  return !b->started;
}

/* The child ended: gives back the implicit slot, ends the thread (its pending acquire may
   need that slot), returns every slot it holds and frees B. Returns whether a callback
   cancelled the run. */
int bridge_stop(struct lib_bridge *b) {
  pthread_mutex_lock(&b->mu);
  b->stop = 1;
  pthread_mutex_unlock(&b->mu);
  b->c->release(b->c->slot_user);
  if (b->started)
    pthread_join(b->thread, NULL);
  for (; b->held > 0; b->held--)
    b->c->release(b->c->slot_user);
  int cancelled = b->cancelled;
  close(b->fd[0]);
  close(b->fd[1]);
  pthread_mutex_destroy(&b->mu);
  free(b);
  return cancelled;
}
