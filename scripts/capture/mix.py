#!/usr/bin/python3
"""Put files of two (or more) real captured runs into one fixture folder: "logs of two runs dropped together".

Each --run is LABEL=FOLDER:FILE[,FILE...]: a folder written by capture.py (with its truth.json) and the log files
to take from it. The files are copied byte for byte (names must not collide). truth.json keeps the shape of a
capture's truth where it can: `nodes` lists the nodes whose files were taken, each with the `run` it belongs to,
`max_measured_launch_skew_s` is measured over those nodes, and `runs` carries every source run's full truth (so the
skew, outcome and failure of each run as a whole stay known).
"""

import argparse
import json
import os
import shlex
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenario", required=True)
    p.add_argument("--description", default="")
    p.add_argument("--out", help="default: test/fixtures/captured/<scenario> in the repo")
    p.add_argument("--force", action="store_true")
    p.add_argument("--run", action="append", required=True, help="LABEL=FOLDER:FILE[,FILE...]")
    a = p.parse_args()
    out = os.path.abspath(a.out or os.path.join(HERE, "..", "..", "test", "fixtures", "captured", a.scenario))
    if os.path.isdir(out) and os.listdir(out) and not a.force:
        sys.exit(f"{out} is not empty (use --force)")
    os.makedirs(out, exist_ok=True)

    runs, nodes, taken = [], [], set()
    for spec in a.run:
        label, _, rest = spec.partition("=")
        folder, _, files = rest.rpartition(":")
        files = [f for f in files.split(",") if f]
        with open(os.path.join(folder, "truth.json")) as f:
            truth = json.load(f)
        by_file = {n["log_file"]: n for n in truth["nodes"]}
        for name in files:
            if name in taken:
                sys.exit(f"{name} is taken from two runs; file names must differ")
            if name not in by_file:
                sys.exit(f"{name} is not a log file of {folder}")
            taken.add(name)
            shutil.copyfile(os.path.join(folder, name), os.path.join(out, name))
            nodes.append(dict(by_file[name], run=label))
        runs.append({"label": label, "files": files, "source_scenario": truth["scenario"], "truth": truth})

    launches = [n["launch_epoch_s"] for n in nodes if n.get("launch_epoch_s")]
    first = runs[0]["truth"]
    mixed = {
        "scenario": a.scenario,
        "description": a.description,
        "mixed_runs": True,
        "pytorch_version": first["pytorch_version"],
        "pytorch_version_detail": first["pytorch_version_detail"],
        "python_version": first["python_version"],
        "capture_style": first["capture_style"],
        "backend": sorted({r["truth"]["backend"] for r in runs}),
        "files_by_run": {r["label"]: r["files"] for r in runs},
        "capture_tool": "scripts/capture/mix.py " + shlex.join(sys.argv[1:]),
        "first_launch_epoch_s": min(launches) if launches else None,
        "max_measured_launch_skew_s": (max(launches) - min(launches)) if launches else None,
        "max_measured_launch_skew_s_by_run": {r["label"]: r["truth"]["max_measured_launch_skew_s"] for r in runs},
        "outcome_by_run": {r["label"]: r["truth"]["outcome"] for r in runs},
        "nodes": nodes,
        "per_node_diagnosis": {},
        "notes": "",
        "runs": runs,
    }
    with open(os.path.join(out, "truth.json"), "w") as f:
        json.dump(mixed, f, indent=1)
        f.write("\n")
    print(f"wrote {out}: {sorted(taken)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
