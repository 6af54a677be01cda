#!/usr/bin/env bash
# slurm-local.sh start|stop|status: a single-node Slurm from Debian's
# packages, for trying "markov sweep slurm" and for the integration test.
#
#   scripts/slurm-local.sh start     install (if missing) and start munged,
#                                    slurmctld and slurmd; print the SLURM_CONF
#                                    line to export
#   scripts/slurm-local.sh stop      stop the daemons it started, by the PIDs
#                                    in their pid files
#
# State (configuration, spool, logs, pid files) lives in $SLURM_LOCAL_DIR
# (default /tmp/markov-slurm-local); /etc/slurm is not touched: commands
# find the configuration through SLURM_CONF. The ports are
# $SLURM_LOCAL_PORT and the next one (default 6817, 6818).
#
# Exit status: 0 done, 1 failed, 3 cannot run here (Slurm is missing and
# cannot be installed: not root, or no apt-get).
set -euo pipefail

dir=${SLURM_LOCAL_DIR:-/tmp/markov-slurm-local}
port=${SLURM_LOCAL_PORT:-6817}
conf=$dir/slurm.conf

install() {
  if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null && command -v sbatch >/dev/null; then
    return 0
  fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "slurm-local: Slurm is not installed and cannot be (needs root and apt-get)" >&2
    exit 3
  fi
  echo "slurm-local: installing slurm-wlm and munge" >&2
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge; } >"${TMPDIR:-/tmp}/slurm-local-apt.log" 2>&1; then
    echo "slurm-local: apt-get failed; see ${TMPDIR:-/tmp}/slurm-local-apt.log" >&2
    exit 3
  fi
}

start_munge() {
  if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    return 0 # a munged already runs; leave it alone
  fi
  if [ ! -s /etc/munge/munge.key ]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  chown munge:munge /etc/munge/munge.key
  chmod 400 /etc/munge/munge.key
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  runuser -u munge -- /usr/sbin/munged --force --pid-file=/run/munge/munged.pid
  cp /run/munge/munged.pid "$dir/munged.pid" # ours to stop
  for _ in $(seq 50); do
    munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "slurm-local: munged does not answer" >&2
  exit 1
}

alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

start() {
  install
  if alive "$dir/slurmctld.pid"; then
    echo "slurm-local: already running; export SLURM_CONF=$conf" >&2
    echo "export SLURM_CONF=$conf"
    return 0
  fi
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  start_munge
  host=$(hostname -s)
  cat >"$conf" <<EOF
ClusterName=local
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$conf
  /usr/sbin/slurmctld -f "$conf"
  /usr/sbin/slurmd -f "$conf"
  for _ in $(seq 120); do
    if [ "$(sinfo -h -o %T 2>/dev/null | head -1)" = idle ]; then
      echo "slurm-local: node $host idle; export SLURM_CONF=$conf" >&2
      echo "export SLURM_CONF=$conf"
      return 0
    fi
    sleep 0.5
  done
  echo "slurm-local: the node did not become idle; logs in $dir/log" >&2
  exit 1
}

stop_pid() {
  local f=$1
  if alive "$f"; then
    local pid
    pid=$(cat "$f")
    kill "$pid"
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
  fi
  rm -f "$f"
}

stop() {
  stop_pid "$dir/slurmd.pid"
  stop_pid "$dir/slurmctld.pid"
  stop_pid "$dir/munged.pid"
  echo "slurm-local: stopped" >&2
}

case ${1:-} in
start) start ;;
stop) stop ;;
status) SLURM_CONF=$conf sinfo ;;
*)
  echo "usage: $0 start|stop|status" >&2
  exit 2
  ;;
esac
