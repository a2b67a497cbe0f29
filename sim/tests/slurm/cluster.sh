#!/bin/sh
# A private single-node Slurm cluster for one command: `cluster.sh STATE_DIR CMD [ARG...]`
# starts munged, slurmctld and slurmd (Debian's slurm-wlm packages: slurmctld, slurmd,
# slurm-client, munge) with their own key, socket, ports, spool and config under STATE_DIR,
# runs CMD with SLURM_CONF pointing at that config, stops the three daemons it started (by the
# PIDs they wrote) and exits with CMD's status. Nothing outside STATE_DIR is used or changed.
# Run as root (the daemons run as root; the job runs as the caller). sim/tests/sweep.rs uses it.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 STATE_DIR CMD [ARG...]" >&2; exit 2; }
D=$1
shift
for b in munged slurmctld slurmd sbatch sinfo; do
	command -v "$b" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin
	command -v "$b" >/dev/null 2>&1 || { echo "cluster.sh: no $b (cargo xtask deps installs it)" >&2; exit 3; }
done
mkdir -p "$D/munge" "$D/state" "$D/spool" "$D/log"
chmod 700 "$D/munge"
D=$(cd "$D" && pwd)

stop() {
	for p in "$D/slurmd.pid" "$D/slurmctld.pid" "$D/munge/munged.pid"; do
		[ -s "$p" ] || continue
		pid=$(cat "$p")
		kill "$pid" 2>/dev/null || true
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -9 "$pid" 2>/dev/null || true
	done
}
trap stop EXIT
trap 'exit 1' INT TERM

dd if=/dev/urandom of="$D/munge/key" bs=1024 count=1 status=none
chmod 400 "$D/munge/key"
munged --key-file="$D/munge/key" --socket="$D/munge/socket" --pid-file="$D/munge/munged.pid" \
	--log-file="$D/log/munged.log" --seed-file="$D/munge/seed" --force

host=$(hostname -s)
# Ports away from Slurm's defaults (6817/6818), varied by this shell's PID.
port=$((20000 + ($$ % 2000) * 2))
cat >"$D/slurm.conf" <<CONF
ClusterName=rdcc-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$D/munge/socket
CredType=cred/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
PlugStackConfig=$D/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=rdcc Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
: >"$D/plugstack.conf"
export SLURM_CONF="$D/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
# Wait (up to 30 s) for the node to be idle.
i=0
until sinfo -h -o %T 2>/dev/null | grep -qx idle; do
	i=$((i + 1))
	if [ $i -gt 60 ]; then
		echo "cluster.sh: the node did not become idle; logs in $D/log" >&2
		sinfo >&2 || true
		exit 4
	fi
	sleep 0.5
done
set +e
"$@"
rc=$?
set -e
exit $rc
