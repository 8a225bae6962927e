import { effectsOf } from '../catalogue';
import type { JobFacts, LogEvent, TorchInstall } from '../model';
import { MAX_COUNT, boundedCount, boundedSeconds } from '../numbers';

// Job facts from what the logs printed — each catalogue entry declares which of its fields state which fact
// (the launch-config block, a torchrun command, the rendezvous result, the console-script version) — and,
// where nothing states the version, the prefix format, which changed with the PyTorch version.

/** Python dict literal as torchrun prints it: `{'timeout': '30', 'rank': 0}` → {timeout: '30', rank: '0'}. */
export function parsePyDict(s: string): Record<string, string> | null {
  const t = s.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return null;
  const out: Record<string, string> = {};
  const re = /'([^']{1,200})'\s{0,4}:\s{0,4}(?:'([^']{0,2000})'|"([^"]{0,2000})"|([^,}]{1,2000}))/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t)) !== null) out[m[1]!] = (m[2] ?? m[3] ?? m[4] ?? '').trim();
  return out;
}

/** `timeout=1800,join_timeout=1800` (the --rdzv_conf syntax). */
export function parseRdzvConf(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of s.split(',')) {
    const [k, ...v] = part.split('=');
    if (k && v.length) out[k.trim()] = v.join('=').trim();
  }
  return out;
}

/** `[0, 1]` → [0, 1] (at most a few thousand: ranks of one node). */
export function parseIntList(s: string | undefined, max = 4096): number[] {
  if (!s) return [];
  const out: number[] = [];
  for (const m of s.matchAll(/-?\d{1,12}/g)) {
    if (out.length >= max) break;
    out.push(Number(m[0]));
  }
  return out;
}

