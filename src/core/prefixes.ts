import type { Clock } from './model';
import { makeClock, parseOffset } from './time';

// Line prefixes as data: each recogniser is a regex plus what its groups mean. Outer prefixes (added by
// collectors and launchers) are peeled repeatedly, outermost first; then at most one format prefix (the
// program that printed the line). Real posted logs stack them: `2025-03-27T…Z 3: [default0]:[rank3]:[W1029 …] …`.

export interface ParsedLine {
  clocks: Clock[];
  /** Slurm `srun -l` task label. */
  slurm: string | null;
  /** pdsh / collector / Ray host. */
  host: string | null;
  /** torchrun `--tee` role and local rank (`[default0]:`). */
  tee: { role: string; localRank: number } | null;
  /** `[rankN]:` prefixes, in order. */
  ranks: number[];
  /** The format prefix that matched (`glog`, `basic`, `cpp-new`, …) or null. */
  format: string | null;
  level: string | null;
  /** Python logger name or source path, when the format has one. */
  origin: string | null;
  /** The message after all prefixes (and after a `[c10d]` tag). */
  msg: string;
  /** glog's third field: a thread id in 2.3–2.4 (large), a process id from 2.5 (small). */
  glogId: number | null;
  outer: string[];
}

type Groups = Record<string, string | undefined>;

interface Recogniser {
  id: string;
  re: RegExp;
  apply: (g: Groups, out: ParsedLine, matched: string) => void;
}

const num = (s: string | undefined) => Number(s ?? 0);

function isoClock(source: string, g: Groups, text: string, zoned: boolean): Clock | null {
  return makeClock(source, text, {
    year: num(g.Y),
    month: num(g.M),
    day: num(g.D),
    hour: num(g.h),
    minute: num(g.m),
    second: num(g.s),
    frac: g.f,
    offsetMinutes: zoned ? parseOffset(g.z) : null,
  });
}

function pushClock(out: ParsedLine, c: Clock | null) {
  if (c) out.clocks.push(c);
}

const LEVELS: Record<string, string> = { V: 'DEBUG', I: 'INFO', W: 'WARNING', E: 'ERROR', C: 'CRITICAL', F: 'FATAL' };

// Hostnames as pdsh prints them: must carry a digit or a dot, so `RuntimeError: …` and `WARNING: …` are not hosts.
const PDSH_HOST = /^(?<host>(?=[\w.-]*\d)[A-Za-z0-9][\w.-]{0,62}): /;
const NOT_A_HOST =
  /^(?:[A-Z]{2}\d{4}|[EWIF]\d{4}|frame|line|step|epoch|rank|\d+\.\d+)$|[a-z][A-Z]|(?:Error|Exception|Warning)$/;

export const OUTER_PREFIXES: Recogniser[] = [
  {
    // kubectl logs --timestamps (RFC 3339, ns, UTC) and CloudWatch (offset + TAB).
    id: 'rfc3339',
    re: /^(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2})T(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})(?:[.,](?<f>\d{1,9}))?(?<z>Z|[+-]\d{2}:?\d{2}))[ \t]/,
    apply: (g, out) => pushClock(out, isoClock('rfc3339', g, g.t!, true)),
  },
  {
    // A collector's local time and host: `2025-03-27 17:31:09.952  host-23 `.
    id: 'collector',
    re: /^(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})\.(?<f>\d{3,6})) +(?<host>[A-Za-z][\w.-]*\d[\w.-]*) +(?=\S)/,
    apply: (g, out) => {
      pushClock(out, isoClock('collector', g, g.t!, false));
      out.host = g.host!;
    },
  },
  {
    // `| ts '[%Y-%m-%d %H:%M:%S]'` style stamping of a whole stream.
    id: 'ts-bracket',
    re: /^\[(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2})[ T](?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})(?:[.,](?<f>\d{1,6}))?)\] (?!\S+: \[(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\])/,
    apply: (g, out) => pushClock(out, isoClock('ts-bracket', g, g.t!, false)),
  },
  { id: 'slurm', re: /^(?<label>\d{1,5}): /, apply: (g, out) => void (out.slurm = g.label!) },
  {
    id: 'torchx',
    re: /^(?<app>[\w-]+)\/(?<idx>\d+) (?=\[)/,
    apply: (g, out) => void (out.host ??= `${g.app}/${g.idx}`),
  },
  {
    id: 'ray',
    re: /^\((?<actor>[\w.]+) pid=(?<pid>\d+)(?:, ip=(?<ip>[\d.:a-f]+))?\) /,
    apply: (g, out) => void (out.host ??= g.ip ?? `${g.actor}:${g.pid}`),
  },
  {
    id: 'tee',
    re: /^\[(?!rank\d+\])(?<role>[A-Za-z_][\w.-]*?)(?<lr>\d+)\]:/,
    apply: (g, out) => void (out.tee = { role: g.role!, localRank: num(g.lr) }),
  },
  { id: 'rank', re: /^\[rank(?<rank>\d+)\]: ?/, apply: (g, out) => void out.ranks.push(num(g.rank)) },
  {
    id: 'pdsh',
    re: PDSH_HOST,
    apply: (g, out) => void (out.host = g.host!),
  },
];

