import type { Clock } from '../model';

/** What the prefixes of one line told: its clocks, who printed it, and the message after them. */
export interface ParsedLine {
  clocks: Clock[];
  /** Slurm `srun -l` task label. */
  slurm: string | null;
  /** A host (or host-like label) a wrapper names: pdsh, a collector, Ray, torchx, a runner, grep's file. */
  host: string | null;
  /** The wrapper that names `host` splits streams (several nodes in one file). */
  hostKeysStream: boolean;
  /** `host` is a label, not a host name: grep's file name, a task number. It tells streams apart only. */
  hostIsLabel: boolean;
  /** torchrun `--tee` role and local rank (`[default0]:`, torchx `[0]:`). */
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
  /** Ids of the outer prefixes peeled, outermost first. */
  outer: string[];
  /** Text before the format prefix that no row knows (a wrapper seen for the first time), or null. */
  wrapper: string | null;
  /** The line carries a `[c10d]` tag (c10d's C++ logging): PyTorch distributed printed it. */
  c10dTag: boolean;
  /** The format is one PyTorch prints (glog, C++, bracket, basic, torchelastic); false for other programs' formats. */
  pytorchFormat: boolean;
}

export type Groups = Record<string, string | undefined>;

/** One prefix shape as data: its regex, what its groups mean, and real lines it was written from. */
export interface PrefixRow {
  id: string;
  re: RegExp;
  apply: (g: Groups, out: ParsedLine, matched: string) => void;
  /** Whole lines as real logs print them; the test checks the row matches each. */
  samples: string[];
  /** Several nodes in one file are told apart by this prefix. */
  splitsStream?: boolean;
  /** The PyTorch versions that print this format (for version inference; format rows only). */
  implies?: string;
  /** A version of `re` searched anywhere in the line, for PyTorch formats behind wrappers no row knows. */
  anywhere?: RegExp;
  /** A format PyTorch itself prints (its lines are PyTorch's whatever the logger says). */
  pytorch?: boolean;
  /** Only at the start of the line, before any tee/rank prefix (a task label or a host). */
  lineStartOnly?: boolean;
  /** Text kept at the start of the message (a CANN code the catalogue reads). */
  msgPrefix?: (g: Groups) => string;
  /** Refuse a match whose group fails this test (hostnames that are really words). */
  accept?: (g: Groups) => boolean;
  /**
   * The row's label without what `re` requires after it, for the lines of a file that showed the label in front
   * of a known line: the same job runner prints it before every traceback frame and launch-config field too.
   * `key` names the label (its app and replica, its host) so only labels the file has shown are taken.
   */
  continuation?: { re: RegExp; key: (g: Groups) => string };
}
