"""Tiny torchrun entrypoint for the capture runs: gloo on CPU, a couple of all_reduce steps.

Prints a few lines per worker (they land in the node's captured log like any
training script's output). If SKEWSCOPE_TIMINGS is set, also appends one JSON
line per worker with measured times to that file: a side channel that never
appears in the log.
"""

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
    print(f"[rank{rank}] worker started on {host} (local_rank={local_rank}); calling init_process_group('gloo')", flush=True)
    t_init = time.time()
    _record({"rank": rank, "hostname": host, "pid": os.getpid(), "phase": "init_started",
             "worker_start_epoch_s": t_start, "init_start_epoch_s": t_init})
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
        time.sleep(0.5)
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


def _record(rec):
    out = os.environ.get("SKEWSCOPE_TIMINGS")
    if out:
        with open(out, "a") as f:
            f.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    sys.exit(main())