export const FORMAT_PREFIXES: Recogniser[] = [
  {
    // 2.3+ Python logging through torch._logging: no year, local time, µs field = ms × 1000.
    id: 'glog',
    re: /^(?<lvl>[VIWEC])(?<M>\d{2})(?<D>\d{2}) (?<t>(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})\.(?<f>\d{6})) (?<id>\d+) (?<path>\S+?\.py):(?<line>\d+)\](?: \[(?:\d+\/\d+(?:_\d+)?|__\w+)\])* ?/,
    apply: (g, out) => {
      pushClock(out, clockNoYear('glog', g, `${g.M}${g.D} ${g.t}`, 1));
      out.level = LEVELS[g.lvl!] ?? null;
      out.origin = g.path!;
      out.glogId = num(g.id);
    },
  },
  {
    // 2.4+ C++: month-day unpadded; the 9-digit fraction is CLOCK_MONOTONIC, so only whole seconds are wall-clock.
    id: 'cpp-new',
    re: /^\[(?<lvl>[IWEF])(?<md>\d{3,4}) (?<t>(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2}))\.(?<f>\d{9}) (?<file>[^\]]+?):(?<line>\d+)\] /,
    apply: (g, out) => {
      const md = num(g.md);
      const text = `${g.md} ${g.t}`;
      pushClock(
        out,
        makeClock('cpp-new', text, {
          year: null,
          month: Math.floor(md / 100),
          day: md % 100,
          hour: num(g.h),
          minute: num(g.m),
          second: num(g.s),
          resolutionMs: 1000,
        }),
      );
      out.level = LEVELS[g.lvl!] ?? null;
      out.origin = g.file!;
    },
  },
  {
    // 1.13 C++ through glog proper: `E20261129 18:11:37.385901 16422 socket.cpp:860] ` — has the year.
    id: 'cpp-glog-year',
    re: /^(?<lvl>[IWEF])(?<Y>\d{4})(?<M>\d{2})(?<D>\d{2}) (?<t>(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})\.(?<f>\d{6})) +(?<tid>\d+) (?<file>[^\]\s]+?):(?<line>\d+)\] /,
    apply: (g, out) => {
      pushClock(out, isoClock('cpp-glog-year', g, `${g.Y}${g.M}${g.D} ${g.t}`, false));
      out.level = LEVELS[g.lvl!] ?? null;
      out.origin = g.file!;
    },
  },
  {
    id: 'cpp-old',
    re: /^\[(?<lvl>[IWEF]) (?<file>[^\]]+?):(?<line>\d+)\] /,
    apply: (g, out) => {
      out.level = LEVELS[g.lvl!] ?? null;
      out.origin = g.file!;
    },
  },
  {
    // 2.1–2.2: `[2024-03-12 08:22:45,549] torch.distributed.launcher.api: [INFO] `.
    id: 'bracket',
    re: /^\[(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2}),(?<f>\d{3}))\] (?:\[[^\]]+\] )?(?<logger>[\w.]+): \[(?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL)\] ?/,
    apply: (g, out) => {
      pushClock(out, isoClock('bracket', g, g.t!, false));
      out.level = g.lvl!;
      out.origin = g.logger!;
    },
  },
  {
    // 1.13–2.0 root basicConfig: no time at all.
    id: 'basic',
    re: /^(?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL):(?<logger>[\w.]+):/,
    apply: (g, out) => {
      out.level = g.lvl!;
      out.origin = g.logger!;
    },
  },
  {
    // etcd rendezvous handler's own format.
    id: 'etcd',
    re: /^(?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL) (?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2}),(?<f>\d{3})) /,
    apply: (g, out) => {
      pushClock(out, isoClock('etcd', g, g.t!, false));
      out.level = g.lvl!;
    },
  },
  {
    // torchelastic 0.2: `[INFO] 2021-06-29 12:04:55,391 api: `.
    id: 'torchelastic',
    re: /^\[(?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL)\] (?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2}),(?<f>\d{3})) (?<logger>[\w.]+): /,
    apply: (g, out) => {
      pushClock(out, isoClock('torchelastic', g, g.t!, false));
      out.level = g.lvl!;
      out.origin = g.logger!;
    },
  },
  {
    // CANN plog: `[ERROR] HCCL(2717288,python3):2025-07-23-03:49:57.177.194 [hccl_socket_manager.cc:778] [2734049]`.
    id: 'hccl',
    re: /^\[(?<lvl>ERROR|WARNING|INFO|DEBUG|EVENT)\] (?<mod>[A-Z_]+)\((?<pid>\d+),(?<proc>[^)]*)\):(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2})-(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})\.(?<f>\d{3})\.\d{3}) \[(?<file>[^\]]+):(?<line>\d+)\] ?(?:\[\d+\])?/,
    apply: (g, out) => {
      pushClock(out, isoClock('hccl', g, g.t!, false));
      out.level = g.lvl!;
      out.origin = g.file!;
    },
  },
  {
    // torch_npu: `[ERROR] 2025-04-08-18:07:20 (PID:1292363, Device:1, RankID:1) ERR01100 …`.
    id: 'npu',
    re: /^\[(?<lvl>ERROR|WARNING|INFO|DEBUG)\] (?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2})-(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})) \(PID:(?<pid>\d+), Device:(?<dev>\d+), RankID:(?<rank>-?\d+)\) /,
    apply: (g, out) => {
      pushClock(out, isoClock('npu', g, g.t!, false));
      out.level = g.lvl!;
      if (Number(g.rank) >= 0) out.ranks.push(num(g.rank));
    },
  },
  {
    // CANN error code line: `EI0006: [PID: 1234] 2025-04-08-18:07:20.444.436 Getting socket times out. …`.
    id: 'cann-code',
    re: /^(?<code>[A-Z]{2}\d{4}): \[PID: (?<pid>\d+)\] (?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2})-(?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})\.(?<f>\d{3})\.\d{3}) /,
    apply: (g, out) => {
      pushClock(out, isoClock('cann', g, g.t!, false));
      out.level = 'ERROR';
      out.origin = g.code!;
    },
  },
  {
    // Hugging Face: `03/12/2024 08:22:45 - INFO - logger - msg`.
    id: 'hf',
    re: /^(?<M>\d{2})\/(?<D>\d{2})\/(?<Y>\d{4}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2}) - (?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL) - (?<logger>[\w.]+) - /,
    apply: (g, out, matched) => {
      pushClock(out, isoClock('hf', g, matched.slice(0, 19), false));
      out.level = g.lvl!;
      out.origin = g.logger!;
    },
  },
  {
    // Python logging as training scripts set it up: `%(asctime)s %(levelname)s %(name)s: %(message)s`.
    id: 'py-asctime',
    re: /^(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2}) (?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2}),(?<f>\d{3}))(?: - (?<logger2>[\w.]+) -)? (?<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL)(?: -)? (?:(?<logger>[\w.]+): |- )?/,
    apply: (g, out) => {
      pushClock(out, isoClock('py-asctime', g, g.t!, false));
      out.level = g.lvl!;
      out.origin = g.logger ?? g.logger2 ?? null;
    },
  },
  {
    // Any other line that starts with an ISO date-time (training scripts, DeepSpeed, fairseq, sglang…).
    id: 'iso',
    re: /^\[?(?<t>(?<Y>\d{4})-(?<M>\d{2})-(?<D>\d{2})[T ](?<h>\d{2}):(?<m>\d{2}):(?<s>\d{2})(?:[.,](?<f>\d{1,9}))?(?<z>Z|[+-]\d{2}:?\d{2})?)\]?(?:[ \t|]|$)/,
    apply: (g, out) => {
      const c = isoClock('iso', g, g.t!, Boolean(g.z));
      pushClock(out, c);
    },
  },
];

