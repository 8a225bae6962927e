#!/bin/bash
# The capture matrix of test/fixtures/captured/: one function per fixture folder, with the exact capture command.
#   scripts/capture/scenarios.sh list            names of every scenario
#   scripts/capture/scenarios.sh run NAME...     capture them one after the other (each refuses a non-empty folder)
# Runs that wait for a default timeout take up to ~18 min; start several in the background (each run has its own
# loopback-only network namespace, so ports never collide). Mixed-run fixtures are assembled by mix.py from two
# captures made here (the *-runA / *-runB scenarios write to /tmp/skewscope-capture-src/).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
CAP=(/usr/bin/python3 "$HERE/capture.py")
SRC=/tmp/skewscope-capture-src

# ---- torch 1.13 (Debian bookworm, this machine) -------------------------------------------------------------------

torch1.13-static-host-late-fail() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend static --nnodes 3 --nproc-per-node 1 --delays 60,0,1 \
    --rdzv-conf timeout=30 --prefix plain --kill-after 450 \
    --description "static, 3 nodes x 1 proc, --rdzv_conf timeout=30, LOGLEVEL=INFO, node_rank 0 (the store host) launched 60 s after node 1 (beyond the clients' 30 s connect limit); plain tee"
}
torch1.13-static-host-late-fail-default() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend static --nnodes 3 --nproc-per-node 2 --delays 930,0,2 \
    --prefix k8s --kubeflow-names --kill-after 1080 \
    --description "static, 3 nodes x 2 procs, default timeout (900), LOGLEVEL=INFO, node_rank 0 (the store host) launched 930 s after node 1 (beyond the clients' 900 s connect limit); the platform stops node 0 at 1080 s; Kubernetes-style capture, Kubeflow file names"
}
torch1.13-static-host-late-survive() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend static --nnodes 3 --nproc-per-node 2 --delays 120,0,1 \
    --prefix plain --kill-after 300 \
    --description "static, 3 nodes x 2 procs, default timeout (900), LOGLEVEL=INFO, node_rank 0 (the store host) launched 120 s after node 1 (within the clients' 900 s connect limit); plain tee"
}
torch1.13-c10d-host-late-fail() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 3 --nproc-per-node 1 --delays 30,0,1 \
    --rdzv-conf read_timeout=20,join_timeout=40 --prefix slurm --kill-after 150 \
    --description "c10d, endpoint node0, 3 nodes x 1 proc, --rdzv_conf read_timeout=20,join_timeout=40, LOGLEVEL=INFO, node 0 (the c10d store host) launched 30 s after node 1 (beyond read_timeout); one Slurm file (srun -l)"
}
torch1.13-c10d-host-late-survive() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 4 --nproc-per-node 1 --delays 40,0,1,2 \
    --prefix k8s --kill-after 200 \
    --description "c10d, endpoint node0, 4 nodes x 1 proc, default rdzv_conf (read_timeout 60), LOGLEVEL=INFO, node 0 (the c10d store host) launched 40 s after node 1 (within read_timeout); Kubernetes-style capture"
}
torch1.13-static-nonhost-late-fail() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend static --nnodes 4 --nproc-per-node 1 --delays 0,1,2,320 \
    --prefix plain --kill-after 480 \
    --description "static, 4 nodes x 1 proc, default timeout (900), LOGLEVEL=INFO, node_rank 3 (a store client) launched 320 s after node 0 (beyond the 300 s store synchronize); the platform stops the rest at 480 s; plain tee"
}
torch1.13-c10d-nonhost-late-fail() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 4 --nproc-per-node 1 --delays 0,1,2,60 \
    --rdzv-conf join_timeout=40 --prefix plain --kill-after 150 \
    --description "c10d, endpoint node0, 4 nodes x 1 proc, --rdzv_conf join_timeout=40, LOGLEVEL=INFO, node 3 (not the store host) launched 60 s after node 0 (beyond join_timeout); plain tee"
}
torch1.13-static-never-starts() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend static --nnodes 3 --nproc-per-node 2 --delays 0,1,never \
    --rdzv-conf timeout=60 --prefix k8s --kill-after 480 \
    --description "static, 3 nodes x 2 procs, --rdzv_conf timeout=60, LOGLEVEL=INFO, node_rank 2 never starts (no log); Kubernetes-style capture"
}
torch1.13-c10d-never-starts() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 4 --nproc-per-node 1 --delays 0,1,2,never \
    --rdzv-conf join_timeout=40 --prefix k8s --kill-after 150 \
    --description "c10d, endpoint node0, 4 nodes x 1 proc, --rdzv_conf join_timeout=40, LOGLEVEL=INFO, node 3 never starts (no log); Kubernetes-style capture"
}
torch1.13-static-connect-retry-success() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend static --nnodes 3 --nproc-per-node 1 --delays 45,0,1 \
    --rdzv-conf timeout=60 --prefix k8s --kill-after 200 \
    --description "static, 3 nodes x 1 proc, --rdzv_conf timeout=60, LOGLEVEL=INFO, node_rank 0 (the store host) launched 45 s after node 1: the clients keep retrying the connect and succeed within the 60 s limit; Kubernetes-style capture"
}
torch1.13-c10d-elastic-2to4() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 3 --nnodes-arg 2:4 --nproc-per-node 1 --delays 0,1,2 \
    --prefix plain --kill-after 200 \
    --description "c10d elastic, --nnodes=2:4, 3 nodes x 1 proc started, default rdzv_conf (last_call_timeout 30), LOGLEVEL=INFO; a world of 3 forms after the last call; plain tee"
}
torch1.13-c10d-elastic-late-join() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 4 --nnodes-arg 2:4 --nproc-per-node 1 --delays 0,1,2,70 \
    --steps 15 --step-sleep 4 --prefix plain --kill-after 360 \
    --description "c10d elastic, --nnodes=2:4, 4 nodes x 1 proc, default rdzv_conf (last_call_timeout 30), LOGLEVEL=INFO; nodes 0-2 form a world of 3, node 3 launched 70 s after node 0 (after the last call, while training runs) and the agents re-rendezvous into a world of 4; plain tee"
}
torch1.13-c10d-restart-once() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 3 --nproc-per-node 2 --delays 0,1,2 \
    --torchrun-arg=--max_restarts=2 --crash node1:after_init:0 --prefix plain --kill-after 240 \
    --description "c10d, 3 nodes x 2 procs, --max_restarts=2, LOGLEVEL=INFO; node1's local rank 0 raises after its first all_reduce in attempt 0 (TORCHELASTIC_RESTART_COUNT=0); all agents restart and attempt 1 succeeds; plain tee"
}
torch1.13-c10d-crash-before-pg-init() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 3 --nproc-per-node 2 --delays 0,1,2 \
    --crash node2:before_init:all --pg-timeout 60 --prefix plain --kill-after 480 \
    --description "c10d, 3 nodes x 2 procs, LOGLEVEL=INFO, init_process_group timeout 60 s (set in train.py, not printed); node2's local rank 0 raises before init_process_group; the other workers wait in init_process_group; plain tee"
}
torch1.13-mixed-runA() {
  "${CAP[@]}" --scenario "$FUNCNAME" --out "$SRC/$FUNCNAME" --rdzv-id trainjob-a --port 29500 \
    --backend c10d --nnodes 4 --nproc-per-node 1 --delays 0,1,2,3 --prefix plain --kill-after 200 \
    --description "run A of the mixed pair: c10d, rdzv_id trainjob-a, port 29500, 4 nodes x 1 proc, healthy; plain tee"
}
torch1.13-mixed-runB() {
  "${CAP[@]}" --scenario "$FUNCNAME" --out "$SRC/$FUNCNAME" --rdzv-id trainjob-b --port 29600 \
    --backend c10d --nnodes 4 --nproc-per-node 1 --delays 0,1,60,3 --rdzv-conf join_timeout=40 \
    --prefix plain --kill-after 150 \
    --description "run B of the mixed pair: c10d, rdzv_id trainjob-b, port 29600, join_timeout=40, 4 nodes x 1 proc, node 2 launched 60 s late (fails); plain tee"
}
torch1.13-mixed-runs() {
  /usr/bin/python3 "$HERE/mix.py" --scenario "$FUNCNAME" \
    --run "A=$SRC/torch1.13-mixed-runA:node0.log,node1.log" --run "B=$SRC/torch1.13-mixed-runB:node2.log,node3.log" \
    --description "node0/node1 of run A (c10d trainjob-a, port 29500, healthy) and node2/node3 of run B (c10d trainjob-b, port 29600, started later, node2 60 s late beyond join_timeout=40) in one folder"
}
torch1.13-c10d-logdir-restart() {
  "${CAP[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 3 --nproc-per-node 2 --delays 0,1,2 \
    --log-dir --torchrun-arg=--tee=3 --torchrun-arg=--max_restarts=1 --crash node0:after_init:0 \
    --prefix plain --kill-after 240 \
    --description "c10d, 3 nodes x 2 procs, --log_dir per node, --tee 3, --max_restarts=1, LOGLEVEL=INFO; node0's local rank 0 raises after its first all_reduce in attempt 0; attempt 1 succeeds; console plain tee plus each node's --log_dir tree"
}

