#!/bin/sh
# Digests of every pod of a PyTorchJob / JobSet / Job, made on this machine from `kubectl logs --timestamps`
# (streamed through skewscope, never stored) and, if asked, each pod's --log-dir tree (out as a tar, one pod at a
# time). Only the digests stay.
#
#   k8s-digest.sh SELECTOR [OUT_DIR] [LOGDIR_IN_POD]
#     SELECTOR       e.g. training.kubeflow.org/job-name=trainjob (PyTorchJob) or jobset.sigs.k8s.io/jobset-name=js
#     OUT_DIR        default digests/
#     LOGDIR_IN_POD  also digest this folder inside each pod (torchrun --log-dir); needs tar in the image
#   SKEWSCOPE=/path/to/skewscope.mjs (default: skewscope on PATH)  KUBECTL=kubectl  NAMESPACE=…
set -eu
sel="$1"
out="${2:-digests}"
logdir="${3:-}"
kubectl="${KUBECTL:-kubectl}"
ns="${NAMESPACE:+--namespace=$NAMESPACE}"
if [ -n "${SKEWSCOPE:-}" ]; then skewscope() { node "$SKEWSCOPE" "$@"; }; fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
for pod in $($kubectl get pods $ns -l "$sel" -o jsonpath='{.items[*].metadata.name}'); do
  # The pod's --log-dir tree comes out as a tar, kept only while its digest is made.
  tmp="$(mktemp -d)"
  extra=""
  if [ -n "$logdir" ] && $kubectl exec $ns "$pod" -- tar czf - -C "$logdir" . >"$tmp/logdir.tar.gz"; then
    extra="logdir.tar.gz"
  fi
  # One digest per pod: its console (kubectl logs --timestamps, on standard input) and its --log-dir tree.
  (cd "$tmp" && $kubectl logs $ns --timestamps "$pod" |
    skewscope digest - $extra --node "$pod" --out "$out/$pod.json") || true
  rm -rf "$tmp"
done
echo "k8s-digest: $(ls "$out" | wc -l) digests in $out/ — skewscope analyze $out/" >&2
