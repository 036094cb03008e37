#!/bin/sh
# slow.sh CMD...: runs CMD a little later (--launcher: the shard jobs overlap when they may).
sleep 0.3
exec "$@"
