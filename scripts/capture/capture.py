#!/usr/bin/python3
"""Capture one simulated multi-node torchrun scenario with a real PyTorch.

Every "node" is one `torchrun` process on this machine, started after its
injected delay. By default each node runs in its own UTS + mount namespace
(`unshare --uts --mount`, needs root): it gets its own hostname (node0, node1,
...) and a private /etc/hosts that maps nodeI to 127.0.1.(I+1), so endpoints
read `node0:<port>` as on a real cluster while all traffic stays on loopback.
With --no-namespaces every node keeps this machine's hostname and the endpoint
is 127.0.0.1 (note: then every node thinks it may host a c10d store).

Output (in --out): one log per node (node<i>.log; Kubeflow-like names with
--kubeflow-names; one Slurm file for --prefix slurm) and truth.json, in the
shape of the corpus' truth files. Nothing in a log line is edited: the capture
only adds the chosen prefix (k8s timestamp or srun -l label).

See README.md beside this file.
"""

import argparse
import datetime
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
SHIM_DIR = os.path.join(HERE, "pyshim")
SHIM_26_DIR = os.path.join(HERE, "pyshim-torch26")
TRAIN_PY = os.path.join(HERE, "train.py")
MARKER_VAR = "SKEWSCOPE_CAPTURE_RUN"

ERROR_LIKE = re.compile(
    r"(Error\b|Exception\b|Traceback \(most recent|timed out|Timeout|death signal|^E\d{8} |"
    r"Broken pipe|Connection reset|failed to|has failed)"
)