function clockNoYear(source: string, g: Groups, text: string, resolutionMs: number): Clock | null {
  return makeClock(source, text, {
    year: null,
    month: num(g.M),
    day: num(g.D),
    hour: num(g.h),
    minute: num(g.m),
    second: num(g.s),
    frac: g.f,
    resolutionMs,
  });
}

const C10D_TAG = /^\[c10d(?: - (?:debug|trace))?\] /;

export function parsePrefixes(line: string): ParsedLine {
  const out: ParsedLine = {
    clocks: [],
    slurm: null,
    host: null,
    tee: null,
    ranks: [],
    format: null,
    level: null,
    origin: null,
    msg: '',
    outer: [],
    glogId: null,
  };
  let rest = line;
  // Outer prefixes: peel while any matches (bounded; a line cannot usefully stack more than this).
  for (let depth = 0; depth < 10; depth++) {
    let matched = false;
    for (const r of OUTER_PREFIXES) {
      const m = r.re.exec(rest);
      if (!m) continue;
      if (r.id === 'pdsh' && NOT_A_HOST.test(m.groups!.host!)) continue;
      // A Slurm label or pdsh host only counts at the start of the line (outside any tee/rank prefix).
      if ((r.id === 'slurm' || r.id === 'pdsh') && (out.tee || out.ranks.length)) continue;
      r.apply(m.groups ?? {}, out, m[0]);
      out.outer.push(r.id);
      rest = rest.slice(m[0].length);
      matched = true;
      break;
    }
    if (!matched) break;
  }
  for (const r of FORMAT_PREFIXES) {
    const m = r.re.exec(rest);
    if (!m) continue;
    r.apply(m.groups ?? {}, out, m[0]);
    out.format = r.id;
    rest = rest.slice(m[0].length);
    // `[rank0]:` may follow a format prefix too (worker excepthook inside a glog line).
    let rm: RegExpExecArray | null;
    while ((rm = /^\[rank(\d+)\]: ?/.exec(rest))) {
      out.ranks.push(Number(rm[1]));
      rest = rest.slice(rm[0].length);
    }
    break;
  }
  const tag = C10D_TAG.exec(rest);
  if (tag) rest = rest.slice(tag[0].length);
  out.msg = rest.replace(/\s+$/, '');
  return out;
}
