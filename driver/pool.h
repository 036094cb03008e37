/* pool: the machine's job slots, shared by the launcher's runs that have no jobserver. */
#ifndef SHARD_POOL_H
#define SHARD_POOL_H

int pool_open(int verbose);
int pool_active(void);
int pool_get(void);
void pool_put(void);
int pool_held(void);

#endif