def log(msg):
    print(f"[capture {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def rfc3339_nano(ns):
    secs, frac = divmod(ns, 1_000_000_000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(secs)) + f".{frac:09d}Z"


def free_port():
    s = socket.socket()
    s.bind(("0.0.0.0", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def port_in_use(port):
    s = socket.socket()
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("0.0.0.0", port))
        return False
    except OSError:
        return True
    finally:
        s.close()


def torch_versions(a, pycmd):
    detail = {}
    dpkg = ["dpkg-query", "-W", "-f=${Version}", "python3-torch"]
    if a.chroot:
        dpkg = ["chroot", a.chroot] + dpkg
    try:
        deb = subprocess.run(dpkg, capture_output=True, text=True, timeout=30).stdout.strip()
    except Exception:
        deb = ""
    try:
        out = subprocess.run(
            pycmd,
            capture_output=True,
            text=True,
            timeout=120,
            env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},
        ).stdout.split()
        detail["torch_reported"], detail["python"] = out[0], out[1]
    except Exception:
        detail["torch_reported"], detail["python"] = None, None
    upstream = deb.split("+")[0].split("-")[0] if deb else detail["torch_reported"]
    detail["pytorch_version"] = upstream
    distro = "Debian 13 (trixie, in a chroot)" if a.chroot else "Debian"
    detail["pytorch_version_detail"] = (
        f"{distro} python3-torch {deb} (CPU); torch.__version__ reports '{detail['torch_reported']}'"
        if deb
        else f"torch.__version__ reports '{detail['torch_reported']}'"
    )
    return detail


class Node:
    def __init__(self, index, delay):
        self.index = index
        self.delay = delay
        self.hostname = None
        self.log_file = None
        self.cmd = None
        self.proc = None
        self.launch = None
        self.end = None
        self.exit_code = None
        self.killed = None
        self.reader = None
        self.waiter = None
        self.log_dir = None


class Sink:
    """Where captured bytes go: one file per node, or one shared file (slurm)."""

    def __init__(self, path, lock=None):
        self.f = open(path, "ab", buffering=0)
        self.lock = lock or threading.Lock()

    def write(self, data):
        with self.lock:
            self.f.write(data)


def reader_thread(node, stream, sink, style):
    fd = stream.fileno()
    if style == "plain":
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            sink.write(chunk)
        return
    label = f"{node.index}: ".encode()
    while True:
        line = stream.readline()
        if not line:
            break
        if not line.endswith(b"\n"):
            line += b"\n"
        if style == "k8s":
            sink.write(rfc3339_nano(time.time_ns()).encode() + b" " + line)
        else:
            sink.write(label + line)


def waiter_thread(node):
    rc = node.proc.wait()
    node.end = time.time()
    node.exit_code = rc
    log(f"node{node.index} torchrun exited rc={rc} at +{node.end - node.launch:.1f}s after its launch")


def marked_pids(run_id):
    """Every live process whose environment carries this run's marker."""
    want = f"{MARKER_VAR}={run_id}".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if want in env:
            found.append(int(name))
    return found


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenario", required=True, help="scenario name; also the default output folder name")
    p.add_argument("--description", default="")
    p.add_argument("--out", help="output folder (default: test/fixtures/captured/<scenario> in the repo)")
    p.add_argument("--force", action="store_true", help="overwrite a non-empty output folder")
    p.add_argument("--backend", choices=["static", "c10d"], default="static")
    p.add_argument("--nnodes", type=int, default=2)
    p.add_argument("--nproc-per-node", type=int, default=1)
    p.add_argument("--delays", default="", help="comma-separated start delay in seconds per node index, e.g. 0,1,330")
    p.add_argument("--rdzv-conf", default=None, help="value for torchrun --rdzv_conf (omitted when not given)")
    p.add_argument("--rdzv-id", default=None, help="c10d run id (default <scenario>-job)")
    p.add_argument("--endpoint-node", type=int, default=0, help="c10d: index of the node named in --rdzv_endpoint")
    p.add_argument("--port", type=int, default=0, help="store port (default: a free one)")
    p.add_argument("--loglevel", default="INFO", help="LOGLEVEL for torchrun; 'none' leaves it unset")
    p.add_argument("--env", action="append", default=[], help="extra KEY=VALUE for every node (repeatable)")
    p.add_argument("--torchrun-arg", action="append", default=[], help="extra torchrun argument (repeatable)")
    p.add_argument("--steps", type=int, default=2, help="all_reduce steps in train.py")
    p.add_argument("--prefix", choices=["plain", "k8s", "slurm"], default="plain", help="capture style")
    p.add_argument("--kubeflow-names", action="store_true", help="name files trainjob-master-0.log, trainjob-worker-<n>.log")
    p.add_argument("--slurm-file", default="slurm.out", help="file name for --prefix slurm")
    p.add_argument("--kill-after", type=float, default=900, help="seconds after harness start to SIGTERM survivors")
    p.add_argument("--grace", type=float, default=30, help="seconds between SIGTERM and SIGKILL")
    p.add_argument("--no-namespaces", action="store_true", help="no own hostname per node; endpoint 127.0.0.1")
    p.add_argument("--no-netns", action="store_true",
                   help="keep the nodes in this machine's network namespace (default: one private, loopback-only "
                        "network namespace for the whole run)")
    p.add_argument("--torch", choices=["1.13", "2.6"], default="1.13",
                   help="1.13: this machine's Debian bookworm python3-torch; 2.6: Debian trixie's, in --chroot")
    p.add_argument("--chroot", default=None, help="trixie root for --torch 2.6 (default /opt/trixie-root)")
    p.add_argument("--torchrun", default="/usr/bin/torchrun")
    p.add_argument("--python", default="/usr/bin/python3")
    p.add_argument("--no-shim", action="store_true", help="run without the runtime fix of the chosen torch")
    p.add_argument("--workdir", default=None, help="working folder for the run (default /tmp/skewscope-capture/<scenario>)")
    p.add_argument("--nnodes-arg", default=None, help="value of torchrun --nnodes when it differs from --nnodes, e.g. 2:4")
    p.add_argument("--log-dir", action="store_true",
                   help="give every node torchrun --log_dir <workdir>/node<i>_logdir and copy the tree to the output")
    p.add_argument("--crash", default=None,
                   help="train.py raises on purpose: HOSTS:WHEN[:ATTEMPTS[:LOCAL_RANKS]], e.g. node1:before_init:0 "
                        "(WHEN before_init|after_init; ATTEMPTS restart counts, '+'-separated, or 'all'; default 0; "
                        "LOCAL_RANKS default 0)")
    p.add_argument("--step-sleep", type=float, default=0.5, help="seconds train.py sleeps after each all_reduce step")
    p.add_argument("--pg-timeout", type=float, default=None,
                   help="train.py passes timeout=timedelta(seconds=N) to init_process_group (default: torch's)")
    a = p.parse_args(argv)
    delays = []
    for x in (a.delays.split(",") if a.delays else []):
        x = x.strip()
        if not x:
            continue
        delays.append(None if x in ("never", "-") else float(x))
    if len(delays) > a.nnodes:
        p.error("more delays than nodes")
    a.delay_list = delays + [0.0] * (a.nnodes - len(delays))
    if a.torch == "2.6":
        a.chroot = a.chroot or "/opt/trixie-root"
    elif a.chroot:
        p.error("--chroot is for --torch 2.6")
    if a.crash and len(a.crash.split(":")) < 2:
        p.error("--crash needs HOSTS:WHEN")
    return a


def repo_root():
    return os.path.abspath(os.path.join(HERE, "..", ".."))


def in_root(a, argv):
    """argv run inside the trixie root (2.6) with /proc, /sys, /dev, or as is (1.13)."""
    if not a.chroot:
        return argv
    script = (
        'R="$1"; shift; mount --rbind /proc "$R/proc" && mount --rbind /sys "$R/sys" && '
        'mount --rbind /dev "$R/dev" && exec chroot "$R" "$@"'
    )
    return ["unshare", "--mount", "sh", "-c", script, "sh", a.chroot] + argv


def check_root(a):
    """What --torch 2.6 needs; a clear message instead of a failed run."""
    if not a.chroot:
        return
    for need in ("usr/bin/torchrun", "usr/bin/python3", "etc/hosts", "proc", "sys", "dev", "tmp"):
        if not os.path.exists(os.path.join(a.chroot, need)):
            sys.exit(f"{a.chroot}/{need} is missing: set the trixie root up as scripts/capture/README.md says")


def start_netns(run_id):
    """One private network namespace for the whole run: only a loopback device, brought up.

    Every node enters it (nsenter --net), so the nodes reach each other on 127.x and nothing else exists.
    The holder process carries the run's marker, so the end-of-run sweep ends it too.
    """
    holder = subprocess.Popen(
        ["unshare", "--net", "sh", "-c", "ip link set lo up && exec sleep 86400"],
        env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", MARKER_VAR: run_id},
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    ns = f"/proc/{holder.pid}/ns/net"
    for _ in range(100):
        time.sleep(0.05)
        try:
            if os.readlink(ns) == os.readlink("/proc/self/ns/net"):
                continue  # unshare has not switched yet
        except OSError:
            continue
        up = subprocess.run(["nsenter", f"--net={ns}", "ip", "-o", "link", "show", "lo"], capture_output=True, text=True)
        if "UP" in up.stdout.split(">")[0]:
            links = subprocess.run(["nsenter", f"--net={ns}", "ip", "-o", "link"], capture_output=True, text=True)
            if len([ln for ln in links.stdout.splitlines() if ln.strip()]) != 1:
                holder.kill()
                sys.exit("the run's network namespace has more than a loopback device")
            return holder, ns
    holder.kill()
    sys.exit("could not set up the run's loopback-only network namespace (unshare --net, ip link set lo up)")


def node_wrapper(a, hosts_file, hostname, workdir):
    """The namespace/chroot prefix of one node's command (the node's own torchrun command follows it)."""
    if not a.chroot:
        return [
            "unshare", "--uts", "--mount", "sh", "-c",
            'mount --bind "$1" /etc/hosts && hostname "$2" && shift 2 && exec "$@"',
            "sh", hosts_file, hostname,
        ]
    # 2.6: the trixie userland with this machine's /proc, /sys, /dev, a private /tmp (a real node's own), the
    # run's working folder at the same path, the node's /etc/hosts; then chroot and cd to the working folder.
    script = (
        'R="$1"; H="$2"; N="$3"; W="$4"; shift 4; '
        'mount --rbind /proc "$R/proc" && mount --rbind /sys "$R/sys" && mount --rbind /dev "$R/dev" && '
        'mount -t tmpfs -o mode=1777 tmpfs "$R/tmp" && mkdir -p "$R$W" && mount --bind "$W" "$R$W" && '
        'mount --bind "$H" "$R/etc/hosts" && hostname "$N" && '
        'exec chroot "$R" /bin/sh -c \'cd "$0" && exec "$@"\' "$W" "$@"'
    )
    return ["unshare", "--uts", "--mount", "sh", "-c", script, "sh", a.chroot, hosts_file, hostname, workdir]


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    if not a.no_namespaces and os.geteuid() != 0:
        sys.exit("own hostnames need root (unshare --uts --mount); run as root or pass --no-namespaces")
    if a.chroot and (a.no_namespaces or os.geteuid() != 0):
        sys.exit("--torch 2.6 runs every node in the trixie chroot: needs root and namespaces")
    check_root(a)
    out = os.path.abspath(a.out or os.path.join(repo_root(), "test", "fixtures", "captured", a.scenario))
    if os.path.isdir(out) and os.listdir(out) and not a.force:
        sys.exit(f"{out} is not empty (use --force)")
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):
        fp = os.path.join(out, f)
        if os.path.isfile(fp):
            os.remove(fp)
        elif os.path.isdir(fp) and f.endswith("_logdir"):
            shutil.rmtree(fp)
    workdir = a.workdir or os.path.join("/tmp", "skewscope-capture", a.scenario)
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    shutil.copy(TRAIN_PY, os.path.join(workdir, "train.py"))
    timings = os.path.join(workdir, "worker_timings.jsonl")
    # The runtime fix goes to the working folder (visible inside the chroot too); its bytecode stays there.
    shim_src = SHIM_26_DIR if a.torch == "2.6" else SHIM_DIR
    shim_dir = os.path.join(workdir, "pyshim")
    os.makedirs(shim_dir)
    shutil.copy(os.path.join(shim_src, "sitecustomize.py"), shim_dir)

    namespaces = not a.no_namespaces
    netns = namespaces and not a.no_netns
    port = a.port or free_port()
    if not netns and port_in_use(port):
        sys.exit(f"port {port} is in use")
    run_id = uuid.uuid4().hex
    versions = torch_versions(a, in_root(a, [a.python, "-c", "import sys, torch; print(torch.__version__); print(sys.version.split()[0])"]))

    hosts_file = os.path.join(workdir, "hosts")
    hosts_map = {}
    if namespaces:
        lines = ["127.0.0.1\tlocalhost"]
        for i in range(a.nnodes):
            hosts_map[f"node{i}"] = f"127.0.1.{i + 1}"
            lines.append(f"127.0.1.{i + 1}\tnode{i}")
        with open(hosts_file, "w") as f:
            f.write("\n".join(lines) + "\n")
        host_of = lambda i: f"node{i}"  # noqa: E731
    else:
        host_of = lambda i: socket.gethostname()  # noqa: E731

    endpoint_host = host_of(a.endpoint_node if a.backend == "c10d" else 0) if namespaces else "127.0.0.1"
    endpoint = f"{endpoint_host}:{port}"
    rdzv_id = a.rdzv_id or f"{a.scenario}-job"

    env = {
        "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": os.environ.get("HOME", "/root"),
        "LANG": "C.UTF-8",
        MARKER_VAR: run_id,
        "SKEWSCOPE_TIMINGS": timings,
        "SKEWSCOPE_STEPS": str(a.steps),
        "SKEWSCOPE_STEP_SLEEP": str(a.step_sleep),
    }
    if a.crash:
        env["SKEWSCOPE_CRASH"] = a.crash
    if a.pg_timeout is not None:
        env["SKEWSCOPE_PG_TIMEOUT"] = str(a.pg_timeout)
    if not a.no_shim:
        env["PYTHONPATH"] = shim_dir
        if a.torch == "2.6":
            env["USE_LIBUV"] = "0"
    if a.loglevel and a.loglevel.lower() != "none":
        env["LOGLEVEL"] = a.loglevel
    for kv in a.env:
        k, _, v = kv.partition("=")
        env[k] = v
    shown_env = {k: v for k, v in env.items() if k in ("LOGLEVEL",) or kv_user(a.env, k)}

    nodes = [Node(i, d) for i, d in enumerate(a.delay_list)]
    style = a.prefix
    slurm_lock = threading.Lock()
    slurm_path = os.path.join(out, a.slurm_file)
    for n in nodes:
        n.hostname = host_of(n.index)
        if style == "slurm":
            n.log_file = a.slurm_file
        elif a.kubeflow_names:
            n.log_file = "trainjob-master-0.log" if n.index == 0 else f"trainjob-worker-{n.index - 1}.log"
        else:
            n.log_file = f"node{n.index}.log"
        tr = [a.torchrun, f"--nnodes={a.nnodes_arg or a.nnodes}", f"--nproc_per_node={a.nproc_per_node}"]
        if a.backend == "static":
            tr += [f"--node_rank={n.index}", f"--master_addr={endpoint_host}", f"--master_port={port}"]
        else:
            tr += ["--rdzv_backend=c10d", f"--rdzv_endpoint={endpoint}", f"--rdzv_id={rdzv_id}"]
        if a.rdzv_conf:
            tr += ["--rdzv_conf", a.rdzv_conf]
        if a.log_dir:
            n.log_dir = os.path.join(workdir, f"node{n.index}_logdir")
            tr += ["--log_dir", n.log_dir]
        tr += a.torchrun_arg
        tr += ["train.py"]
        n.cmd = tr
        n.full_cmd = (node_wrapper(a, hosts_file, n.hostname, workdir) + tr) if namespaces else tr

    def shown_cmd(n):
        pre = " ".join(f"{k}={v}" for k, v in shown_env.items())
        tail = {"plain": f" 2>&1 | tee {n.log_file}", "k8s": "  (k8s-style capture)", "slurm": "  (srun -l capture)"}[style]
        return (pre + " " if pre else "") + shlex.join(n.cmd) + tail

    shown_delays = ["never" if d is None else d for d in a.delay_list]
    log(f"scenario {a.scenario}: torch {a.torch}, {a.backend}, {a.nnodes} nodes x {a.nproc_per_node}, endpoint {endpoint}, delays {shown_delays}")
    log(f"output {out}; workdir {workdir}; kill after {a.kill_after}s (+{a.grace}s grace)")

    holder = None
    stray_killed = []
    interrupted = {"flag": False}

    def on_signal(signum, _frame):
        interrupted["flag"] = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)

    harness_start = time.time()
    try:
        if netns:
            holder, ns = start_netns(run_id)
            for n in nodes:
                n.full_cmd = ["nsenter", f"--net={ns}"] + n.full_cmd
            harness_start = time.time()
        deadline = harness_start + a.kill_after
        pending = sorted([n for n in nodes if n.delay is not None], key=lambda n: n.delay)
        for n in nodes:
            if n.delay is None:
                log(f"node{n.index} is not started in this scenario (it never comes up)")
        while True:
            now = time.time()
            while pending and now >= harness_start + pending[0].delay and now < deadline and not interrupted["flag"]:
                n = pending.pop(0)
                sink = Sink(slurm_path, slurm_lock) if style == "slurm" else Sink(os.path.join(out, n.log_file))
                n.launch = time.time()
                n.proc = subprocess.Popen(
                    n.full_cmd,
                    cwd=workdir,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
                log(f"node{n.index} launched at +{n.launch - harness_start:.3f}s (pid {n.proc.pid})")
                n.reader = threading.Thread(target=reader_thread, args=(n, n.proc.stdout, sink, style), daemon=True)
                n.reader.start()
                n.waiter = threading.Thread(target=waiter_thread, args=(n,), daemon=True)
                n.waiter.start()
                now = time.time()
            running = [n for n in nodes if n.proc is not None and n.end is None]
            if not pending and not running:
                break
            if now >= deadline or interrupted["flag"]:
                why = "interrupted" if interrupted["flag"] else f"kill-after {a.kill_after}s reached"
                log(f"{why}: SIGTERM to {[f'node{n.index}' for n in running]}")
                for n in running:
                    n.killed = {"signal": "SIGTERM", "at_epoch_s": time.time(), "reason": why}
                    try:
                        os.kill(n.proc.pid, signal.SIGTERM)
                    except ProcessLookupError:
                        pass
                for n in pending:
                    log(f"node{n.index} never launched")
                pending = []
                grace_end = time.time() + a.grace
                while time.time() < grace_end and any(n.end is None for n in running):
                    time.sleep(0.2)
                for n in running:
                    if n.end is None:
                        n.killed = dict(n.killed, signal="SIGTERM then SIGKILL", sigkill_at_epoch_s=time.time())
                        log(f"node{n.index} still alive after grace: SIGKILL")
                        try:
                            os.killpg(n.proc.pid, signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                break
            time.sleep(0.05)
    finally:
        # End every process of this run, wherever it was reparented to (the network namespace holder too).
        for _ in range(3):
            pids = [p for p in marked_pids(run_id) if p != os.getpid()]
            if not pids:
                break
            for p in pids:
                try:
                    os.kill(p, signal.SIGKILL)
                    if holder is None or p != holder.pid:
                        stray_killed.append(p)
                except ProcessLookupError:
                    pass
            time.sleep(0.5)
        if holder is not None:
            holder.wait(timeout=10)
        if stray_killed:
            log(f"killed leftover processes of this run: {sorted(set(stray_killed))}")
        for n in nodes:
            if n.waiter:
                n.waiter.join(timeout=10)
            if n.reader:
                n.reader.join(timeout=10)
        # the nodes' Python caches the shim's bytecode next to it; keep the repo clean
        shutil.rmtree(os.path.join(SHIM_DIR, "__pycache__"), ignore_errors=True)

    logdirs = {}
    if a.log_dir:
        for n in nodes:
            if n.launch is not None and os.path.isdir(n.log_dir):
                dest = os.path.join(out, os.path.basename(n.log_dir))
                shutil.copytree(n.log_dir, dest, symlinks=True)
                logdirs[n.hostname] = sorted(
                    os.path.relpath(os.path.join(d, f), out) for d, _, fs in os.walk(dest) for f in fs
                )

    truth = build_truth(a, versions, nodes, out, style, endpoint, rdzv_id, harness_start, shown_cmd, timings,
                        namespaces, hosts_map, port, sorted(set(stray_killed)), shown_env, netns, logdirs)
    with open(os.path.join(out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)
        f.write("\n")
    log(f"outcome {truth['outcome']}; stage {truth['failure_stage']}; excerpt {truth['failure_message_excerpt']!r}")
    log(f"max launch skew {truth['max_measured_launch_skew_s']}s; wrote {out}")
    return 0


def kv_user(pairs, key):
    return any(p.partition("=")[0] == key for p in pairs)


def node_lines(n, out, style):
    path = os.path.join(out, n.log_file)
    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    lines = text.splitlines()
    if style == "k8s":
        lines = [ln.split(" ", 1)[1] if " " in ln else "" for ln in lines]
    elif style == "slurm":
        label = f"{n.index}: "
        lines = [ln[len(label):] for ln in lines if ln.startswith(label)]
    return lines


def last_exception_line(lines):
    cands = [ln for ln in lines if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Timeout)\b", ln)]
    return cands[-1] if cands else None


def classify(lines, killed):
    text = "\n".join(lines)
    if "skewscope capture: injected" in text:
        return "worker_injected_crash"
    if "store_util.synchronize" in text or "in _share_and_gather" in text:
        return "agent_store_synchronize"
    if re.search(r"Rendezvous(Timeout|Connection|Closed)Error", text):
        return "rendezvous"
    if "static_tcp_rendezvous" in text or ("next_rendezvous" in text and "TCPStore(" in text):
        return "agent_tcpstore_create"
    if "'NoneType' object has no attribute 'get'" in text or "Std.from_str" in text:
        return "agent_start_workers"
    if "init_process_group" in text and "Traceback" in text:
        return "worker_init_process_group"
    if killed:
        return "killed_by_harness_timeout"
    return "unknown"


def build_truth(a, versions, nodes, out, style, endpoint, rdzv_id, harness_start, shown_cmd, timings, namespaces,
                hosts_map, port, stray_killed, shown_env, netns, logdirs):
    recs = []
    if os.path.exists(timings):
        with open(timings) as f:
            recs = [json.loads(ln) for ln in f if ln.strip()]
    finished = [r for r in recs if r.get("phase") == "finished"]
    finished_keys = {(r["hostname"], r["pid"]) for r in finished}
    unfinished = [r for r in recs if r.get("phase") == "init_started" and (r["hostname"], r["pid"]) not in finished_keys]
    crashes = [r for r in recs if r.get("phase") == "injected_crash"]
    # one entry per (restart_count, world_size) the workers saw: restarts and membership changes
    rounds = {}
    for r in recs:
        if r.get("phase") == "init_started":
            key = (r.get("restart_count"), r.get("world_size"))
            rounds.setdefault(key, set()).add(r["hostname"])
    worker_rounds = [
        {"restart_count": k[0], "world_size": k[1], "hosts": sorted(v)}
        for k, v in sorted(rounds.items(), key=lambda kv: (kv[0][0] or 0, kv[0][1] or 0))
    ]
    group_rank_of_host = {}
    for r in finished:
        group_rank_of_host[r["hostname"]] = r.get("group_rank")

    launched = [n for n in nodes if n.launch is not None]
    first = min(n.launch for n in launched) if launched else None
    skew = (max(n.launch for n in launched) - first) if launched else None
    cap_style = {"plain": "plain_tee", "k8s": "k8s", "slurm": "slurm_srun_l"}[style]

    node_entries = []
    for n in nodes:
        lines = node_lines(n, out, style) if n.launch is not None else []
        errs = [ln for ln in lines if ERROR_LIKE.search(ln)]
        if a.backend == "static":
            rank, rank_note = n.index, None
        else:
            rank = group_rank_of_host.get(n.hostname) if namespaces else None
            rank_note = None if rank is not None else "c10d assigns node ranks at rendezvous; no worker finished on this node, so its rank is not known"
        e = {
            "node_rank": rank,
            "sim_node_index": n.index,
            "hostname": n.hostname,
            "capture_style": cap_style,
            "log_file": n.log_file,
            "launch_epoch_s": n.launch,
            "injected_delay_s": n.delay,
            "started": n.launch is not None,
            "never_started_by_design": n.delay is None,
            "torchrun_exit_code": n.exit_code,
            "torchrun_end_epoch_s": n.end,
            "seconds_from_launch_to_exit": (n.end - n.launch) if n.end and n.launch else None,
            "killed_by_harness": n.killed,
            "error_like_lines_in_log": errs,
            "torchrun_cmd": shown_cmd(n),
        }
        if rank_note:
            e["node_rank_note"] = rank_note
        node_entries.append(e)

    ok = all(n.launch is not None and n.exit_code == 0 and not n.killed for n in nodes)
    stage = excerpt = None
    if not ok:
        failed = [n for n in nodes if n.launch is not None and (n.exit_code != 0 or n.killed)]
        # the node whose torchrun ended first on its own (not killed), else the first killed one
        own = sorted([n for n in failed if not n.killed and n.end], key=lambda n: n.end)
        pick = own[0] if own else (failed[0] if failed else None)
        if pick is not None:
            lines = node_lines(pick, out, style)
            stage = classify(lines, pick.killed)
            excerpt = last_exception_line(lines)

    return {
        "scenario": a.scenario,
        "description": a.description,
        "pytorch_version": versions["pytorch_version"],
        "pytorch_version_detail": versions["pytorch_version_detail"],
        "python_version": versions["python"],
        "capture_style": cap_style,
        "backend": a.backend,
        "nnodes": a.nnodes,
        "nproc_per_node": a.nproc_per_node,
        "rdzv_conf": a.rdzv_conf,
        "rdzv_endpoint": endpoint,
        "rdzv_id": rdzv_id if a.backend == "c10d" else None,
        "env_LOGLEVEL": shown_env.get("LOGLEVEL"),
        "extra_env": {kv.partition("=")[0]: kv.partition("=")[2] for kv in a.env},
        "torch_runtime": "bookworm host" if not a.chroot else f"trixie chroot {a.chroot}",
        "py311_runtime_fix_applied": (not a.no_shim) if a.torch == "1.13" else None,
        "nolibuv_runtime_fix_applied": (not a.no_shim) if a.torch == "2.6" else None,
        "env_USE_LIBUV": "0" if a.torch == "2.6" and not a.no_shim else None,
        "simulated_hostnames": namespaces,
        "loopback_only_network_namespace": netns,
        "hosts_map": hosts_map or None,
        "train_script": "scripts/capture/train.py",
        "train_steps": a.steps,
        "train_step_sleep_s": a.step_sleep,
        "train_pg_timeout_s": a.pg_timeout,
        "train_injected_crash": a.crash,
        "torchrun_nnodes_arg": a.nnodes_arg or str(a.nnodes),
        "log_dir_trees": logdirs or None,
        "torchrun_cmd_node0": shown_cmd(nodes[0]),
        "capture_tool": "scripts/capture/capture.py " + shlex.join(sys.argv[1:]),
        "kill_after_s": a.kill_after,
        "kill_grace_s": a.grace,
        "harness_start_epoch_s": harness_start,
        "first_launch_epoch_s": first,
        "max_measured_launch_skew_s": skew,
        "nodes": node_entries,
        "outcome": "success" if ok else "failure",
        "failure_stage": stage,
        "failure_message_excerpt": excerpt,
        "per_node_diagnosis": {},
        "notes": "",
        "stray_processes_killed_at_end": stray_killed,
        "worker_timings": finished,
        "workers_started_not_finished": unfinished,
        "worker_injected_crashes": crashes,
        "worker_rounds": worker_rounds,
    }


if __name__ == "__main__":
    sys.exit(main())
