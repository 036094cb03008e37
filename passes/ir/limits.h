/* limits.h - bounds shared by the passes (C++) and the driver (C). */
#ifndef SHARD_IR_LIMITS_H
#define SHARD_IR_LIMITS_H

/* The most shards a module is split into (shard-partition<shards=N>, shard --shards). */
#define SHARD_MAX_SHARDS 4096

#endif