function cmdArg(args: string, name: string): string | null {
  const alt = name.replace(/_/g, '[_-]');
  // Stops at a quote, comma or bracket too: `Running torch.distributed.run with args: ['…', '--x=v', …]`.
  const m = new RegExp(`--${alt}(?:=|\\s+)("[^"]*"|'[^']*'|[^\\s'",\\]]+)`).exec(args);
  return m ? m[1]!.replace(/^["']|["']$/g, '') : null;
}

/** Prefix formats seen on PyTorch lines → the version range that prints them, most telling first. */
const FORMAT_VERSIONS: { format: string; version: string; why: string }[] = [
  { format: 'cpp-new', version: '2.4+', why: 'C++ lines with a `[W1029 12:00:00.123456789 file.cpp:N]` prefix (2.4+)' },
  {
    format: 'glog-tid',
    version: '2.3–2.4',
    why: 'Python lines with the glog prefix carrying a thread id (`I0807 20:59:57.533000 140145133409408 …`: 2.3–2.4)',
  },
  {
    format: 'glog',
    version: '2.5+',
    why: 'Python lines with the glog prefix carrying a process id (`I1129 18:29:55.433000 943 file.py:N]`: 2.5+)',
  },
  {
    format: 'bracket',
    version: '2.1–2.2',
    why: 'Python lines with the `[YYYY-MM-DD HH:MM:SS,mmm] logger: [LEVEL]` prefix (2.1–2.2)',
  },
  { format: 'basic', version: '≤2.0', why: 'Python lines with the bare `LEVEL:logger:` prefix and no time (1.x–2.0)' },
  {
    format: 'torchelastic',
    version: '≤1.10',
    why: 'Python lines with the `[LEVEL] YYYY-MM-DD HH:MM:SS,mmm logger:` prefix (torchelastic 0.2, torch ≤ 1.10)',
  },
];

export function deriveFacts(events: LogEvent[], formats: Record<string, number>): JobFacts {
  const facts: JobFacts = {
    torchVersion: null,
    torchVersionEvidence: null,
    backend: null,
    nnodes: null,
    minNodes: null,
    maxNodes: null,
    nprocPerNode: null,
    rdzvEndpoint: null,
    rdzvId: null,
    rdzvConfigs: null,
    rdzvConfigsDefaulted: [],
    rdzvConfigsEvidence: null,
    worldSize: null,
    worldNodes: null,
    torchInstall: null,
    agentStoreShared: null,
    envTimeouts: {},
  };
  const setNum = (k: 'minNodes' | 'maxNodes' | 'nprocPerNode' | 'worldSize', v: string | null | undefined) => {
    if (facts[k] !== null || v === null || v === undefined) return;
    const n = boundedCount(v);
    if (n !== null && n > 0) facts[k] = n;
  };
  const confs: Record<string, string> = {};
  let backendHint: string | null = null;
  let staticByDefault = false;
  for (const e of events) {
    const fx = effectsOf(e.id);
    const f = fx.facts;
    if (fx.backend && (backendHint === null || fx.backend === 'etcd')) backendHint = fx.backend;
    if (!f) continue;
    const v = (key: string | undefined) => (key === undefined ? undefined : e.fields[key]);
    const backend = v(f.backend)?.trim();
    if (backend) facts.backend ??= backend;
    const endpoint = v(f.endpoint)?.trim();
    if (endpoint) facts.rdzvEndpoint ??= endpoint;
    const runId = v(f.runId)?.trim();
    if (runId && runId !== 'none') facts.rdzvId ??= runId;
    setNum('minNodes', v(f.minNodes));
    setNum('maxNodes', v(f.maxNodes));
    setNum('nprocPerNode', v(f.nprocPerNode));
    const dict = v(f.rdzvConfigsDict);
    const d = dict ? parsePyDict(dict) : null;
    if (d) {
      for (const [k, val] of Object.entries(d)) if (k !== 'rank') confs[k] ??= val;
      // LaunchConfig adds `'timeout': 900` (an int); what the user typed arrives as a quoted string.
      if (/'timeout':\s{0,4}\d/.test(dict!)) facts.rdzvConfigsDefaulted = ['timeout'];
      const at = e.blockLines?.[f.rdzvConfigsDict!];
      facts.rdzvConfigsEvidence ??= at
        ? { file: e.file, line: at.line, text: at.text }
        : { file: e.file, line: e.line, text: e.text };
    }
    const args = v(f.launchArgs);
    if (args) readLaunchArgs(facts, confs, args, e, setNum);
    if (args && TORCHRUN_COMMAND.test(args) && !/--rdzv[_-]backend|--standalone/.test(args)) staticByDefault = true;
    const world = boundedCount(v(f.worldNodes));
    if (world !== null && world > 0) facts.worldNodes = Math.max(facts.worldNodes ?? 0, world);
    const gws = parseIntList(v(f.globalWorldSizes), 1)[0];
    if (gws !== undefined) setNum('worldSize', String(gws));
    const shared = v(f.agentStore);
    if (shared === 'True' || shared === 'False') facts.agentStoreShared ??= shared === 'True';
    const envName = v(f.envTimeoutName);
    const envSecs = boundedSeconds(v(f.envTimeoutSeconds), 's');
    if (envName && envSecs !== null && envSecs > 0)
      facts.envTimeouts[envName] ??= { seconds: envSecs, evidence: { file: e.file, line: e.line, text: e.text } };
    const torchPath = v(f.torchPath);
    if (torchPath) facts.torchInstall ??= installOf(torchPath);
    const version = v(f.torchVersion) ?? e.fields.version2;
    if (version && !facts.torchVersion) {
      facts.torchVersion = version;
      facts.torchVersionEvidence = `${e.file}:${e.line}: ${e.text.trim().slice(0, 160)}`;
    }
  }
  facts.backend ??= backendHint;
  // torchrun's own default: a torchrun command that names no --rdzv-backend (nor --standalone) ran static.
  if (!facts.backend && staticByDefault) facts.backend = 'static';
  // The job's size: the fixed node count, or for an elastic job (min < max) the world that formed.
  const elastic = facts.minNodes !== null && facts.maxNodes !== null && facts.minNodes < facts.maxNodes;
  facts.nnodes = elastic ? (facts.worldNodes ?? facts.minNodes) : (facts.maxNodes ?? facts.worldNodes);
  // Each factor is bounded; their product is a count too (10⁶ nodes × 10⁶ workers is no world).
  if (facts.worldSize === null && facts.nnodes !== null && facts.nprocPerNode !== null)
    facts.worldSize = facts.nnodes * facts.nprocPerNode <= MAX_COUNT ? facts.nnodes * facts.nprocPerNode : null;
  if (Object.keys(confs).length) facts.rdzvConfigs = confs;
  if (!facts.torchVersion) {
    for (const fv of FORMAT_VERSIONS) {
      if ((formats[fv.format] ?? 0) > 0) {
        facts.torchVersion = fv.version;
        facts.torchVersionEvidence = `inferred: ${fv.why}`;
        break;
      }
    }
  }
  return facts;
}

/** A timeout variable assigned before the command (`VAR=N cmd`), as the shell passes it to that command only. */
const ENV_TIMEOUT_PREFIX = /(?:^|\s)(HCCL_(?:CONNECT|EXEC)_TIMEOUT)=['"]?(\d{1,7})['"]?(?=\s|$)/g;

/** The launcher itself on a traced or echoed command line (torchrun, `python -m torch.distributed.run|launch`). */
const TORCHRUN_COMMAND = /(?:^|[\s/])(?:torchrun|torch\.distributed\.(?:run|launch))(?:\s|$)/;

function readLaunchArgs(
  facts: JobFacts,
  confs: Record<string, string>,
  a: string,
  e: LogEvent,
  setNum: (k: 'minNodes' | 'maxNodes' | 'nprocPerNode', v: string | null | undefined) => void,
): void {
  facts.backend ??= cmdArg(a, 'rdzv_backend');
  facts.rdzvEndpoint ??= cmdArg(a, 'rdzv_endpoint');
  facts.rdzvId ??= cmdArg(a, 'rdzv_id');
  // --standalone: one node, c10d on a store of its own (the endpoint it picks differs by version).
  const standalone = /(?:^|\s)--standalone\b/.test(a);
  if (standalone) facts.backend ??= 'c10d';
  const nn = standalone ? '1' : cmdArg(a, 'nnodes');
  if (nn) {
    const [lo, hi] = nn.split(':');
    setNum('minNodes', lo);
    setNum('maxNodes', hi ?? lo);
  }
  setNum('nprocPerNode', cmdArg(a, 'nproc_per_node'));
  // `HCCL_CONNECT_TIMEOUT=1200 torchrun …`: the environment the command line itself sets for the launch.
  const launcher = a.search(TORCHRUN_COMMAND);
  for (const m of (launcher > 0 ? a.slice(0, launcher) : '').matchAll(ENV_TIMEOUT_PREFIX)) {
    const secs = boundedSeconds(m[2], 's');
    if (secs !== null && secs > 0)
      facts.envTimeouts[m[1]!] ??= { seconds: secs, evidence: { file: e.file, line: e.line, text: e.text } };
  }
  const conf = cmdArg(a, 'rdzv_conf');
  if (conf) {
    for (const [k, v] of Object.entries(parseRdzvConf(conf))) confs[k] ??= v;
    facts.rdzvConfigsEvidence ??= { file: e.file, line: e.line, text: e.text };
  }
  if (!facts.rdzvEndpoint) {
    const host = cmdArg(a, 'master_addr');
    const port = cmdArg(a, 'master_port');
    if (host) facts.rdzvEndpoint = port ? `${host}:${port}` : host;
  }
}

/** Debian/Ubuntu install their packages under /usr/lib/python3/dist-packages; pip elsewhere (site-packages, and
 * /usr/local/lib/python3.X/dist-packages for a system-wide pip on Debian). */
function installOf(path: string): TorchInstall {
  return { kind: /^\/usr\/lib\/python3(?:\.\d{1,2})?\/dist-packages$/.test(path) ? 'distro' : 'pip', path };
}

/** Torch version as `major.minor` when it can be read, for version-dependent rules. */
export function torchMinor(v: string | null): number | null {
  if (!v) return null;
  const m = /(\d{1,3})\.(\d{1,3})/.exec(v);
  if (!m) return null;
  return Number(m[1]) + Number(m[2]) / 100;
}