# ---- torch 2.6 (Debian trixie in /opt/trixie-root) ----------------------------------------------------------------

CAP26=("${CAP[@]}" --torch 2.6)

torch2.6-static-host-late-fail() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend static --nnodes 4 --nproc-per-node 2 --delays 120,0,1,2 \
    --rdzv-conf timeout=30 --prefix plain --kill-after 240 \
    --description "static, 4 nodes x 2 procs, --rdzv_conf timeout=30, LOGLEVEL=INFO, node_rank 0 (the store host) launched 120 s after node 1 (beyond the clients' 30 s connect limit and its retries); plain tee"
}
torch2.6-static-host-late-survive() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend static --nnodes 4 --nproc-per-node 1 --delays 120,0,1,2 \
    --prefix k8s --kill-after 300 \
    --description "static, 4 nodes x 1 proc, default timeout (900), LOGLEVEL=INFO, node_rank 0 (the store host) launched 120 s after node 1 (within the clients' 900 s connect limit); Kubernetes-style capture"
}
torch2.6-c10d-host-late-fail() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 4 --nproc-per-node 1 --delays 90,0,1,2 \
    --rdzv-conf read_timeout=20,join_timeout=40 --prefix plain --kill-after 240 \
    --description "c10d, endpoint node0, 4 nodes x 1 proc, --rdzv_conf read_timeout=20,join_timeout=40, LOGLEVEL=INFO, node 0 (the c10d store host) launched 90 s after node 1 (beyond read_timeout and the connect retries); plain tee"
}
torch2.6-c10d-host-late-fail-default() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 3 --nproc-per-node 2 --delays 150,0,1 \
    --prefix plain --kill-after 840 \
    --description "c10d, endpoint node0, 3 nodes x 2 procs, default rdzv_conf (read_timeout 60, join_timeout 600), LOGLEVEL=INFO, node 0 (the c10d store host) launched 150 s after node 1 (beyond read_timeout and the connect retries); plain tee"
}
torch2.6-c10d-host-late-survive() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 4 --nproc-per-node 1 --delays 30,0,1,2 \
    --prefix slurm --kill-after 200 \
    --description "c10d, endpoint node0, 4 nodes x 1 proc, default rdzv_conf (read_timeout 60), LOGLEVEL=INFO, node 0 (the c10d store host) launched 30 s after node 1 (within read_timeout); one Slurm file (srun -l)"
}
torch2.6-static-nonhost-late-fail() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend static --nnodes 4 --nproc-per-node 2 --delays 0,1,2,60 \
    --rdzv-conf timeout=30 --prefix k8s --kill-after 200 \
    --description "static, 4 nodes x 2 procs, --rdzv_conf timeout=30, LOGLEVEL=INFO, node_rank 3 (a store client) launched 60 s after node 0 (beyond timeout); Kubernetes-style capture"
}
torch2.6-c10d-nonhost-late-fail() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 4 --nproc-per-node 1 --delays 0,1,2,70 \
    --rdzv-conf join_timeout=40 --env TORCH_LOGS=distributed --prefix plain --kill-after 200 \
    --description "c10d, endpoint node0, 4 nodes x 1 proc, --rdzv_conf join_timeout=40, LOGLEVEL=INFO and TORCH_LOGS=distributed, node 3 (not the store host) launched 70 s after node 0 (beyond join_timeout); plain tee"
}
torch2.6-static-never-starts() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend static --nnodes 4 --nproc-per-node 1 --delays 0,1,2,never \
    --rdzv-conf timeout=30 --prefix plain --kill-after 150 \
    --description "static, 4 nodes x 1 proc, --rdzv_conf timeout=30, LOGLEVEL=INFO, node_rank 3 never starts (no log); plain tee"
}
torch2.6-c10d-never-starts() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 3 --nproc-per-node 2 --delays 0,1,never \
    --rdzv-conf join_timeout=40 --prefix slurm --kill-after 150 \
    --description "c10d, endpoint node0, 3 nodes x 2 procs, --rdzv_conf join_timeout=40, LOGLEVEL=INFO, node 2 never starts (no output in the Slurm file); one Slurm file (srun -l)"
}
torch2.6-static-connect-retry-success() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend static --nnodes 3 --nproc-per-node 1 --delays 40,0,1 \
    --rdzv-conf timeout=30 --prefix plain --kill-after 200 \
    --description "static, 3 nodes x 1 proc, --rdzv_conf timeout=30, LOGLEVEL=INFO, node_rank 0 (the store host) launched 40 s after node 1: the clients' first connect attempt times out, the retry succeeds; plain tee"
}
torch2.6-c10d-elastic-2to4() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 3 --nnodes-arg 2:4 --nproc-per-node 2 --delays 0,1,2 \
    --prefix k8s --kill-after 200 \
    --description "c10d elastic, --nnodes=2:4, 3 nodes x 2 procs started, default rdzv_conf (last_call_timeout 30), LOGLEVEL=INFO; a world of 3 forms after the last call; Kubernetes-style capture"
}
torch2.6-c10d-elastic-late-join() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 4 --nnodes-arg 2:4 --nproc-per-node 1 --delays 0,1,2,50 \
    --rdzv-conf last_call_timeout=10 --steps 15 --step-sleep 4 --prefix plain --kill-after 300 \
    --description "c10d elastic, --nnodes=2:4, 4 nodes x 1 proc, --rdzv_conf last_call_timeout=10, LOGLEVEL=INFO; nodes 0-2 form a world of 3, node 3 launched 50 s after node 0 (after the last call, while training runs) and the agents re-rendezvous into a world of 4; plain tee"
}
torch2.6-c10d-elastic-late-join-noshare() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 4 --nnodes-arg 2:4 --nproc-per-node 1 --delays 0,1,2,50 \
    --rdzv-conf last_call_timeout=10 --env TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 --steps 15 --step-sleep 4 \
    --prefix plain --kill-after 300 \
    --description "as torch2.6-c10d-elastic-late-join, with TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 (2.6's opt-out of sharing the rendezvous TCPStore, which rebuilds the bootstrap store info every round): the late node is admitted and the world of 4 trains; plain tee"
}
torch2.6-static-restart-shared-store() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend static --nnodes 3 --nproc-per-node 2 --delays 0,1,2 \
    --torchrun-arg=--max-restarts=2 --crash node2:after_init:0 --prefix plain --kill-after 240 \
    --description "static, 3 nodes x 2 procs, --max-restarts=2, LOGLEVEL=INFO, 2.6 defaults (workers reuse the agent's TCPStore); node2's local rank 0 raises after its first all_reduce in attempt 0 only (TORCHELASTIC_RESTART_COUNT=0); plain tee"
}
torch2.6-c10d-restart-once-noshare() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 3 --nproc-per-node 2 --delays 0,1,2 \
    --torchrun-arg=--max-restarts=2 --crash node1:after_init:0 --env TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 \
    --prefix plain --kill-after 240 \
    --description "c10d, 3 nodes x 2 procs, --max-restarts=2, LOGLEVEL=INFO, TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 (workers get their own TCPStore each round); node1's local rank 0 raises after its first all_reduce in attempt 0 only (TORCHELASTIC_RESTART_COUNT=0); plain tee"
}
torch2.6-c10d-crash-before-pg-init() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 3 --nproc-per-node 2 --delays 0,1,2 \
    --crash node1:before_init:all --pg-timeout 60 --prefix k8s --kill-after 480 \
    --description "c10d, 3 nodes x 2 procs, LOGLEVEL=INFO, init_process_group timeout 60 s (set in train.py, not printed); node1's local rank 0 raises before init_process_group; the other workers wait in init_process_group; Kubernetes-style capture"
}
torch2.6-mixed-runA() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --out "$SRC/$FUNCNAME" --port 29500 \
    --backend static --nnodes 4 --nproc-per-node 1 --delays 0,1,2,3 --prefix plain --kill-after 200 \
    --description "run A of the mixed pair: static, master_port 29500, 4 nodes x 1 proc, healthy; plain tee"
}
torch2.6-mixed-runB() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --out "$SRC/$FUNCNAME" --port 29700 \
    --backend static --nnodes 4 --nproc-per-node 1 --delays 0,1,2,60 --rdzv-conf timeout=30 \
    --prefix plain --kill-after 200 \
    --description "run B of the mixed pair: static, master_port 29700, --rdzv_conf timeout=30, 4 nodes x 1 proc, node_rank 3 launched 60 s late (fails); plain tee"
}
torch2.6-mixed-runs() {
  /usr/bin/python3 "$HERE/mix.py" --scenario "$FUNCNAME" \
    --run "A=$SRC/torch2.6-mixed-runA:node0.log,node1.log" --run "B=$SRC/torch2.6-mixed-runB:node2.log,node3.log" \
    --description "node0/node1 of run A (static, master_port 29500, healthy) and node2/node3 of run B (static, master_port 29700, started later, node_rank 3 60 s late beyond timeout=30) in one folder"
}
torch2.6-c10d-logdir-restart() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 3 --nproc-per-node 2 --delays 0,1,2 \
    --log-dir --torchrun-arg=--tee=3 --torchrun-arg=--max-restarts=1 --crash node1:after_init:0 \
    --prefix plain --kill-after 240 \
    --description "c10d, 3 nodes x 2 procs, --log-dir per node, --tee 3, --max-restarts=1, LOGLEVEL=INFO, 2.6 defaults (workers reuse the agent's TCPStore); node1's local rank 0 raises after its first all_reduce in attempt 0 only; console plain tee plus each node's --log-dir tree"
}
torch2.6-c10d-logdir-restart-noshare() {
  "${CAP26[@]}" --scenario "$FUNCNAME" --backend c10d --nnodes 3 --nproc-per-node 2 --delays 0,1,2 \
    --log-dir --torchrun-arg=--tee=3 --torchrun-arg=--max-restarts=1 --crash node1:after_init:0 \
    --env TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 --prefix k8s --kill-after 240 \
    --description "as torch2.6-c10d-logdir-restart, with TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 (workers get their own TCPStore each round); Kubernetes-style console capture plus each node's --log-dir tree"
}

case "${1:-}" in
  list) declare -F | awk '{print $3}' | grep '^torch' ;;
  run)
    shift
    for s in "$@"; do "$s"; done
    ;;
  *) echo "usage: $0 list | run NAME..." >&2; exit 2 ;;
esac
