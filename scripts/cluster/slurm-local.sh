#!/usr/bin/env bash
# A one-host Slurm cluster (slurmctld, one slurmd per "node", munge, all on 127.0.0.1) that runs the recipes of
# docs/cluster.md for real: a torchrun job across the nodes with srun, then
#   srun --ntasks-per-node=1 node skewscope.mjs digest logs/%N.log --out digests/%N.json
# and the same through an Epilog script, then `skewscope analyze digests/`. Everything lives in one temporary
# folder; every daemon it starts is stopped (by its pid) when it ends, however it ends.
#
#   sudo scripts/cluster/slurm-local.sh [--nodes 3] [--late 60] [--keep]
#
# Needs root (munged and slurmd run as root here), Debian's slurm-wlm and munge
# (apt-get install -y --no-install-recommends slurm-wlm munge), Debian's python3-torch 1.13 (/usr/bin/torchrun),
# and the CLI bundle (npm run build:cli). --late N starts the last node's torchrun N seconds late in the second
# job (a c10d rendezvous with join_timeout=40: the others give up first); --keep leaves the folder for a look.
set -euo pipefail

NODES=3
LATE=60
KEEP=0
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) NODES="$2"; shift 2 ;;
    --late) LATE="$2"; shift 2 ;;
    --keep) KEEP=1; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "slurm-local: unknown option $1" >&2; exit 2 ;;
  esac
