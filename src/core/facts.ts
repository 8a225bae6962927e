import type { JobFacts, LogEvent } from './model';

// Job facts from what the logs printed: the launch-config block, the torchrun command line, the
// `Rendezvous complete` result, the console-script version, and — where nothing states it — the prefix
// format, which changed with the PyTorch version.

/** Python dict literal as torchrun prints it: `{'timeout': '30', 'rank': 0}` → {timeout: '30', rank: '0'}. */
export function parsePyDict(s: string): Record<string, string> | null {
  const t = s.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return null;
  const out: Record<string, string> = {};
  const re = /'([^']+)'\s*:\s*(?:'([^']*)'|"([^"]*)"|([^,}]+))/g;
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

/** `[0, 1]` → [0, 1]. */
export function parseIntList(s: string | undefined): number[] {
  if (!s) return [];
  return [...s.matchAll(/-?\d+/g)].map((m) => Number(m[0]));
}

function cmdArg(args: string, name: string): string | null {
  const alt = name.replace(/_/g, '[_-]');
  const m = new RegExp(`--${alt}(?:=|\\s+)("[^"]*"|'[^']*'|\\S+)`).exec(args);
  return m ? m[1]!.replace(/^["']|["']$/g, '') : null;
}

/** Prefix formats seen on PyTorch lines → the version range that prints them. */
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
  };
  const setNum = (k: 'minNodes' | 'maxNodes' | 'nprocPerNode' | 'worldSize', v: string | null | undefined) => {
    if (facts[k] !== null || v === null || v === undefined) return;
    const n = Number(v);
    if (Number.isFinite(n) && n > 0) facts[k] = n;
  };
  const confs: Record<string, string> = {};
  for (const e of events) {
    const f = e.fields;
    switch (e.id) {
      case 'launch-config': {
        facts.backend ??= f.rdzv_backend ?? null;
        facts.rdzvEndpoint ??= f.rdzv_endpoint?.trim() || null;
        if (f.run_id && f.run_id !== 'none') facts.rdzvId ??= f.run_id;
        setNum('minNodes', f.min_nodes);
        setNum('maxNodes', f.max_nodes);
        setNum('nprocPerNode', f.nproc_per_node);
        const d = f.rdzv_configs ? parsePyDict(f.rdzv_configs) : null;
        if (d) {
          for (const [k, v] of Object.entries(d)) if (k !== 'rank') confs[k] ??= v;
          // LaunchConfig adds `'timeout': 900` (an int); what the user typed arrives as a quoted string.
          if (/'timeout':\s*\d/.test(f.rdzv_configs!)) facts.rdzvConfigsDefaulted = ['timeout'];
          const at = e.blockLines?.rdzv_configs;
          facts.rdzvConfigsEvidence ??= at
            ? { file: e.file, line: at.line, text: at.text }
            : { file: e.file, line: e.line, text: e.text };
        }
        break;
      }
      case 'torchrun-command': {
        const a = f.args ?? '';
        facts.backend ??= cmdArg(a, 'rdzv_backend');
        facts.rdzvEndpoint ??= cmdArg(a, 'rdzv_endpoint');
        facts.rdzvId ??= cmdArg(a, 'rdzv_id');
        const nn = cmdArg(a, 'nnodes');
        if (nn) {
          const [lo, hi] = nn.split(':');
          setNum('minNodes', lo);
          setNum('maxNodes', hi ?? lo);
        }
        setNum('nprocPerNode', cmdArg(a, 'nproc_per_node'));
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
        break;
      }
      case 'standalone-info':
        facts.backend ??= f.backend ?? null;
        facts.rdzvEndpoint ??= f.endpoint ?? null;
        break;
      case 'nproc-info':
        setNum('nprocPerNode', f.nproc_per_node);
        break;
      case 'rdzv-complete': {
        const gws = parseIntList(f.global_world_sizes)[0];
        setNum('worldSize', gws === undefined ? null : String(gws));
        if (f.group_world_size) {
          setNum('minNodes', f.group_world_size);
          setNum('maxNodes', f.group_world_size);
        }
        break;
      }
      case 'dyn-joined':
        setNum('maxNodes', f.world);
        break;
      case 'torch-version-entry-point':
      case 'torch-version-stated':
        if (!facts.torchVersion) {
          facts.torchVersion = f.version ?? f.version2 ?? null;
          facts.torchVersionEvidence = `${e.file}:${e.line}: ${e.text.trim().slice(0, 160)}`;
        }
        break;
    }
  }
  if (!facts.backend) facts.backend = inferBackend(events);
  if (facts.maxNodes !== null) facts.nnodes = facts.maxNodes;
  if (facts.worldSize === null && facts.nnodes !== null && facts.nprocPerNode !== null)
    facts.worldSize = facts.nnodes * facts.nprocPerNode;
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

function inferBackend(events: LogEvent[]): string | null {
  const ids = new Set(events.map((e) => e.id));
  if (ids.has('etcd-joined') || ids.has('etcd-complete') || ids.has('etcd-timeout')) return 'etcd';
  if (
    ['dyn-attempt', 'dyn-joined', 'c10d-store-host', 'rdzv-connection-error', 'rdzv-timeout-error'].some((i) =>
      ids.has(i),
    )
  )
    return 'c10d';
  if (ids.has('static-store') || ids.has('master-wait-clients')) return 'static';
  return null;
}

/** Torch version as `major.minor` when it can be read, for version-dependent rules. */
export function torchMinor(v: string | null): number | null {
  if (!v) return null;
  const m = /(\d+)\.(\d+)/.exec(v);
  if (!m) return null;
  return Number(m[1]) + Number(m[2]) / 100;
}
