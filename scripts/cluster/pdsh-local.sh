#!/usr/bin/env bash
# The pdsh recipes of docs/cluster.md, run for real on this machine: pdsh's `exec` module stands in for ssh (it
# runs the command here once per "host", %h replaced by the host's name). Each "host" digests its own copy of a
# real corpus log, then the digests are analysed: written one per node, and gathered through pdsh's output.
#
#   scripts/cluster/pdsh-local.sh [SCENARIO]   (default test/fixtures/corpus/torch2.6-s2_static_timeout30_node3_late)
# Needs pdsh (apt-get install -y pdsh) and the CLI bundle (npm run build:cli).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SCENARIO="${1:-$ROOT/test/fixtures/corpus/torch2.6-s2_static_timeout30_node3_late}"
command -v pdsh >/dev/null || { echo "pdsh-local: pdsh is missing (apt-get install -y pdsh)" >&2; exit 2; }
[ -f "$ROOT/dist/cli/skewscope.mjs" ] || { echo "pdsh-local: npm run build:cli first" >&2; exit 2; }
WORK="$(mktemp -d /tmp/skewscope-pdsh.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
cp "$ROOT/dist/cli/skewscope.mjs" .
mkdir logs
hosts=()
for f in "$SCENARIO"/*.log; do
  h="$(basename "$f" .log)"
  cp "$f" "logs/$h.log"
  hosts+=("$h")
done
list="$(IFS=,; echo "${hosts[*]}")"
export PDSH_RCMD_TYPE=exec

echo "== pdsh -w $list 'node skewscope.mjs digest logs/%h.log --node %h --out digests/%h.json'"
pdsh -w "$list" node skewscope.mjs digest logs/%h.log --node %h --out digests/%h.json 2>&1 | sort || true
node skewscope.mjs analyze digests | head -3 || true

echo "== pdsh -N -w $list 'node skewscope.mjs digest logs/%h.log --node %h' > digests.jsonl"
pdsh -N -w "$list" node skewscope.mjs digest logs/%h.log --node %h >digests.jsonl 2>/dev/null || true
echo "digests.jsonl: $(wc -l <digests.jsonl) digests, $(wc -c <digests.jsonl) bytes"
node skewscope.mjs analyze digests.jsonl | head -3 || true
