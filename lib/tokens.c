/* tokens: the threads executor's job slots from a make jobserver in MAKEFLAGS (the driver's
   client, driver/jobserver.c, one connection per build), for a host without slot callbacks
   and without jobs. As in the driver, the build holds one implicit slot (the split's part 0
   while it runs, then a job's); each more part of the split holds a token taken at its start
   (as many parts as tokens are free then), each more job holds a token, read when it is ready to
   start and written back as soon as it ends. */
#define _GNU_SOURCE
#include "threads.h"

#include <poll.h>

/* Connects B to the jobserver MAKEFLAGS names; returns whether there is a usable one. */
int tokens_open(struct tbuild *b) {
  b->js = (struct jobserver)JOBSERVER_INIT;
  if (!jobserver_open(&b->js, 0))
    return 0;
  b->implicit = 1;
  return 1;
}

/* Takes the implicit slot or a token, waiting for one (a job's or the split's acquire);
   returns 0. Gives up waiting once the build stops (the caller sees it stopped). */
int tokens_acquire(void *user) {
  struct tbuild *b = user;
  pthread_mutex_lock(&b->mu);
  while (!b->stop) {
    if (b->implicit) {
      b->implicit = 0;
      break;
    }
    if (jobserver_get(&b->js))
      break;
    int fd = jobserver_fd(&b->js);
    pthread_mutex_unlock(&b->mu);
    struct pollfd p = {.fd = fd, .events = POLLIN};
    poll(&p, fd >= 0, 10); /* a token, or a look at the implicit slot again */
    pthread_mutex_lock(&b->mu);
  }
  pthread_mutex_unlock(&b->mu);
  return 0;
}

/* Takes up to N more tokens that are free now, never waiting (the split's parts); returns how
   many it took. */
int tokens_take(struct tbuild *b, int n) {
  pthread_mutex_lock(&b->mu);
  int got = 0;
  while (got < n && jobserver_get(&b->js))
    got++;
  pthread_mutex_unlock(&b->mu);
  return got;
}

/* Gives back a token when one is held, else the implicit slot. */
void tokens_release(void *user) {
  struct tbuild *b = user;
  pthread_mutex_lock(&b->mu);
  if (b->js.ntoks)
    jobserver_put(&b->js);
  else
    b->implicit = 1;
  pthread_mutex_unlock(&b->mu);
}

/* Gives back every token and closes the connection. */
void tokens_close(struct tbuild *b) {
  if (b->js.rfd >= 0)
    jobserver_close(&b->js);
}
