import type { JobModel } from '../core/model';

// Redaction before a diagnosis leaves the machine. One Redactor per job, so a hostname becomes the same
// `node-NN` in every field it appears in (node ids, evidence text, reasoning, finding numbers, file names).

export type PathMode = 'basename' | 'placeholder' | 'keep';

export interface RedactOptions {
  /** Replace the hostnames the analysis found (node ids, hostnames, the rendezvous host) with node-00, node-01… */
  hostnames: boolean;
  /** Replace IPv4 and IPv6 addresses with `<ip>`. */
  ips: boolean;
  /** File paths in text: keep only the file name (`basename`), replace them with `<path>`, or keep them. */
  paths: PathMode;
  /** Include a few evidence lines (file name, line number, text). */
  evidence: boolean;
}

/**
 * Evidence lines are off by default: they are log text, and a link must carry none unless its sender chose to
 * send it (the brief: "share links and digests carry no log text by default"). Redaction makes them safer, not
 * safe — a line can hold a secret in a shape no rule knows. When the sender ticks them on, the share preview
 * shows each line exactly as the link carries it (ShareDialog's "Evidence lines"), after every rule below.
 */
export const DEFAULT_REDACTION: RedactOptions = { hostnames: false, ips: true, paths: 'basename', evidence: false };

export const IP_PLACEHOLDER = '<ip>';
export const PATH_PLACEHOLDER = '<path>';
export const SECRET_PLACEHOLDER = '<redacted>';

/**
 * Credentials and tokens, removed from everything that leaves, whatever the options: `user:pass@host` in URLs and
 * endpoints, `token=…` / `password: …` / `api_key=…` pairs, `Authorization: Bearer …`, AWS access key ids and
 * secret keys, GitHub and Hugging Face tokens. Each keeps what it is (`password=<redacted>`), never its value.
 */
const SECRET_RULES: { re: RegExp; to: string }[] = [
  // scheme://user:password@host and user:password@host:port (the password may be empty, the user not).
  { re: /(?<![\w.%+-])([\w.%+-]{1,64}):[^\s@/'"`]{0,256}@(?=[\w[])/g, to: `${SECRET_PLACEHOLDER}@` },
  {
    re: /\b((?:[\w-]{0,32}[_-])?(?:token|password|passwd|pwd|secret|api[_-]?key|access[_-]?key|auth|credentials?)(?:[_-][\w-]{0,32})?)(["']?\s{0,4}[=:]\s{0,4}["']?)[^\s"',;&)}\]]{1,512}/gi,
    to: `$1$2${SECRET_PLACEHOLDER}`,
  },
  { re: /\b(Bearer|Basic|token)\s{1,4}[A-Za-z0-9._~+/=-]{8,}/g, to: `$1 ${SECRET_PLACEHOLDER}` },
  { re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b/g, to: SECRET_PLACEHOLDER },
  {
    re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|hf_[A-Za-z0-9]{30,}|xox[abprs]-[A-Za-z0-9-]{10,})\b/g,
    to: SECRET_PLACEHOLDER,
  },
];

