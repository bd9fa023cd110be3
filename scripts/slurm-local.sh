#!/usr/bin/env bash
# A real single-node Slurm cluster on this machine, for `searchlab slurm` and its
# end-to-end test (tests/slurm.rs): Debian's slurm-wlm and munge, run as root.
#
#   sudo bash scripts/slurm-local.sh     # install if missing, configure, start, wait
#
# Idempotent: run it again at any time, also while the cluster is up and running jobs;
# it only installs what is missing, rewrites /etc/slurm/slurm.conf when the machine's
# name, cores or memory changed (restarting the daemons then), starts the daemons that
# are not running and waits until the node takes jobs. No systemd needed.
set -euo pipefail

say() { echo "slurm-local: $*"; }
die() {
    echo "slurm-local: error: $*" >&2
    exit 1
}

[ "$(id -u)" = 0 ] || die "run as root (it installs packages and starts the daemons)"

# 1. Install.
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    command -v apt-get >/dev/null || die "slurm-wlm and munge are missing and there is no apt-get to install them"
    say "installing slurm-wlm and munge"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends slurm-wlm munge >/dev/null
fi

# 2. Configure.
host=$(hostname -s)
cpus=$(nproc)
mem=$(($(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo) - 1024))
[ "$mem" -ge 512 ] || mem=512
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
conf=$(
    cat <<EOF
# Written by searchlab's scripts/slurm-local.sh: a single-node cluster on this machine.
ClusterName=local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SwitchType=switch/none
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
)
changed=no
if [ ! -f /etc/slurm/slurm.conf ] || [ "$(cat /etc/slurm/slurm.conf)" != "$conf" ]; then
    printf '%s\n' "$conf" >/etc/slurm/slurm.conf
    changed=yes
    say "wrote /etc/slurm/slurm.conf (node $host, $cpus CPUs, $mem MB)"
fi

if [ ! -s /etc/munge/munge.key ]; then
    mkdir -p /etc/munge
    if command -v mungekey >/dev/null; then
        mungekey -c -f -k /etc/munge/munge.key
    else
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
    fi
    say "created /etc/munge/munge.key"
fi
chown munge:munge /etc/munge/munge.key /run/munge
chmod 400 /etc/munge/munge.key
chown -R munge:munge /var/lib/munge /var/log/munge 2>/dev/null || true

# 3. Start. A daemon is running when the process in its pid file is alive.
running() { # pidfile name
    [ -f "$1" ] && [ "$(cat /proc/"$(cat "$1")"/comm 2>/dev/null)" = "$2" ]
}

if ! running /run/munge/munged.pid munged; then
    say "starting munged"
    runuser -u munge -- /usr/sbin/munged
fi
munge -n | unmunge >/dev/null || die "munge does not work (see /var/log/munge/munged.log)"

if [ "$changed" = yes ] && running /run/slurmctld.pid slurmctld; then
    say "configuration changed: restarting the Slurm daemons (running jobs are kept)"
    scontrol shutdown >/dev/null 2>&1 || true
    for _ in $(seq 1 50); do
        running /run/slurmctld.pid slurmctld || running /run/slurmd.pid slurmd || break
        sleep 0.2
    done
fi
if ! running /run/slurmctld.pid slurmctld; then
    say "starting slurmctld"
    slurmctld
fi
if ! running /run/slurmd.pid slurmd; then
    say "starting slurmd"
    slurmd
fi

# 4. Wait for the node to take jobs.
state=""
for i in $(seq 1 120); do
    state=$(sinfo -h -n "$host" -o %t 2>/dev/null | head -n1 || true)
    case "$state" in
    idle | mix | alloc | comp) break ;;
    down* | drain* | drng* | fail*)
        # A node that was down (e.g. the machine restarted) is returned to service.
        scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true
        ;;
    esac
    sleep 0.5
done
case "$state" in
idle | mix | alloc | comp) say "ready: node $host is $state ($(sinfo -h -o '%P %D nodes, %c CPUs' | head -n1))" ;;
*)
    tail -n 5 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
    die "node $host is '${state:-unknown}' after 60 s (logs above)"
    ;;
esac
