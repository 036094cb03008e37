#!/usr/bin/env bash
# A private single-host Slurm cluster for the tests: munged, slurmctld and two slurmd (nodes
# node1 and node2), all with their keys, sockets, state, logs and pid files in DIR, on ports
# nobody uses.
#
#   cluster.sh start DIR   starts it; prints "export SLURM_CONF=DIR/slurm.conf" for the caller
#                          to eval; exits 2 with the reason on stderr where the daemons cannot
#                          run here (not root, no Slurm or munge installed)
#   cluster.sh stop DIR    stops it (safe to run again, or after a failed start)
#
# Two nodes on this host, node1 and node2, each with 2 CPUs and 45% of the machine's memory,
# memory tracked (SelectTypeParameters=CR_CPU_Memory), no cgroups (proctrack/linuxproc,
# task/none), in the default partition "debug". Time limits are enforced to the minute
# (OverTimeLimit=0, KillWait=5) and a node whose slurmd stops answering is down after 10 s
# (SlurmdTimeout), for the failure tests. The daemons run as root; munged as user munge, on its
# own socket (slurm.conf's AuthInfo names it).
set -euo pipefail

usage() { echo "usage: cluster.sh start|stop DIR" >&2; exit 1; }
[[ $# == 2 ]] || usage
CMD=$1
DIR=$2
skip() { echo "cluster.sh: cannot start a Slurm cluster here: $*" >&2; exit 2; }
die() { echo "cluster.sh: error: $*" >&2; exit 1; }

# Sends TERM to the process in pid file $1 and waits up to 10 s for it to end.
stop_pid() {
    [[ -s $1 ]] || return 0
    local pid i
    pid=$(cat "$1")
    kill "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 100; i++)); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
}

stop() {
    [[ -d $DIR ]] || return 0
    if [[ -f $DIR/slurm.conf ]] && [[ -s $DIR/slurmctld.pid || -s $DIR/slurmd.node1.pid ]]; then
        SLURM_CONF=$DIR/slurm.conf timeout 10 scancel --quiet --user=root 2>/dev/null || true
        SLURM_CONF=$DIR/slurm.conf timeout 10 scontrol shutdown >/dev/null 2>&1 || true
    fi
    stop_pid "$DIR/slurmd.node1.pid"
    stop_pid "$DIR/slurmd.node2.pid"
    stop_pid "$DIR/slurmctld.pid"
    stop_pid "$DIR/munge/munged.pid"
    rm -f "$DIR"/*.pid "$DIR/munge/munged.pid"
}

# Three free TCP ports, one a line.
free_ports() {
    python3 -c '
import socket
ss = [socket.socket() for _ in range(3)]
for s in ss: s.bind(("127.0.0.1", 0))
for s in ss: print(s.getsockname()[1])'
}

# Waits up to $2 tenths of a second for command $1 to succeed.
wait_for() {
    local i
    for ((i = 0; i < $2; i++)); do
        eval "$1" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    return 1
}

start() {
    [[ $(id -u) == 0 ]] || skip "not root (slurmd must run as root to start job steps)"
    local t
    for t in munged mungekey slurmctld slurmd srun sinfo scontrol; do
        command -v "$t" >/dev/null 2>&1 ||
            skip "no '$t' (apt-get install slurm-wlm munge; ./build.sh --deps-only does)"
    done
    id munge >/dev/null 2>&1 || skip "no user munge (apt-get install munge)"
    mkdir -p "$DIR"
    DIR=$(cd "$DIR" && pwd)
    chmod 755 "$DIR"
    stop # a cluster left over in DIR

    # munge: a fresh key and a socket of our own, in a directory only munge writes.
    mkdir -p "$DIR/munge"
    chown munge:munge "$DIR/munge"
    chmod 700 "$DIR/munge"
    runuser -u munge -- mungekey --create --force --keyfile="$DIR/munge/munge.key" ||
        die "mungekey failed"
    chmod 711 "$DIR/munge" # clients reach the socket
    runuser -u munge -- munged --force --socket="$DIR/munge/socket" \
        --key-file="$DIR/munge/munge.key" --pid-file="$DIR/munge/munged.pid" \
        --log-file="$DIR/munge/munged.log" --seed-file="$DIR/munge/munged.seed" ||
        skip "munged does not start: $(tail -3 "$DIR/munge/munged.log" 2>/dev/null)"

    local ports mem
    mapfile -t ports < <(free_ports)
    mem=$(free -m | awk '/^Mem:/ {print int($2 * 0.45)}')
    mkdir -p "$DIR/state" "$DIR/spool/node1" "$DIR/spool/node2"
    cat >"$DIR/slurm.conf" <<EOF
ClusterName=shardtest
SlurmctldHost=localhost
SlurmctldPort=${ports[0]}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/socket
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/%n
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.%n.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=10
InactiveLimit=0
KillWait=5
OverTimeLimit=0
MinJobAge=10
NodeName=node1 NodeHostname=localhost NodeAddr=127.0.0.1 Port=${ports[1]} CPUs=2 RealMemory=$mem State=UNKNOWN
NodeName=node2 NodeHostname=localhost NodeAddr=127.0.0.1 Port=${ports[2]} CPUs=2 RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=node1,node2 Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
    export SLURM_CONF=$DIR/slurm.conf
    slurmctld -f "$SLURM_CONF" -i || { stop; die "slurmctld does not start: $(tail -5 "$DIR/slurmctld.log")"; }
    local n
    for n in node1 node2; do
        slurmd -f "$SLURM_CONF" -N $n ||
            { stop; die "slurmd $n does not start: $(tail -5 "$DIR/slurmd.$n.log")"; }
    done
    if ! wait_for '[[ $(sinfo -h -o %t | sort -u) == idle ]]' 300; then
        local state
        state=$(sinfo -h -o '%N %t' 2>&1 || true)
        stop
        die "the nodes did not become idle in 30 s (state '$state'); logs in $DIR"
    fi
    echo "export SLURM_CONF=$SLURM_CONF"
}

case $CMD in
start) start ;;
stop) DIR=$(cd "$DIR" 2>/dev/null && pwd) || exit 0; stop ;;
*) usage ;;
esac
