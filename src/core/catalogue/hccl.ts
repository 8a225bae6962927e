import type { CatalogueEntry } from './types';

// Ascend: HCCL (CANN's collective library) and its error codes, as torch_npu jobs print them. Values and
// the HCCL_CONNECT_TIMEOUT / HCCL_EXEC_TIMEOUT knobs: docs/pytorch-log-formats.md §6 (CANN docs).

export const HCCL: CatalogueEntry[] = [
  {
    // HCCL's timeouts as the job set them: a traced or echoed `export`, `env | grep HCCL`'s lines, Python's
    // os.environ (an env prefix on the torchrun command line is read with that command, in job/facts.ts).
    // HCCL prints neither value when it gives up (EI0006's text names only the 120 s default), so this line is
    // the only evidence of the limit in force.
    id: 'hccl-timeout-env',
    kind: 'info',
    anchors: ['HCCL_CONNECT_TIMEOUT', 'HCCL_EXEC_TIMEOUT'],
    pattern:
      '(?<name>HCCL_(?:CONNECT|EXEC)_TIMEOUT)[\'"]?\\]?[ \\t]{0,3}[=:][ \\t]{0,3}[\'"]?(?<secs>\\d{1,7})(?![\\d.])',
    samples: [
      '+ export HCCL_CONNECT_TIMEOUT=600',
      'export HCCL_EXEC_TIMEOUT=1800',
      'HCCL_CONNECT_TIMEOUT=1200',
      'os.environ["HCCL_CONNECT_TIMEOUT"] = "900"',
    ],
    effects: { facts: { envTimeoutName: 'name', envTimeoutSeconds: 'secs' } },
    versions: 'CANN 5.x–9.x (HCCL_CONNECT_TIMEOUT, HCCL_EXEC_TIMEOUT)',
    source:
      'CANN environment variables (docs/pytorch-log-formats.md §6); set-up lines as traced by `bash -x` and echoed by launch scripts',
  },
  {
    id: 'hccl-link-timeout',
    kind: 'failure',
    anchors: ['wait socket establish timeout'],
    pattern:
      'wait socket establish timeout, role\\[(?<role>\\d+)\\] rank\\[(?<rank>\\d+)\\] timeout\\[(?<secs>\\d+)(?: s)?\\]',
    samples: [
      '[ERROR] HCCL(2717288,python3):2025-07-23-03:49:57.177.194 [hccl_socket_manager.cc:778] [2734049][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[12] timeout[120]',
    ],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary', limit: { field: 'secs', unit: 's' } },
    versions: 'CANN 5.x–9.x (HCCL_CONNECT_TIMEOUT)',
    source: 'HCCL hccl_socket_manager.cc',
  },
  {
    id: 'hccl-listen-failed',
    kind: 'failure',
    anchors: ['[HcclSocket][Listen]'],
    pattern:
      '\\[HcclSocket\\]\\[Listen\\] socket type\\[\\d{1,3}\\], listen on ip\\[(?<ip>[^\\]]{1,64})\\] and specific port\\[(?<port>\\d{1,5})\\] fail',
    samples: [
      '[ERROR] HCCL(1804417,python3):2025-08-03-11:20:05.612.308 [hccl_socket.cc:100] [1804417][HcclSocket][Listen] socket type[1], listen on ip[192.168.71.20] and specific port[16666] fail. Please check the port status and whether the port is being used by other process.',
    ],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary' },
    versions: 'CANN 7.x–9.x',
    source: 'HCCL hccl_socket.cc',
  },
  {
    // HCCL's cluster heartbeat naming the server whose device stopped answering (its process exited or its network
    // went down), as the discoverer reports it under EI0002/EI0006: that server is where the failure began.
    id: 'hccl-cluster-exception',
    kind: 'error',
    anchors: ['Cluster Exception Location'],
    pattern:
      'Cluster Exception Location\\[IP/ID\\]:\\[(?<ip>[\\d.]{7,15})/(?<dev>\\d{1,5})\\], Arrival Time:\\[[^\\]]{0,40}\\], Discoverer:\\[(?<by>[\\d.]{7,15})/\\d{1,5}\\], ExceptionType:\\[(?<type>Heartbeat Lost Occurred)\\]',
    samples: [
      '    Cluster Exception Location[IP/ID]:[10.30.1.12/9], Arrival Time:[Mon Nov  3 17:16:49 2025], Discoverer:[10.30.1.11/1], ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, 2. Network Disconnected',
    ],
    effects: { comm: 'hccl', stage: 'collective-timeout', role: 'consequence', nodeDown: 'ip' },
    versions: 'CANN 7.x–8.x (HCCL cluster heartbeat)',
    source: "HCCL heartbeat (EI0002 detail); shape: an Ascend FAQ page 'HCCL超时' (excerpt set 7)",
  },
  {
    // The header of the table of links HCCL could not set up: the communicator's setup failed (the rows say
    // which links, and the lines above how long it waited).
    id: 'hccl-link-error-info',
    kind: 'failure',
    anchors: ['LINK_ERROR_INFO'],
    pattern: '_{4,80}LINK_ERROR_INFO_{4,80}',
    samples: [
      '[ERROR] HCCL(23457,all_reduce_test):2023-10-16-08:41:56.291.765 [comm_base.cc:967][23468] _________________________LINK_ERROR_INFO___________________________',
    ],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary' },
    versions: 'CANN 6.x–9.x',
    source: 'HCCL comm_base.cc, hccl_socket_manager.cc (LINK_ERROR_INFO); shape: excerpt set 6 (plog of an HCCL link)',
  },
  {
    // The older link table (CANN 6–7): `| dest_ip(rank) | src_ip(rank) | Role | Status |`.
    id: 'hccl-link-row-old',
    kind: 'error',
    anchors: ['no connect |', 'no connect  |'],
    pattern:
      '\\|\\s{0,8}(?<remote>[\\d.]{7,15})\\((?<rrank>\\d{1,6})\\)\\s{0,8}\\|\\s{0,8}(?<local>[\\d.]{7,15})\\((?<lrank>\\d{1,6})\\)\\s{0,8}\\|\\s{0,8}(?:server|client)\\s{0,8}\\|\\s{0,8}no connect\\s{0,8}\\|',
    samples: [
      '[ERROR] HCCL(23457,all_reduce_test):2023-10-16-08:41:56.291.833 [comm_base.cc:1018][23468] | 192.168.100.100(1) | 192.168.100.101(0) |  server  | no connect |',
    ],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'consequence' },
    versions: 'CANN 6.x–7.x',
    source: 'HCCL comm_base.cc (LINK_ERROR_INFO)',
  },
  {
    // The link table HCCL prints after a link timeout: one row per link, `time out` where it was not set up.
    id: 'hccl-link-row',
    kind: 'error',
    anchors: ['time out  |', 'time out |'],
    pattern:
      '\\|\\s{0,8}(?<local>[\\d.]{7,15})\\((?<lrank>\\d{1,6})\\)\\s{0,8}\\|\\s{0,8}\\d{1,5}\\s{0,8}\\|\\s{0,8}(?<remote>[\\d.]{7,15})\\((?<rrank>\\d{1,6})\\)\\s{0,8}\\|.{0,80}?\\|\\s{0,8}time out\\s{0,8}\\|',
    samples: [
      '[ERROR] HCCL(1804417,python3):2025-08-03-11:22:05.719.121 [hccl_socket_manager.cc:599] [1820114]   |  192.168.71.36(4)    |  16666        |  192.168.71.20(12)   |  0           |  client    |  time out  |  DISABLE       |',
    ],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'consequence' },
    versions: 'CANN 7.x–9.x',
    source: 'HCCL hccl_socket_manager.cc (LINK_ERROR_INFO)',
  },
  {
    // HCCL's own diagnosis of a connect timeout: which source→destination link, or "no abnormal periods".
    id: 'hccl-connect-detect',
    kind: 'failure',
    anchors: ['CONNECT TIMEOUT DETECT RESULT'],
    pattern: 'CONNECT TIMEOUT DETECT RESULT',
    samples: [
      '[ERROR] HCCL(66201,):2026-03-09-14:07:21.353.226 [detect_connect_anomalies.cc:126] [71390]-------------------CONNECT TIMEOUT DETECT RESULT-----------------------',
    ],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary' },
    versions: 'CANN 8.x–9.x',
    source: 'HCCL detect_connect_anomalies.cc',
  },
  {
    id: 'hccl-transport-init',
    kind: 'failure',
    anchors: ['Transport init error'],
    pattern:
      'Transport init error[.!] (?:Reason: .{0,120}?)?(?:createLink|creakLink) para:rank\\[(?<rank>\\d{1,7})\\].{0,200}?(?:remoteRank|dst_rank)\\[(?<rrank>\\d{1,7})\\].{0,200}?(?:remoteIpAddr|remote_ip_addr)\\[\\[?(?<remote>[^\\]/]{1,64})',
    samples: [
      // CANN 8.x as vLLM-Ascend workers print it (vllm-project/vllm-ascend#2643, #2406); the typo is CANN's.
      '(VllmWorker rank=3 pid=50935) ERROR 09-10 03:36:31 [multiproc_executor.py:527]         Transport init error. Reason: [Create][DestLink]Create Dest error! creakLink para:rank[7]-localUserrank[7]-localIpAddr[10.20.5.11], dst_rank[9]-remoteUserrank[9]-remote_ip_addr[10.20.5.12]',
      '[InitChannelStage][RunFailed]Transport init error! createLink para:rank[3]-localUserrank[3]-localIpAddr[29.7.14.51/3], remoteRank[11]-remoteUserrank[11]-remoteIpAddr[29.7.14.83/3], machineType[0], linkMode[1], isUsedRdma[1], tag[AllGather_29.7.14.51%enp_60000_0_1]',
    ],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary' },
    versions: 'CANN 8.x–9.x',
    source: 'HCCL transport setup',
  },
  {
    // torch_npu loads HCCL's functions when a rank first needs a communicator (its first collective): an HCCL
    // library older than torch_npu lacks the newer init calls, and every rank fails there alike.
    id: 'hccl-init-function-missing',
    kind: 'failure',
    anchors: ['Failed to find function HcclCommInit'],
    pattern: 'RuntimeError: Failed to find function (?<fn>HcclCommInit\\w{0,60})',
    samples: ['[rank0]: RuntimeError: Failed to find function HcclCommInitRootInfoConfig'],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary', immediate: true },
    versions: 'torch_npu 2.1–2.5 with an older CANN',
    source: 'torch_npu (loads HCCL functions on first use); shape: excerpt set 12 (ms-swift on NPU)',
  },
  {
    // HCCL's operator retry (HCCL_OP_RETRY_ENABLE) opens its own connection from each rank to the root's server
    // while the communicator is set up; a port of its range taken by another process makes it fail at once.
    id: 'hccl-op-retry-connect-failed',
    kind: 'failure',
    anchors: ['[OpRetryConnection][Init] Connect to server failed'],
    pattern:
      '\\[OpRetryConnection\\]\\[Init\\] Connect to server failed, serverIp_?\\[(?<ip>[^\\]]{1,64})\\] serverPort \\[(?<port>\\d{1,5})\\]',
    samples: ['[OpRetryConnection][Init] Connect to server failed, serverIp_[10.72.14.5] serverPort [48000]'],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary', immediate: true },
    versions: 'CANN 8.x (HCCL_OP_RETRY_ENABLE)',
    source: 'HCCL op retry connection setup; shape: excerpt set 12 (a hiascend forum thread)',
  },
  {
    // The root of HCCL's rank-table exchange waited for every rank to connect.
    id: 'hccl-topo-server-timeout',
    kind: 'failure',
    anchors: ['topo exchange server get socket timeout'],
    pattern: 'topo exchange server get socket timeout! timeout\\[(?<secs>\\d{1,7}) ?s?\\]',
    samples: [
      '[ERROR] HCCL(20418,python):2025-11-04-03:15:47.205.229 [topoinfo_exchange_server.cc:113] [44190][Get][Connection]topo exchange server get socket timeout! timeout[720 s]',
    ],
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary', limit: { field: 'secs', unit: 's' } },
    versions: 'CANN 7.x–9.x (HCCL_CONNECT_TIMEOUT)',
    source: 'HCCL topoinfo_exchange_server.cc',
  },
  {
    id: 'hccl-topo-detect-error',
    kind: 'failure',
    anchors: ['TopoDetect ERROR occur'],
    pattern:
      'TopoDetect ERROR occur !{0,3} ?fault_type\\[\\d{1,4}\\], fault_info\\["(?<info>(?:Failed to connect agent\\[(?<ranks>[\\d, ]{1,4000})\\])?[^"]{0,300})"\\]',
    samples: [
      '[ERROR] HCCL(38815,python):2025-11-04-03:15:47.615.877 [topoinfo_exchange_base.cc:119] [38815][Recv][ClusterInfoMsg] TopoDetect ERROR occur !!! fault_type[1], fault_info["Failed to connect agent[9,]"]',
    ],
    // The ranks it names never reached the root's topology exchange: their node is who the world waited for.
    effects: { comm: 'hccl', stage: 'comm-init', role: 'primary', absentRanksField: 'ranks' },
    versions: 'CANN 7.x–9.x',
    source: 'HCCL topoinfo_exchange_base.cc',
  },
  {
    // HCCL's heartbeat found a peer process gone: it exited or its network went away.
    id: 'hccl-heartbeat-lost',
    kind: 'failure',
    anchors: ['status[LOST]', 'Heartbeat Lost Occurred'],
    pattern: '(?:rank \\[(?<peer>[^\\]]{1,64})\\] status\\[LOST\\]|ExceptionType:\\[Heartbeat Lost Occurred\\])',
    samples: [
      '[INFO] HCCL(686,python):2025-10-23-07:52:59.191.363 [heartbeat.cc:951] [8970][HCCL_TRACE]rank [127.10.0.1/1]: rank [127.10.0.1/9] status[LOST] by rank [127.10.0.1/1]',
    ],
    effects: { comm: 'hccl', stage: 'other', role: 'primary' },
    versions: 'CANN 8.x–9.x',
    source: 'HCCL heartbeat.cc',
  },
  {
    // A collective's task ran past HCCL_EXEC_TIMEOUT waiting for a peer's notify: the communicator had formed,
    // so this is execution (a peer that never reached the collective), not link setup.
    id: 'hccl-task-exec-timeout',
    kind: 'failure',
    anchors: ['[TaskExecStage][Timeout]'],
    pattern:
      '\\[TaskExecStage\\]\\[Timeout\\]\\[(?<where>\\w{1,12})\\]Task run failed, notify wait timeout, remote rank\\[(?<peer>\\d{1,7})\\]',
    samples: [
      // Shape from the Ascend HCCL user guide's execution-timeout page (hiascend.com, hcclug_000025).
      '[ERROR] HCCL(858209,python3):2025-12-10-19:52:32.589.171 [task_exception_handler.cc:69] [858274][TaskExecStage][Timeout][HOST]Task run failed, notify wait timeout, remote rank[11], notify id[0x000000000000019f], stage[1].',
    ],
    effects: { comm: 'hccl', stage: 'collective-timeout', role: 'primary' },
    versions: 'CANN 8.x–9.x',
    source: 'HCCL task_exception_handler.cc',
  },
];
