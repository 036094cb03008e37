/* jobserver: a client of the GNU make (and ninja) jobserver named in MAKEFLAGS. */
#ifndef SHARD_JOBSERVER_H
#define SHARD_JOBSERVER_H

/* One connection to a jobserver: the driver has one (the js_ functions), each libshard
   build its own. */
struct jobserver {
  int rfd;             /* reads tokens: our own non-blocking open file description */
  int wfd;             /* writes tokens back */
  int wfd_ours;        /* WFD was opened here (fifo), not inherited from make */
  int dead;            /* reading failed or hit end of file: no more tokens */
  unsigned char *toks; /* the tokens held, each written back as the byte it was */
  int ntoks, captoks;
};
#define JOBSERVER_INIT                                                                             \
  { .rfd = -1, .wfd = -1 }

int jobserver_open(struct jobserver *j, int verbose);
void jobserver_close(struct jobserver *j);
int jobserver_fd(const struct jobserver *j);
int jobserver_get(struct jobserver *j);
void jobserver_put(struct jobserver *j);
void jobserver_put_all(struct jobserver *j);

int js_init(int verbose, int pool);
int js_active(void);
int js_fd(void);
int js_held(void);
int js_get(void);
void js_put(void);
void js_put_all(void);

#endif
