/* jobserver: a client of the GNU make (and ninja) jobserver named in MAKEFLAGS. */
#ifndef SHARD_JOBSERVER_H
#define SHARD_JOBSERVER_H

int js_init(int verbose);
int js_active(void);
int js_fd(void);
int js_held(void);
int js_get(void);
void js_put(void);
void js_put_all(void);

#endif
