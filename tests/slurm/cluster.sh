#!/bin/bash
# tests/slurm/cluster.sh — a throw-away one-node Slurm cluster on localhost, for tests.
#
#   cluster.sh start DIR   munged, slurmctld and slurmd, all configured and logging under DIR
#   cluster.sh stop DIR    stops exactly the processes `start` recorded in DIR/pids
#
# Needs root and Debian's slurm-wlm (22.05) and munge (scripts/workbook.sh installs both).
# Made for a container: no systemd (each daemon runs in the foreground, started from
# here), cgroups possibly read-only (proctrack/linuxproc, task/none), nothing under
# /etc, /run or /var touched. Two free TCP ports on 127.0.0.1 are picked at start, so
# a second cluster, or a real slurmd on 6817/6818, does not collide with this one.
#
# Clients (sbatch, squeue, sinfo, scancel) find the cluster through SLURM_CONF:
#   source DIR/env     (exports SLURM_CONF=DIR/slurm.conf)
#
# A start that does not see the node idle within WB_SLURM_START_TIMEOUT seconds (30)
# prints the daemons' logs, stops what it started and exits 1.
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
(($# == 2)) || usage
action=$1
if [[ "$action" == start ]] && ((EUID != 0)); then
  echo "cluster.sh: needs root (slurmd runs jobs as their user, and this cluster has SlurmdUser=root)" >&2
  exit 1
fi
mkdir -p "$2"
dir=$(cd "$2" && pwd)

# Kills the pids recorded in DIR/pids, and only while /proc says the pid is still the
# program this script started there (its command line names DIR), so a pid the kernel
# has given to another process since is left alone.
stop_recorded() {
  [[ -f "$dir/pids" ]] || return 0
  local name pid alive=() jobs
  # Jobs still running would outlive slurmd (their slurmstepd is made to survive a
  # slurmd restart): cancel them, by id, on this cluster only, while slurmctld is up.
  if [[ -f "$dir/slurm.conf" ]]; then
    jobs=$(SLURM_CONF=$dir/slurm.conf timeout 5 squeue -h -o %A 2>/dev/null | sort -u | tr '\n' ' ' || true)
    if [[ -n "${jobs// /}" ]]; then
      # shellcheck disable=SC2086 # one id per word
      SLURM_CONF=$dir/slurm.conf timeout 5 scancel $jobs 2>/dev/null || true
      for _ in $(seq 50); do
        [[ -z "$(SLURM_CONF=$dir/slurm.conf timeout 5 squeue -h -o %A 2>/dev/null || true)" ]] && break
        sleep 0.1
      done
    fi
  fi
  while read -r name pid; do
    [[ "$pid" =~ ^[0-9]+$ ]] || continue
    if [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "$dir/"; then
      kill -TERM "$pid" 2>/dev/null && alive+=("$pid")
    fi
  done <"$dir/pids"
  for _ in $(seq 50); do
    local left=()
    for pid in "${alive[@]}"; do [[ -d /proc/$pid ]] && left+=("$pid"); done
    ((${#left[@]})) || break
    alive=("${left[@]}")
    sleep 0.1
  done
  for pid in "${alive[@]}"; do
    if [[ -d /proc/$pid ]]; then kill -KILL "$pid" 2>/dev/null || true; fi
  done
  rm -f "$dir/pids"
}

show_logs() {
  local f
  for f in munged.log slurmctld.log slurmd.log slurmctld.out slurmd.out; do
    [[ -s "$dir/$f" ]] || continue
    echo "----- $dir/$f (last 40 lines)" >&2
    tail -n 40 "$dir/$f" >&2
  done
}

if [[ "$action" == stop ]]; then
  stop_recorded
  exit 0
fi
[[ "$action" == start ]] || usage

for prog in munged slurmctld slurmd sinfo; do
  command -v "$prog" >/dev/null || PATH=$PATH:/usr/sbin
  command -v "$prog" >/dev/null || { echo "cluster.sh: $prog not found: apt-get install slurm-wlm munge" >&2; exit 1; }
done
[[ -e "$dir/pids" ]] && { echo "cluster.sh: $dir/pids exists: a cluster may be running there; stop it first" >&2; exit 1; }

t0=$EPOCHREALTIME
chmod 0700 "$dir"
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 0700 "$dir/munge"
node=$(hostname -s)
: >"$dir/pids"

# munge: a fresh key that exists for this cluster only, owned by root (munged runs as
# root here) and readable by it alone, as munged insists.
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 0400 "$dir/munge/munge.key"
socket=$dir/munge/munge.socket
munged --foreground --force --key-file="$dir/munge/munge.key" --socket="$socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munged.seed" \
  >"$dir/munged.out" 2>&1 &
echo "munged $!" >>"$dir/pids"

# Two free ports on 127.0.0.1 (the kernel's choice; released before the daemons bind them).
read -r ctld_port slurmd_port < <(python3 - <<'EOF'
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])
EOF
)

cpus=$(nproc)
mem_mb=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
cat >"$dir/slurm.conf" <<EOF
# A one-node test cluster written by tests/slurm/cluster.sh; everything lives under $dir.
ClusterName=workbook-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MailProg=/bin/true
SchedulerType=sched/backfill
# Start a batch job as soon as it is submitted, not at the next 3 s scheduling pass.
SchedulerParameters=batch_sched_delay=0
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
echo "export SLURM_CONF=$(printf %q "$dir/slurm.conf")" >"$dir/env"
export SLURM_CONF=$dir/slurm.conf

# Wait for munged's socket before the daemons that authenticate through it.
for _ in $(seq 100); do [[ -S "$socket" ]] && break; sleep 0.05; done
[[ -S "$socket" ]] || { echo "cluster.sh: munged did not open $socket" >&2; show_logs; stop_recorded; exit 1; }

slurmctld -D -i -f "$dir/slurm.conf" >"$dir/slurmctld.out" 2>&1 &
echo "slurmctld $!" >>"$dir/pids"
slurmd -D -N "$node" -f "$dir/slurm.conf" >"$dir/slurmd.out" 2>&1 &
echo "slurmd $!" >>"$dir/pids"

timeout=${WB_SLURM_START_TIMEOUT:-30}
deadline=$(($(date +%s) + timeout))
state=""
while (($(date +%s) < deadline)); do
  state=$(sinfo -h -n "$node" -o %t 2>/dev/null || true)
  [[ "$state" == idle ]] && break
  # A daemon that exited will not bring the node up: stop waiting.
  while read -r name pid; do
    [[ -d /proc/$pid ]] || { echo "cluster.sh: $name (pid $pid) exited during start" >&2; show_logs; stop_recorded; exit 1; }
  done <"$dir/pids"
  sleep 0.2
done
if [[ "$state" != idle ]]; then
  echo "cluster.sh: node $node is not idle after ${timeout}s (sinfo says '${state:-nothing}')" >&2
  show_logs
  stop_recorded
  exit 1
fi
awk -v a="$t0" -v b="$EPOCHREALTIME" -v n="$node" -v c="$SLURM_CONF" \
  'BEGIN { printf "cluster.sh: node %s idle after %.1f s (SLURM_CONF=%s)\n", n, b - a, c }'