/** Credentials and tokens out of a text (see SECRET_RULES); returns the text and how many were replaced. */
export function redactSecrets(input: string): { text: string; count: number } {
  let count = 0;
  let text = input;
  for (const rule of SECRET_RULES)
    text = text.replace(rule.re, (...args: unknown[]) => {
      count++;
      const groups = args.slice(1, -2) as (string | undefined)[];
      return rule.to.replace(/\$(\d)/g, (_, k: string) => groups[Number(k) - 1] ?? '');
    });
  return { text, count };
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const H16 = '[0-9A-Fa-f]{1,4}';
/** IPv4 not glued to other digits, dots or letters (so versions like 1.13.0.1a stay). */
export const IPV4_RE = new RegExp(`(?<![\\w.])${IPV4}(?![\\w]|\\.\\d)`, 'g');
/**
 * IPv6: the full eight groups, or a `::` form (optionally ending in an IPv4). Bounded by non-word characters,
 * so C++ scopes (`c10d::TCPStore`, `std::string`) and clock times (`18:29:55`) are not addresses.
 */
export const IPV6_RE = new RegExp(
  `(?<![\\w:.])(?:(?:${H16}:){7}${H16}|(?:${H16}(?::${H16}){0,6})?::(?:(?:${H16}:){0,5}${IPV4}|${H16}(?::${H16}){0,6})?)(?![\\w:])`,
  'g',
);
/** An unbracketed `::` address with a port glued on (`fd00::17:29500`, as endpoints get printed). */
const IPV6_PORT_RE = new RegExp(
  `(?<![\\w:.])((?:${H16}(?::${H16}){0,6})?::(?:${H16}(?::${H16}){0,5})?):(\\d{1,5})(?![\\w:])`,
  'g',
);
/**
 * Absolute (`/a/b`, `~/a`, `./a`) and Windows (`C:\a\b`) paths; `:` ends a segment (`file.py:12`). Not followed
 * by another slash: store keys like `/default_pg/0//cpu//0/4` have empty segments, and name no file.
 */
const ABS_PATH_RE =
  /(?<![\w.~/-])(?:~|\.{1,2})?(?:\/[^\s'"`,;:()[\]{}<>|*?/]+)+\/?(?![/\w])|\b[A-Za-z]:\\(?:[^\s'"`\\<>|]+\\?)+/g;
/** Relative paths (`torch/distributed/run.py`, `logs/node0/`): two slashes, or one and a file extension. */
const REL_PATH_RE = /(?<![\w.~/-])[A-Za-z_][\w.-]*(?:\/[\w.-]+)+\/?(?![/\w])/g;
/** A host match may carry a DNS suffix (`.svc.cluster.local`), which goes too, unless it is a file extension. */
const FILE_EXT = new Set(
  'log txt out err gz json jsonl py cpp cc c h hpp so yaml yml csv tar zip sh md html stdout stderr'.split(' '),
);

export interface RedactionCounts {
  hostnames: number;
  ips: number;
  paths: number;
  /** Credentials and tokens (always removed). */
  credentials: number;
}

export class Redactor {
  readonly options: RedactOptions;
  /** Lower-cased hostname → pseudonym. */
  private readonly hosts = new Map<string, string>();
  private readonly hostRe: RegExp | null;
  private readonly seen = { hostnames: new Set<string>(), ips: new Set<string>(), paths: new Set<string>() };
  private credentials = 0;

  constructor(job: JobModel, options: RedactOptions) {
    this.options = options;
    const width = Math.max(2, String(Math.max(0, job.nodes.length)).length);
    const pseudo = (i: number) => `node-${String(i).padStart(width, '0')}`;
    const isName = (s: string | null | undefined): s is string => !!s && s.length >= 2 && /[A-Za-z]/.test(s);
    const containsIp = (s: string) => new RegExp(IPV4_RE.source).test(s) || new RegExp(IPV6_RE.source).test(s);
    job.nodes.forEach((n, i) => {
      // A node named by its address must not become `<ip>` like every other one: it gets a pseudonym.
      const forced = options.ips && (containsIp(n.id) || (n.hostname !== null && containsIp(n.hostname)));
      if (!options.hostnames && !forced) return;
      const names = [n.id, n.hostname, ...n.identity.filter((h) => h.kind === 'hostname').map((h) => h.value)];
      for (const name of names) {
        if (!name || this.hosts.has(name.toLowerCase())) continue;
        if (containsIp(name) || (options.hostnames && isName(name))) this.hosts.set(name.toLowerCase(), pseudo(i));
      }
    });
    if (options.hostnames) {
      const endpointHost = hostOf(job.job.rdzvEndpoint);
      if (isName(endpointHost) && !containsIp(endpointHost)) {
        const key = endpointHost.toLowerCase();
        const known = this.hosts.get(key) ?? this.hosts.get(key.split('.')[0]!);
        this.hosts.set(key, known ?? pseudo(job.nodes.length));
      }
    }
    const alts = [...this.hosts.keys()].sort((a, b) => b.length - a.length).map(escapeRe);
    this.hostRe = alts.length
      ? new RegExp(`(?<![A-Za-z0-9.-])(${alts.join('|')})((?:\\.[A-Za-z][A-Za-z0-9-]*)*)(?![A-Za-z0-9-])`, 'gi')
      : null;
  }

  /** The pseudonym (or the unchanged name) of a node id. */
  nodeId(id: string): string {
    const p = this.hosts.get(id.toLowerCase());
    if (p) {
      this.seen.hostnames.add(id.toLowerCase());
      return p;
    }
    return this.text(id);
  }

  /** Every rule, in order: credentials, hostnames, addresses, paths. */
  text(input: string): string {
    const secrets = redactSecrets(input);
    this.credentials += secrets.count;
    let out = secrets.text;
    if (this.hostRe) {
      out = out.replace(this.hostRe, (_m, host: string, suffix: string) => {
        this.seen.hostnames.add(host.toLowerCase());
        const p = this.hosts.get(host.toLowerCase())!;
        const last = suffix.slice(suffix.lastIndexOf('.') + 1).toLowerCase();
        return suffix && FILE_EXT.has(last) ? p + suffix : p;
      });
    }
    if (this.options.ips) {
      out = out.replace(IPV6_PORT_RE, (m, ip: string, port: string) => {
        if (!/\d/.test(ip)) return m;
        this.seen.ips.add(ip);
        return `${IP_PLACEHOLDER}:${port}`;
      });
      out = out.replace(IPV6_RE, (m) => {
        // A bare `::` (any address) names nothing; an all-letter `add::cafe` is a C++ scope, not an address.
        if (!/\d/.test(m)) return m;
        this.seen.ips.add(m);
        return IP_PLACEHOLDER;
      });
      out = out.replace(IPV4_RE, (m) => {
        this.seen.ips.add(m);
        return IP_PLACEHOLDER;
      });
    }
    if (this.options.paths !== 'keep') {
      const swap = (m: string) => {
        this.seen.paths.add(m);
        return this.options.paths === 'placeholder' ? PATH_PLACEHOLDER : basename(m);
      };
      out = out.replace(ABS_PATH_RE, swap);
      out = out.replace(REL_PATH_RE, (m) => (isRelativePath(m) ? swap(m) : m));
    }
    return out;
  }

  /** A file named in evidence: always its base name (the rest of the path says nothing the reader needs). */
  file(path: string): string {
    const base = basename(path);
    if (base !== path) this.seen.paths.add(path);
    return this.text(base);
  }

  counts(): RedactionCounts {
    return {
      hostnames: this.seen.hostnames.size,
      ips: this.seen.ips.size,
      paths: this.seen.paths.size,
      credentials: this.credentials,
    };
  }
}

export function basename(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.at(-1) ?? path;
}

function isRelativePath(m: string): boolean {
  const slashes = (m.match(/\//g) ?? []).length - (m.endsWith('/') ? 1 : 0);
  return slashes >= 2 || /\.[A-Za-z][\w]{0,7}$/.test(m);
}

function hostOf(endpoint: string | null): string | null {
  if (!endpoint) return null;
  const bracket = /^\[([^\]]+)\]/.exec(endpoint);
  if (bracket) return bracket[1]!;
  const colons = (endpoint.match(/:/g) ?? []).length;
  return colons === 1 ? endpoint.slice(0, endpoint.indexOf(':')) : endpoint;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
