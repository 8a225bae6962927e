"""Tiny torchrun entrypoint for the capture runs: gloo on CPU, a couple of all_reduce steps.

Prints a few lines per worker (they land in the node's captured log like any
training script's output). If SKEWSCOPE_TIMINGS is set, also appends one JSON
line per worker with measured times to that file: a side channel that never
appears in the log.

Set by capture.py (all optional):
  SKEWSCOPE_STEPS, SKEWSCOPE_STEP_SLEEP  number of all_reduce steps, seconds slept after each
  SKEWSCOPE_PG_TIMEOUT                   init_process_group(timeout=timedelta(seconds=N))
  SKEWSCOPE_CRASH=HOSTS:WHEN[:ATTEMPTS[:LOCAL_RANKS]]
      a real failure on purpose: on those hosts ('+'-separated hostnames or 'all'), in those agent attempts
      (TORCHELASTIC_RESTART_COUNT values, '+'-separated or 'all'; default 0) and local ranks (default 0), raise
      RuntimeError before init_process_group (WHEN=before_init) or after the first all_reduce (WHEN=after_init).
"""

import datetime
import json
import os
import socket
import sys
import time

import torch
import torch.distributed as dist


def main():
    t_start = time.time()
    rank = int(os.environ["RANK"])
    local_rank = int(os.environ["LOCAL_RANK"])
    world_size = int(os.environ["WORLD_SIZE"])
    host = socket.gethostname()
    steps = int(os.environ.get("SKEWSCOPE_STEPS", "2"))
    step_sleep = float(os.environ.get("SKEWSCOPE_STEP_SLEEP", "0.5"))
    restart_count = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
    crash_when = _crash_when(host, local_rank, restart_count)
    print(f"[rank{rank}] worker started on {host} (local_rank={local_rank}); calling init_process_group('gloo')", flush=True)
    t_init = time.time()
    _record({"rank": rank, "hostname": host, "pid": os.getpid(), "phase": "init_started",
             "restart_count": restart_count, "world_size": world_size,
             "group_rank": int(os.environ.get("GROUP_RANK", "-1")),
             "worker_start_epoch_s": t_start, "init_start_epoch_s": t_init})
    if crash_when == "before_init":
        _crash(rank, host, restart_count, "before init_process_group")
    pg_timeout = os.environ.get("SKEWSCOPE_PG_TIMEOUT")
    if pg_timeout:
        dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=float(pg_timeout)))
    else:
        dist.init_process_group("gloo")
    t_init_end = time.time()
    print(
        f"[rank{rank}] init_process_group done after {t_init_end - t_init:.2f}s: "
        f"world_size={dist.get_world_size()} rank={dist.get_rank()}",
        flush=True,
    )
    expected = world_size * (world_size + 1) / 2
    value = None
    for step in range(1, steps + 1):
        t = torch.tensor([float(rank + 1)])
        dist.all_reduce(t)
        value = float(t.item())
        ok = "ok" if value == expected else "MISMATCH"
        print(f"[rank{rank}] step {step}: all_reduce {ok}: sum={value:g} (expected {expected:g})", flush=True)
        if crash_when == "after_init" and step == 1:
            _crash(rank, host, restart_count, "after the first all_reduce")
        time.sleep(step_sleep)
    t_ar_end = time.time()
    dist.barrier()
    dist.destroy_process_group()
    print(f"[rank{rank}] done, exiting", flush=True)
    _record(
        {
            "rank": rank,
            "phase": "finished",
            "local_rank": local_rank,
            "group_rank": int(os.environ.get("GROUP_RANK", "-1")),
            "world_size": world_size,
            "restart_count": restart_count,
            "hostname": host,
            "pid": os.getpid(),
            "master_addr": os.environ.get("MASTER_ADDR"),
            "master_port": os.environ.get("MASTER_PORT"),
            "worker_start_epoch_s": t_start,
            "init_start_epoch_s": t_init,
            "init_end_epoch_s": t_init_end,
            "allreduce_end_epoch_s": t_ar_end,
            "allreduce_value": value,
            "end_epoch_s": time.time(),
        }
    )
    return 0


def _crash_when(host, local_rank, restart_count):
    spec = os.environ.get("SKEWSCOPE_CRASH")
    if not spec:
        return None
    parts = spec.split(":")
    hosts, when = parts[0], parts[1]
    attempts = parts[2] if len(parts) > 2 else "0"
    local_ranks = parts[3] if len(parts) > 3 else "0"

    def hit(sel, value):
        return sel == "all" or str(value) in sel.split("+")

    if hit(hosts, host) and hit(attempts, restart_count) and hit(local_ranks, local_rank):
        return when
    return None


def _crash(rank, host, restart_count, where):
    _record({"rank": rank, "hostname": host, "pid": os.getpid(), "phase": "injected_crash",
             "restart_count": restart_count, "where": where, "epoch_s": time.time()})
    raise RuntimeError(f"skewscope capture: injected failure {where}")


def _record(rec):
    out = os.environ.get("SKEWSCOPE_TIMINGS")
    if out:
        with open(out, "a") as f:
            f.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    sys.exit(main())
