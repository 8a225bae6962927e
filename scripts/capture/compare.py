#!/usr/bin/python3
"""Compare each captured fixture's expect.json with what today's CLI says (dist/cli/skewscope.mjs, `npm run
build:cli` first). Prints one block per fixture with the fields that disagree; it judges nothing else.

    scripts/capture/compare.py [test/fixtures/captured/<folder> ...]   (default: every folder with an expect.json)

CLI node ids are mapped to the hostnames of truth.json through the files they were read from (and, for one Slurm
file, the `N: ` label = node index).
"""

import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
CLI = os.path.join(ROOT, "dist", "cli", "skewscope.mjs")


def host_map(truth, cli_nodes):
    by_file = {}
    for n in truth["nodes"]:
        by_file.setdefault(n["log_file"], []).append(n)
    out = {}
    for cn in cli_nodes:
        files = [os.path.basename(f) for f in cn.get("files", [])]
        cands = [n for f in files for n in by_file.get(f, [])]
        if len(cands) == 1:
            out[cn["id"]] = cands[0]["hostname"]
        elif cands:
            m = re.search(r"(\d+)$", cn["id"])
            pick = [n for n in cands if m and n["sim_node_index"] == int(m.group(1))]
            out[cn["id"]] = pick[0]["hostname"] if pick else cn["id"]
        else:
            out[cn["id"]] = cn["id"]
    return out


def compare(folder):
    with open(os.path.join(folder, "expect.json")) as f:
        exp = json.load(f)
    with open(os.path.join(folder, "truth.json")) as f:
        truth = json.load(f)
    run = subprocess.run(["node", CLI, "analyze", folder, "--json"], capture_output=True, text=True)
    try:
        got = json.loads(run.stdout)
    except ValueError:
        return [f"CLI gave no JSON (exit {run.returncode}): {run.stderr.strip()[:200]}"]
    hm = host_map(truth, got.get("nodes", []))
    names = lambda xs: sorted(hm.get(x, x) for x in (xs or []))  # noqa: E731
    fail = got.get("failure") or {}
    diffs = []

    def check(what, want, have):
        if want != have:
            diffs.append(f"{what}: expect {want!r}, CLI {have!r}")

    check("verdict", exp["verdict"], got.get("verdict"))
    if exp["verdict"] != "healthy":
        stages = exp.get("acceptableStages") or [exp.get("stage")]
        if fail.get("stage") not in stages:
            diffs.append(f"stage: expect {exp.get('stage')!r}, CLI {fail.get('stage')!r}")
        check("culprit (CLI lateNodes)", sorted(exp.get("culprit", [])), names(fail.get("lateNodes")))
        check("reportedBy (every node whose log shows an error)", sorted(exp.get("reportedBy", [])), names(fail.get("reportedBy")))
    missing = [m.get("id", m) if isinstance(m, dict) else m for m in got.get("missingNodes", [])]
    if sorted(exp.get("missing", [])) and not missing:
        diffs.append(f"missing: expect {exp.get('missing')}, CLI none")
    lim = exp.get("limitFired")
    if lim:
        have = fail.get("timeoutSeconds")
        if have != lim["seconds"]:
            diffs.append(f"limit: expect {lim['name']} {lim['seconds']} s ({lim['source']}), CLI {have!r}")
    # What the logs can show is the skew of the nodes' first stamped lines (logFirstLineSkewSeconds, when every
    # present node's first line has a time); without that, a correct answer gives no skew or one near the measured.
    skew = got.get("skewSeconds")
    shown = exp.get("logFirstLineSkewSeconds")
    if shown is not None:
        if skew is None or abs(skew - shown) > 2:
            diffs.append(f"skew: expect {shown} (first log lines; measured launch {exp['skewSeconds']}), CLI {skew!r}")
    elif skew is not None and exp.get("skewSeconds") is not None and abs(skew - exp["skewSeconds"]) > 2:
        diffs.append(f"skew: CLI {skew!r} from partial timestamps, measured launch {exp['skewSeconds']}")
    late_findings = [f for f in got.get("findings", []) if f.get("code") in ("LATE_NODE", "HOST_NODE_LATE")]
    if exp["verdict"] == "healthy" and exp.get("lateNodes") and exp.get("lateVisibleInLogs", True):
        seen = set(names([n for f in late_findings for n in f.get("nodes", [])]))
        if not set(exp["lateNodes"]) <= seen:
            diffs.append(f"late finding: expect {exp['lateNodes']} named, CLI findings name {sorted(seen)}")
    codes = [f.get("code") for f in got.get("findings", [])]
    return diffs, codes


def main(argv):
    folders = argv or sorted(os.path.dirname(p) for p in glob.glob(os.path.join(ROOT, "test/fixtures/captured/*/expect.json")))
    for folder in folders:
        res = compare(folder)
        name = os.path.basename(folder.rstrip("/"))
        if isinstance(res, list):
            print(f"{name}: {res[0]}")
            continue
        diffs, codes = res
        print(f"{name}: {'agrees' if not diffs else 'DISAGREES'}   [CLI findings: {', '.join(codes)}]")
        for d in diffs:
            print(f"    {d}")


if __name__ == "__main__":
    main(sys.argv[1:])
