#!/bin/sh
# Slurm Epilog (slurm.conf: Epilog=/path/to/slurm-epilog.sh): when a job ends, each of its nodes digests its own
# log of it, so a few KB per node wait on the shared file system instead of the logs themselves.
#
# Set these for your site (the Epilog gets no variables from the job):
SKEWSCOPE="${SKEWSCOPE:-/shared/tools/skewscope.mjs}"   # the single-file CLI (dist/cli/skewscope.mjs)
NODE="${SKEWSCOPE_NODE:-node}"                         # Node.js >= 20
LOGS="${SKEWSCOPE_LOGS:-/shared/logs/%j.%N.log}"       # where a job's node wrote its log (%j job id, %N node)
DIGESTS="${SKEWSCOPE_DIGESTS:-/shared/digests/%j/%N.json}"
#
# It never fails (a failing Epilog drains the node): skewscope exits 1 for a failed job, 2 for unreadable logs.
log="$(printf '%s' "$LOGS" | sed "s/%j/${SLURM_JOB_ID:-}/g; s/%N/${SLURMD_NODENAME:-}/g")"
[ -n "${SLURM_JOB_ID:-}" ] && [ -e "$log" ] || exit 0   # a job that wrote no log here
"$NODE" "$SKEWSCOPE" digest "$log" --out "$DIGESTS" >/dev/null 2>&1 || true
exit 0