done

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUNDLE="$ROOT/dist/cli/skewscope.mjs"
NODE_BIN="$(command -v node)"
for need in slurmctld slurmd srun sinfo munged /usr/bin/torchrun /usr/bin/python3 unshare; do
  command -v "$need" >/dev/null || { echo "slurm-local: $need is missing (see the header of $0)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "slurm-local: run as root" >&2; exit 2; }
[ -f "$BUNDLE" ] || { echo "slurm-local: $BUNDLE is missing: npm run build:cli" >&2; exit 2; }

WORK="$(mktemp -d /tmp/skewscope-slurm.XXXXXX)"
chmod 755 "$WORK"
SHARED="$WORK/shared"   # stands for the cluster's shared file system
CONF="$WORK/etc/slurm.conf"
mkdir -p "$WORK"/{etc,munge,state,log,spool} "$SHARED"
PIDS=()

# Processes of this cluster, found by the folder their command line or environment names (slurmd passes
# SLURM_CONF on to slurmstepd and the tasks): nothing else on the machine matches it.
ours() {
  for d in /proc/[0-9]*; do
    pid="${d#/proc/}"
    [ "$pid" = "$$" ] && continue
    if { tr '\0' ' ' <"$d/cmdline"; } 2>/dev/null | grep -qF -- "$WORK" ||
      { tr '\0' '\n' <"$d/environ"; } 2>/dev/null | grep -qxF -- "SLURM_CONF=$CONF"; then
      echo "$pid"
    fi
  done
}

stopped=0
stop_all() {
  [ "$stopped" = 1 ] && return
  stopped=1
  set +e
  # Jobs first (while the controller still answers), then the daemons this script started, by their pids.
  [ -f "$CONF" ] && SLURM_CONF="$CONF" scancel --full --quiet --user=root 2>/dev/null && sleep 2
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill -TERM "${PIDS[$i]}" 2>/dev/null; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
  done
  # What is left of this cluster (steps, tasks), then munge.
  for pid in $(ours); do [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = munged ] || kill -KILL "$pid" 2>/dev/null; done
  if [ -f "$WORK/munge/munged.pid" ]; then
    pid="$(cat "$WORK/munge/munged.pid")"
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  sleep 0.5
  left="$(ours | tr '\n' ' ')"
  if [ -n "$left" ]; then echo "slurm-local: still running after stop: $left" >&2; else echo "slurm-local: all daemons, steps and tasks stopped"; fi
  if [ "$KEEP" = 1 ]; then echo "slurm-local: kept $WORK"; else rm -rf "$WORK"; fi
}
trap stop_all EXIT
trap 'exit 130' INT TERM

free_port() { "$NODE_BIN" -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# ——— munge ———
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$WORK/munge/munge.key"
munged --force --key-file="$WORK/munge/munge.key" --socket="$WORK/munge/munge.socket" \
  --pid-file="$WORK/munge/munged.pid" --log-file="$WORK/munge/munged.log" --seed-file="$WORK/munge/munged.seed"
for _ in $(seq 50); do [ -S "$WORK/munge/munge.socket" ] && break; sleep 0.1; done

# ——— slurm.conf: node1..nodeN, each its own slurmd on its own port ———
CTLD_PORT="$(free_port)"
PORTS=()
for i in $(seq "$NODES"); do PORTS+=("$(free_port)"); done
# The Epilog recipe is scripts/cluster/slurm-epilog.sh as shipped, with this cluster's paths.
cat >"$WORK/etc/epilog.sh" <<EOF
#!/bin/sh
SKEWSCOPE="$SHARED/skewscope.mjs" SKEWSCOPE_NODE="$NODE_BIN" SKEWSCOPE_LOGS="$SHARED/logs/%j.%N.log" \\
  SKEWSCOPE_DIGESTS="$SHARED/digests/%j/%N.json" exec sh "$ROOT/scripts/cluster/slurm-epilog.sh"
EOF
chmod 755 "$WORK/etc/epilog.sh"
{
  echo "ClusterName=skewscope-local"
  echo "SlurmctldHost=localhost(127.0.0.1)"
  echo "SlurmctldPort=$CTLD_PORT"
  echo "SlurmUser=root"
  echo "SlurmdUser=root"
  echo "AuthType=auth/munge"
  echo "AuthInfo=socket=$WORK/munge/munge.socket"
  echo "CredType=cred/munge"
  echo "StateSaveLocation=$WORK/state"
  echo "SlurmdSpoolDir=$WORK/spool/%n"
  echo "SlurmctldPidFile=$WORK/state/slurmctld.pid"
  echo "SlurmdPidFile=$WORK/spool/slurmd-%n.pid"
  echo "SlurmctldLogFile=$WORK/log/slurmctld.log"
  echo "SlurmdLogFile=$WORK/log/slurmd-%n.log"
  echo "ProctrackType=proctrack/linuxproc"
  echo "TaskPlugin=task/none"
  echo "JobAcctGatherType=jobacct_gather/none"
  echo "AccountingStorageType=accounting_storage/none"
  echo "MpiDefault=none"
  echo "SchedulerType=sched/builtin"
  echo "SelectType=select/cons_tres"
  echo "SelectTypeParameters=CR_Core"
  echo "ReturnToService=2"
  echo "Epilog=$WORK/etc/epilog.sh"
  for i in $(seq "$NODES"); do
    echo "NodeName=node$i NodeHostname=localhost NodeAddr=127.0.0.1 Port=${PORTS[$((i - 1))]} CPUs=1 RealMemory=1000 State=UNKNOWN"
  done
  echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4"
} >"$WORK/etc/slurm.conf.new"
mv "$WORK/etc/slurm.conf.new" "$CONF"
# SLURM_CONF goes to the daemons and Slurm commands only (not exported: this script's own processes must not
# look like the cluster's when it stops them).
slurm() { SLURM_CONF="$CONF" "$@"; }

SLURM_CONF="$CONF" slurmctld -D -f "$CONF" -L "$WORK/log/slurmctld.log" >/dev/null 2>&1 &
PIDS+=($!)
for i in $(seq "$NODES"); do
  mkdir -p "$WORK/spool/node$i"
  SLURM_CONF="$CONF" slurmd -D -N "node$i" -f "$CONF" -L "$WORK/log/slurmd-node$i.log" >/dev/null 2>&1 &
  PIDS+=($!)
done
for _ in $(seq 100); do
  idle="$(slurm sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | wc -l)"
  [ "$idle" -ge "$NODES" ] && break
  sleep 0.3
done
slurm sinfo -N -o '%N %T %c' || true
[ "$idle" -ge "$NODES" ] || { echo "slurm-local: the nodes did not come up (logs in $WORK/log)" >&2; KEEP=1; exit 1; }

# ——— the job folder on the "shared file system": the single-file CLI beside the job, the training script ———
cp "$BUNDLE" "$SHARED/skewscope.mjs"
cp "$ROOT/scripts/capture/train.py" "$SHARED/train.py"
mkdir -p "$SHARED/pyshim"
cp "$ROOT/scripts/capture/pyshim/sitecustomize.py" "$SHARED/pyshim/"
mkdir -p "$SHARED/logs"
{
  echo "127.0.0.1 localhost"
  for i in $(seq "$NODES"); do echo "127.0.1.$i node$i"; done
} >"$WORK/etc/hosts"
cd "$SHARED"

# Each task is one node: its own host name (a UTS namespace named after the Slurm node) and an /etc/hosts (a mount
# namespace) where node1..N are 127.0.1.1..N, so that each node's name resolves to its own address and back.
# The last node may start late. Every node writes its output to logs/<job>.<node>.log itself (on a real cluster
# srun --output=logs/%j.%N.log does the same; on one host Slurm's %N there is the machine's name, not the node's).
run_job() { # name, late seconds
  local name="$1" late="$2" port
  port="$(free_port)"
  echo "== job $name: $NODES nodes, c10d rendezvous at node1 (join_timeout=40), the last node $late s late"
  set +e
  slurm srun --job-name="$name" --nodes="$NODES" --ntasks-per-node=1 --kill-on-bad-exit=0 --time=5 \
    --output=/dev/null \
    unshare --uts --mount sh -c '
      hostname "$SLURMD_NODENAME"
      mount --bind '"$WORK"'/etc/hosts /etc/hosts
      exec >"'"$SHARED"'/logs/$SLURM_JOB_ID.$SLURMD_NODENAME.log" 2>&1
      [ "$SLURM_NODEID" -eq $(('"$NODES"' - 1)) ] && sleep '"$late"'
      exec env PYTHONPATH='"$SHARED"'/pyshim LOGLEVEL=INFO /usr/bin/torchrun --nnodes='"$NODES"' --nproc_per_node=1 \
        --rdzv_backend=c10d --rdzv_endpoint=node1:'"$port"' --rdzv_id="$SLURM_JOB_ID" \
        --rdzv_conf join_timeout=40 '"$SHARED"'/train.py'
  echo "srun exit: $?"
  set -e
}

# Job 1: the srun recipe, run right after the job, in the same allocation shape.
run_job healthy 0
JOB1="$(ls "$SHARED/logs" | cut -d. -f1 | sort -n | tail -1)"
echo "== srun --ntasks-per-node=1 node skewscope.mjs digest logs/$JOB1.%N.log --out digests/$JOB1/%N.json"
set +e
slurm srun --nodes="$NODES" --ntasks-per-node=1 --time=2 "$NODE_BIN" "$SHARED/skewscope.mjs" digest "logs/$JOB1.%N.log" \
  --out "digests/$JOB1/%N.json"
echo "srun exit: $?"
set -e
ls -l "digests/$JOB1" || true
"$NODE_BIN" skewscope.mjs analyze "digests/$JOB1" || true

# Job 2: one node late, digested by the Epilog on each node as the job ends.
run_job late "$LATE"
JOB2="$(ls "$SHARED/logs" | cut -d. -f1 | sort -n | tail -1)"
for _ in $(seq 100); do
  [ "$(ls "digests/$JOB2" 2>/dev/null | wc -l)" -ge "$NODES" ] && break
  sleep 0.3
done
echo "== epilog digests of job $JOB2"
ls -l "digests/$JOB2" || true
"$NODE_BIN" skewscope.mjs analyze "digests/$JOB2" || true
echo "== the same job from its logs"
"$NODE_BIN" skewscope.mjs analyze logs/"$JOB2".*.log | head -3 || true
