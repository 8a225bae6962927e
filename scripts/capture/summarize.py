#!/usr/bin/python3
"""Print what a person needs to write a fixture's expect.json: per node, the measured launch/exit (truth.json)
next to what its log shows (first/last timestamp where the capture has one, error-like lines).

    scripts/capture/summarize.py test/fixtures/captured/<folder>
"""

import datetime
import json
import os
import re
import sys

GLOG26 = re.compile(r"^\[?[IWEF](\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d+)")
GLOG113 = re.compile(r"^[IWEF](\d{4})(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d+)")
K8S = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d+)Z ")
INTERESTING = re.compile(
    r"(Error\b|Exception\b|timed out|Timeout|Timed out|retrying|FAILED|attempts left|restart|Detected \d+ new nodes|"
    r"Rendezvous complete|group_world_size|joined round|closed|SIGTERM|exitcode|Closing|keep-alive|heartbeat|"
    r"Done waiting|Socket Timeout|injected)"
)


def stamp(line, year):
    m = K8S.match(line)
    if m:
        t = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc)
        return t.timestamp() + float("0." + m.group(2)), line[m.end():]
    m = GLOG113.match(line)
    if m:
        y, mo, d, h, mi, s, frac = m.groups()
        t = datetime.datetime(int(y), int(mo), int(d), int(h), int(mi), int(s), tzinfo=datetime.timezone.utc)
        return t.timestamp() + float("0." + frac), line
    m = GLOG26.match(line)
    if m:
        mo, d, h, mi, s, frac = m.groups()
        t = datetime.datetime(year, int(mo), int(d), int(h), int(mi), int(s), tzinfo=datetime.timezone.utc)
        return t.timestamp() + float("0." + frac), line
    return None, line


def main(folder):
    with open(os.path.join(folder, "truth.json")) as f:
        truth = json.load(f)
    t0 = truth.get("first_launch_epoch_s")
    year = datetime.datetime.fromtimestamp(t0 or 0, datetime.timezone.utc).year
    print(f"{truth['scenario']}: {truth.get('description')}")
    print(f"outcome {truth.get('outcome')}  measured skew {truth.get('max_measured_launch_skew_s')}")
    firsts = {}
    for n in truth["nodes"]:
        rel = lambda x: None if x is None or t0 is None else round(x - t0, 1)  # noqa: E731
        print(f"\n--- {n['hostname']} ({n['log_file']}) launch +{rel(n['launch_epoch_s'])} exit rc={n['torchrun_exit_code']} "
              f"at +{rel(n['torchrun_end_epoch_s'])} killed={bool(n['killed_by_harness'])} run={n.get('run', '-')}")
        path = os.path.join(folder, n["log_file"])
        if not os.path.exists(path) or not n["started"]:
            print("    (no log)")
            continue
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
        label = f"{n['sim_node_index']}: " if truth.get("capture_style") == "slurm_srun_l" else None
        if label:
            lines = [ln[len(label):] for ln in lines if ln.startswith(label)]
        first = last = None
        for ln in lines:
            ts, body = stamp(ln, year)
            if ts is not None:
                first = first if first is not None else ts
                last = ts
            if INTERESTING.search(body) and not body.startswith("frame #"):
                print(f"    {'+%.1f' % (ts - t0) if ts and t0 else '     '}  {body[:220]}")
        if first is not None:
            firsts[n["hostname"]] = first
            print(f"    first stamped line +{first - t0:.1f}, last +{last - t0:.1f}")
    if len(firsts) > 1:
        print(f"\nfirst-stamped-line skew {max(firsts.values()) - min(firsts.values()):.1f} s over {sorted(firsts)}")


if __name__ == "__main__":
    main(sys.argv[1])
