import type { CatalogueEntry } from './types';

// The TCPStore and its sockets (torch/csrc/distributed/c10d/TCPStore.cpp, socket.cpp, Utils.hpp), as C++ log
// lines and as the Python exceptions they become. Templates: docs/pytorch-log-formats.md §5.7. Per-address
// warnings are retried and benign while retrying; the final error of a connect attempt is the failure.

/** An address as c10d prints it: `[host]:port`, `host:port`, `[::ffff:10.1.2.3]:port`. */
const ADDR = '\\[?(?<host>[^\\s\\]]+?)\\]?:(?<port>\\d{1,5})';

export const TCPSTORE: CatalogueEntry[] = [
  {
    id: 'tcp-client-retry',
    kind: 'info',
    anchors: ['TCP client failed to connect/validate'],
    pattern:
      'TCP client failed to connect/validate to host (?<host>\\S+):(?<port>\\d+) - retrying \\(try=(?<try>\\d+), timeout=(?<ms>\\d+)ms',
    samples: [
      '[W1129 18:31:02.042019295 TCPStore.cpp:330] [c10d] TCP client failed to connect/validate to host node0:29520 - retrying (try=0, timeout=30000ms, delay=26830ms): The client socket has timed out after 30000ms while trying to connect to (node0, 29520).',
    ],
    effects: { connectRetry: true },
    versions: '2.6 (introduction unverified)',
    source: 'torch/csrc/distributed/c10d/TCPStore.cpp',
  },
  {
    id: 'tcp-client-gave-up',
    kind: 'error',
    anchors: ['TCP client failed to connect/validate'],
    pattern:
      'TCP client failed to connect/validate to host (?<host>\\S+):(?<port>\\d+) - timed out \\(try=(?<try>\\d+), timeout=(?<ms>\\d+)ms',
    samples: [
      '[E1129 18:31:29.875707662 TCPStore.cpp:318] [c10d] TCP client failed to connect/validate to host node0:29520 - timed out (try=1, timeout=30000ms): The client socket has timed out after 30000ms while trying to connect to (node0, 29520).',
    ],
    effects: { stage: 'store-connect', role: 'consequence', refine: 'frames', refineTo: ['pg-init'] },
    versions: '2.6 (introduction unverified)',
    source: 'torch/csrc/distributed/c10d/TCPStore.cpp',
  },
  {
    id: 'client-connect-timeout',
    kind: 'failure',
    anchors: ['The client socket has timed out after'],
    pattern:
      'The client socket has timed out after (?<t>\\d{1,12})(?<unit>ms|s) while trying to connect to (?:\\((?<host>[^,\\s]{1,200}), (?<port>\\d{1,5})\\)|\\[?(?<host2>[^\\s\\]]{1,200}?)\\]?:(?<port2>\\d{1,5}))',
    samples: [
      // 1.13's E line without the parentheses (shape from a c10d paste; excerpt c10d-rdzv-store-timeout-60s).
      '[E socket.cpp:860] [c10d] The client socket has timed out after 60s while trying to connect to 10.31.8.5:29611',
      'E20261129 19:17:51.761351 31449 socket.cpp:860] [c10d] The client socket has timed out after 60s while trying to connect to (node0, 29811).',
      'torch.distributed.DistNetworkError: The client socket has timed out after 30000ms while trying to connect to (node0, 29520).',
    ],
    effects: {
      stage: 'store-connect',
      role: 'primary',
      refine: 'frames',
      refineTo: ['pg-init'],
      workerLineStage: 'pg-init',
      limit: { field: 't', unit: 'unit-field' },
      waitedSinceLaunch: { field: 't', unit: 'unit-field' },
    },
    versions: '1.13–2.6 (900s in 1.13, 900000ms in 2.x)',
    source: 'torch/csrc/distributed/c10d/socket.cpp',
  },
  {
    // Before 1.13 the connect deadline read differently (torch/lib/c10d Utils.cpp, tcputil::connect).
    id: 'connect-timed-out-old',
    kind: 'failure',
    anchors: ['connect() timed out'],
    pattern: 'connect\\(\\) timed out\\.(?: Original timeout was (?<ms>\\d{1,12}) ms)?',
    samples: ['RuntimeError: connect() timed out. Original timeout was 1800000 ms.'],
    effects: {
      stage: 'store-connect',
      role: 'primary',
      refine: 'frames',
      refineTo: ['pg-init'],
      workerLineStage: 'pg-init',
      limit: { field: 'ms', unit: 'ms' },
      waitedSinceLaunch: { field: 'ms', unit: 'ms' },
    },
    versions: '≤ 1.12',
    source: 'torch/lib/c10d/Utils.cpp (tcputil::connect)',
  },
  {
    id: 'not-listening',
    kind: 'info',
    anchors: ['is listening yet'],
    pattern: 'No socket on \\((?<host>[^,\\s]+), (?<port>\\d+)\\) is listening yet, will retry',
    samples: ['[I socket.cpp:667] [c10d] No socket on (node0, 29500) is listening yet, will retry.'],
    effects: { connectRetry: true },
    versions: '1.13–2.6 (INFO, hidden by default)',
    source: 'torch/csrc/distributed/c10d/socket.cpp',
  },
  {
    // The final error of one connect attempt over every address of the host: the store was not reachable.
    id: 'connect-any-failed',
    kind: 'failure',
    anchors: ['failed to connect to any network address'],
    pattern: 'The client socket has failed to connect to any network address of \\((?<host>[^,\\s]+), (?<port>\\d+)\\)',
    samples: [
      '[E socket.cpp:860] [c10d] The client socket has failed to connect to any network address of (10.0.3.7, 29500).',
      'RuntimeError: The client socket has failed to connect to any network address of (gpu-b12, 29400).',
    ],
    effects: {
      stage: 'store-connect',
      role: 'primary',
      refine: 'frames',
      refineTo: ['pg-init'],
      workerLineStage: 'pg-init',
    },
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/socket.cpp',
  },
  {
    // One address of the host refused or unreachable: retried while the deadline lasts (Windows prints
    // `system error: N` with the text in the user's language).
    id: 'connect-error',
    kind: 'info',
    anchors: ['The client socket has failed to connect to'],
    pattern: `The client socket has failed to connect to ${ADDR} \\((?<cat>errno|system error): (?<code>-?\\d+) - (?<text>[^)]*)\\)`,
    samples: [
      '[W socket.cpp:601] [c10d] The client socket has failed to connect to [node0]:29500 (errno: 99 - Cannot assign requested address).',
      '[W ..\\torch\\csrc\\distributed\\c10d\\socket.cpp:601] [c10d] The client socket has failed to connect to [ws-07.corp.example]:29500 (system error: 10049 - 在其上下文中，该请求的地址无效。).',
      '[W1201 08:03:11.201733012 socket.cpp:752] [c10d] The client socket has failed to connect to [::ffff:10.0.3.7]:29500 (errno: 113 - No route to host).',
    ],
    effects: { connectRetry: true },
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/socket.cpp',
  },
  {
    // Creating a socket of one address family failed (errno 97 on hosts without IPv6): the other family is tried.
    id: 'socket-init-failed',
    kind: 'info',
    anchors: ['cannot be initialized to connect', 'cannot be initialized on'],
    pattern: `The (?<side>client|server) socket cannot be initialized (?:to connect to|on) ${ADDR} \\((?<cat>errno|system error): (?<code>-?\\d+) - (?<text>[^)]*)\\)`,
    samples: [
      '[W socket.cpp:426] [c10d] The server socket cannot be initialized on [::]:29500 (errno: 97 - Address family not supported by protocol).',
      '[W socket.cpp:601] [c10d] The client socket cannot be initialized to connect to [localhost]:29500 (errno: 97 - Address family not supported by protocol).',
    ],
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/socket.cpp',
  },
  {
    // A per-address-family warning (IPv4, IPv6), retried with the other family and until the deadline: on its
    // own it is not the failure; the final one is "failed to connect to any network address".
    id: 'dns-error',
    kind: 'info',
    anchors: ['cannot be retrieved (gai error'],
    pattern:
      'network addresses of \\((?<host>[^,\\s]+), (?<port>\\d+)\\) cannot be retrieved \\(gai error: (?<code>-?\\d+) - (?<text>[^)]*)\\)',
    samples: [
      '[W socket.cpp:401] [c10d] The IPv4 network addresses of (trainjob-master-0, 29500) cannot be retrieved (gai error: -2 - Name or service not known).',
    ],
    effects: { nameUnresolved: true, connectRetry: true },
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/socket.cpp',
  },
  {
    // The DNS wording before 1.13 (TCPStore in rendezvous.py's env:// handler).
    id: 'host-not-found',
    kind: 'failure',
    anchors: ['host not found: '],
    pattern: '(?:ValueError|RuntimeError): host not found: (?<text>.+)$',
    samples: ['ValueError: host not found: Temporary failure in name resolution'],
    effects: { stage: 'store-connect', role: 'primary', refine: 'frames', refineTo: ['pg-init'] },
    versions: '≤ 1.12 (seen with torchelastic 0.2 and torch 1.1–1.9)',
    source: 'torch/lib/c10d/Utils.cpp; shape from pytorch/pytorch#64990, pytorch/elastic#113',
  },
  {
    id: 'server-bind-failed',
    kind: 'failure',
    anchors: ['The server socket has failed to'],
    pattern:
      'The server socket has failed to (?:bind to (?<addr>\\S+) (?<err>\\([^)]*\\))|listen on any local network address)',
    samples: [
      '[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).',
    ],
    // A worker's own store server (init_process_group's env:// or tcp:// handler creating the TCPStore on rank 0)
    // fails inside process-group creation; torchrun's agent binding its store is no stage of the job's start.
    effects: { stage: 'other', role: 'primary', refine: 'frames', refineTo: ['pg-init'] },
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/socket.cpp',
  },
  {
    // A port another process already holds, as Python raises it (a ZMQ queue of vLLM's workers, a socket the
    // script binds): a configuration clash on that host, raised at once — not a worker's own bug, not a late node.
    id: 'address-in-use',
    kind: 'failure',
    anchors: ['Address already in use'],
    pattern:
      "(?:zmq\\.error\\.ZMQError|OSError|RuntimeError): (?:\\[Errno 98\\] )?Address already in use(?: \\(addr='(?<addr>[^']{1,200})'\\))?",
    samples: [
      "(Worker_TP9 pid=111) ERROR 08-10 23:02:36 [multiproc_executor.py:898] zmq.error.ZMQError: Address already in use (addr='tcp://10.0.0.58:40043')",
      'OSError: [Errno 98] Address already in use',
    ],
    // Under init_process_group's frames it is the TCPStore server of a worker (torch ≤ 1.12 raised the bare
    // `RuntimeError: Address already in use`): process-group creation failed.
    effects: {
      stage: 'other',
      role: 'primary',
      immediate: true,
      notTorchEvidence: true,
      refine: 'frames',
      refineTo: ['pg-init'],
    },
    versions: 'any (Python, pyzmq)',
    source: 'pyzmq / the OS (EADDRINUSE); shape: vLLM multiproc executor worker lines (excerpt set 6)',
  },
  {
    id: 'master-wait-clients',
    kind: 'failure',
    anchors: ['seconds waiting for clients'],
    pattern:
      'Timed out after (?<secs>\\d+) seconds waiting for clients\\. (?<joined>\\d+)/(?<expected>\\d+) clients joined',
    samples: ['torch.distributed.DistStoreError: Timed out after 31 seconds waiting for clients. 3/4 clients joined.'],
    effects: {
      stage: 'rendezvous-timeout',
      role: 'primary',
      // A TCPStore master inside init_process_group (tcp:// init, a worker-level store) is a worker's wait.
      refine: 'frames',
      refineTo: ['pg-init'],
      // The seconds it waited (31 for `timeout=30`), not the limit: rdzv_configs states that.
      waitedSinceLaunch: { field: 'secs', unit: 's' },
      store: 'hosts',
      backend: 'static',
    },
    versions: '2.2–2.6 (≤2.1 continues silently)',
    source: 'torch/csrc/distributed/c10d/TCPStore.cpp',
  },
  {
    // One text, three meanings: only the frames above it tell rank assignment from the exit barrier.
    id: 'socket-timeout',
    kind: 'failure',
    anchors: ['Socket Timeout'],
    pattern:
      '(?:^|: )(?:(?<exc>RuntimeError|(?:torch\\.distributed\\.)?Dist(?:Store|Network|Backend)Error): )?Socket Timeout\\s*$',
    samples: ['2026-11-29T19:38:58.555080032Z RuntimeError: Socket Timeout'],
    effects: { stage: 'other', role: 'primary', refine: 'frames', storeWait: true },
    versions: '1.13–2.3 (RuntimeError / DistStoreError)',
    source: 'torch/csrc/distributed/c10d/Utils.hpp (SYSCHECK on SO_RCVTIMEO)',
  },
  {
    id: 'wait-timeout-keys',
    kind: 'failure',
    anchors: ['wait timeout after'],
    pattern: 'wait timeout after (?<ms>\\d+)ms, keys: (?<keys>.*)$',
    samples: ['torch.distributed.DistStoreError: wait timeout after 20000ms, keys: /default_pg/0//cpu//0/4'],
    effects: { stage: 'other', role: 'primary', refine: 'keys', limit: { field: 'ms', unit: 'ms' }, storeWait: true },
    versions: '2.6 (introduction unverified)',
    source: 'torch/csrc/distributed/c10d/TCPStore.cpp',
  },
  {
    id: 'wait-for-input',
    kind: 'error',
    anchors: ['waitForInput:'],
    pattern:
      'waitForInput: (?:poll for socket .+? returned 0, likely a timeout|socket .+? timed out after (?<ms>\\d+)ms)',
    samples: [
      '[W1129 18:40:42.414010455 socket.cpp:489] [c10d] waitForInput: socket SocketImpl(fd=3, addr=[localhost]:49586, remote=[node0]:29590) timed out after 20000ms',
    ],
    effects: { stage: 'other', role: 'consequence', refine: 'frames', tornDown: true },
    versions: '2.6',
    source: 'torch/csrc/distributed/c10d/socket.cpp',
  },
  {
    // 2.5+: a client of the process group's TCPStore (the NCCL heartbeat monitor's, a worker's) read nothing back:
    // the store's server had gone (its process ended). A consequence of whatever ended it.
    id: 'store-recv-failed',
    kind: 'error',
    anchors: ['recvValue failed on SocketImpl', 'Failed to check the "should dump" flag on TCPStore'],
    pattern:
      '(?:recvValue failed on SocketImpl\\(|Failed to check the "should dump" flag on TCPStore)(?<what>[^\\n]{0,300})',
    samples: [
      // Shape of the vLLM multi-node thread of excerpt set 6 (own hosts and ports).
      '[rank4]:[W810 23:02:42.934129975 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=102, addr=[gpu-n01]:50360, remote=[gpu-n01]:40027): Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?',
      '[rank2]:[W810 23:02:42.715262216 ProcessGroupNCCL.cpp:1826] [PG ID 0 PG GUID 0 Rank 2] Failed to check the "should dump" flag on TCPStore, (maybe TCPStore server has shut down too early), with error: Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?',
    ],
    effects: { stage: 'other', role: 'consequence' },
    versions: '2.5–2.6',
    source: 'torch/csrc/distributed/c10d/TCPStore.cpp (recvValue), ProcessGroupNCCL.cpp (HeartbeatMonitor)',
  },
  {
    id: 'connection-lost',
    kind: 'error',
    anchors: ['Broken pipe', 'failed to recv, got 0 bytes', 'Connection reset by peer'],
    pattern: '(?<what>Broken pipe|failed to recv, got 0 bytes|Connection reset by peer)',
    samples: [
      'RuntimeError: Broken pipe',
      'E1129 18:29:52.168000 816 torch/distributed/elastic/agent/server/api.py:954] torch.distributed.DistNetworkError: Connection reset by peer',
    ],
    effects: {
      stage: 'other',
      role: 'consequence',
      refine: 'frames',
      primaryInPhase: ['pg-init', 'comm-init'],
      store: 'lost',
      notTorchEvidence: true,
    },
    versions: '1.13–2.6',
    source: 'torch/csrc/distributed/c10d/TCPStore.cpp, Utils.hpp',
  },
  {
    id: 'libuv-missing',
    kind: 'failure',
    // "build" in 2.4's wording, "built … run with USE_LIBUV=0 to disable it" in later ones.
    anchors: ['use_libuv was requested but PyTorch was buil'],
    pattern: 'use_libuv was requested but PyTorch was buil[dt] without libuv support',
    samples: [
      'RuntimeError: use_libuv was requested but PyTorch was build without libuv support',
      'torch.distributed.DistStoreError: use_libuv was requested but PyTorch was built without libuv support, run with USE_LIBUV=0 to disable it.',
    ],
    // The agent cannot create its store client at all: it never joins, and what the others waited for is it.
    effects: { stage: 'other', role: 'primary', cannotJoin: true },
    versions: '2.4–2.6 builds without libuv',
    source: 'torch/csrc/distributed/c10d/TCPStore.cpp',
  },
];
