import { CATALOGUE, FRAME_STAGES, KEY_STAGES, isTorchEvidence, type CatalogueEntry } from './catalogue';
import { MAX_ERROR_FILE_BYTES, isErrorFile, readErrorFile } from './errorFile';
import { hintsFromPath, hostFromNodeId } from './identity';
import { LineScanner, anchorRegex, type ScanStats, type ScannedLine } from './lineScanner';
import type { FailureStage, FileExtract, FileProblem, IdentityHint, LogEvent, StreamExtract } from './model';
import { parsePrefixes, type ParsedLine } from './prefixes';

// Per-file extraction: scanner → prefixes → catalogue. Runs in a worker (browser) or in Node (CLI), one
// instance per file, fed chunk by chunk; the result is plain data for the job builder.

interface CompiledEntry {
  entry: CatalogueEntry;
  re: RegExp;
}

const COMPILED: CompiledEntry[] = CATALOGUE.map((entry) => ({ entry, re: new RegExp(entry.pattern) }));
const FRAME_RE = /File "(?<path>[^"]+)", line (?<lineno>\d+), in (?<fn>[\w<>]+)/g;
const KEY_STAGE_RES = KEY_STAGES.map((k) => ({ re: new RegExp(k.re), stage: k.stage }));
const ANCHORS_ALL = anchorRegex(CATALOGUE.flatMap((e) => e.anchors));
const UNTIL_LAUNCH = CATALOGUE.filter((e) => e.untilLaunch).map((e) => e.id);
const anchorCache = new Map<string, string>();
/** The combined anchor search without the anchors that only retired entries need. */
function anchorsWithout(retired: Set<string>): RegExp {
  const key = [...retired].sort().join(',');
  let src = anchorCache.get(key);
  if (src === undefined) {
    src = anchorRegex(CATALOGUE.filter((e) => !retired.has(e.id)).flatMap((e) => e.anchors)).source;
    anchorCache.set(key, src);
  }
  return new RegExp(src, 'g');
}
/** Stored event text is cut here; matching still sees the whole (line-limited) text. */
const MAX_EVENT_TEXT = 2000;
/** How far back (lines) a traceback's frames still belong to an exception line. */
const TRACEBACK_REACH = 400;
/** Watchdog timeouts on the first collectives are startup trouble; later ones are training hangs. */
const STARTUP_SEQ_MAX = 5;
const HEAD_LINES = 40;
const PID_MAX = 4_194_304;
/** In a file holding several nodes, this many lines without a new node let anchors be retired file-wide. */
const NEW_STREAM_QUIET_LINES = 2000;
const TORCH_IDS = new Set(CATALOGUE.filter(isTorchEvidence).map((e) => e.id));
const TRACEBACK_START = 'Traceback (most recent call last)';

interface StreamState {
  x: StreamExtract;
  frames: string[];
  tracebackLine: number;
  lastEventByID: Map<string, LogEvent>;
  facts: Record<string, string>;
  /** The stream is keyed by a host prefix (pdsh, collector), not a Slurm task label. */
  hostKey: boolean;
  /** Entries this stream no longer needs: once-only entries already matched, pre-launch ones after launch. */
  retired: Set<string>;
}

export interface Extractor {
  push(chunk: Uint8Array): void;
  finish(): FileExtract;
}

export interface ExtractorOptions {
  mtimeMs?: number | null;
  maxLineChars?: number;
}

export function createExtractor(file: string, opts: ExtractorOptions = {}): Extractor {
  const streams = new Map<string, StreamState>();
  // Once the first step is seen, its (frequent) anchors stop being searched for.
  const anchors = new RegExp(ANCHORS_ALL.source, 'g');
  // eslint-disable-next-line prefer-const -- the line callback refers to it before construction ends
  let scanner: LineScanner;

  // Anchors that only retired entries need stop being searched for. With one stream per file that is as soon
  // as the stream retires them; a labelled file (several nodes in one) waits until every stream has retired
  // them and no new stream has appeared for a while, as another node may still need them.
  let currentLine = 0;
  let lastNewStream = 0;
  let pendingRetire = false;
  let anchorsRetired = new Set<string>();
  const retireAnchors = (line: number) => {
    const all = [...streams.values()].map((x) => x.retired);
    const common = new Set([...all[0]!].filter((id) => all.every((r) => r.has(id))));
    if (streams.size > 1 && line - lastNewStream < NEW_STREAM_QUIET_LINES) {
      pendingRetire = common.size > anchorsRetired.size;
      return;
    }
    pendingRetire = false;
    if (common.size === anchorsRetired.size) return;
    anchorsRetired = common;
    scanner.setAnchors(anchorsWithout(common));
  };

  const stream = (key: string): StreamState => {
    let s = streams.get(key);
    if (!s) {
      s = {
        x: {
          file,
          stream: key,
          events: [],
          identity: [],
          firstLine: null,
          lastLine: null,
          lineCount: 0,
          formats: {},
        },
        frames: [],
        tracebackLine: -1,
        lastEventByID: new Map(),
        facts: {},
        hostKey: false,
        retired: new Set(),
      };
      streams.set(key, s);
      lastNewStream = currentLine;
    }
    return s;
  };

  // A torchelastic error.json is read whole (it is small) and its call stack fed through like log lines.
  const errorFile = isErrorFile(file);
  const errorChunks: Uint8Array[] = [];
  let errorBytes = 0;
  const readErrorFileChunks = () => {
    if (!Number.isFinite(errorBytes)) return null;
    const all = new Uint8Array(errorBytes);
    let at = 0;
    for (const c of errorChunks) {
      all.set(c, at);
      at += c.length;
    }
    const doc = readErrorFile(new TextDecoder().decode(all));
    if (!doc) return null;
    const s = stream('');
    doc.lines.forEach((text, i) => {
      const p = parsePrefixes(text);
      if (doc.clock) p.clocks = [doc.clock, ...p.clocks];
      const l: ScannedLine = { line: 1, text, cut: false };
      if (i === 0) s.x.firstLine = { line: 1, text: cutText(text), clocks: p.clocks };
      matchLine(s, l, p);
    });
    st0.lines = 1;
    st0.bytes = errorBytes;
    return doc;
  };
  const st0 = { lines: 0, bytes: 0 };

  const onLine = (l: ScannedLine) => {
    currentLine = l.line;
    if (pendingRetire && l.line - lastNewStream >= NEW_STREAM_QUIET_LINES) retireAnchors(l.line);
    const p = parsePrefixes(l.text);
    const key = p.slurm ?? (p.outer.includes('pdsh') || p.outer.includes('collector') ? (p.host ?? '') : '');
    const s = stream(key);
    if (key !== '' && p.slurm === null) s.hostKey = true;
    if (s.x.firstLine === null && l.text.trim() !== '')
      s.x.firstLine = { line: l.line, text: cutText(l.text), clocks: p.clocks };
    if (key !== '') s.x.lastLine = { line: l.line, text: cutText(l.text), clocks: p.clocks };
    const inner = escapedLines(l.text);
    if (inner) {
      // A traceback quoted in JSON (`"Traceback …\n  File \"…\"…"`): read its lines as lines, dated like the host line.
      for (const text of inner) {
        const ip = parsePrefixes(text);
        ip.clocks = [...p.clocks, ...ip.clocks];
        matchLine(s, { line: l.line, text, cut: l.cut }, ip);
      }
      return;
    }
    matchLine(s, l, p);
  };

  const matchLine = (s: StreamState, l: ScannedLine, p: ParsedLine) => {
    const text = l.text;
    // Traceback structure first: a collapsed traceback may hold frames and the exception on one line.
    if (text.includes(TRACEBACK_START)) {
      s.frames = [];
      s.tracebackLine = l.line;
    }
    if (text.includes('File "')) {
      FRAME_RE.lastIndex = 0;
      let fm: RegExpExecArray | null;
      while ((fm = FRAME_RE.exec(text)) !== null) s.frames.push(fm.groups!.fn!);
      if (s.tracebackLine < 0) s.tracebackLine = l.line;
    }
    const hit = firstEntry(text, p.msg, s.retired);
    if (!hit) return;
    const { entry, m } = hit;
    const fields = groupsOf(m);
    if (p.format) {
      // Linux pids stay below 2^22; a larger glog id is a thread id, which 2.3–2.4 printed.
      const f = p.format === 'glog' && p.glogId !== null && p.glogId > PID_MAX ? 'glog-tid' : p.format;
      s.x.formats[f] = (s.x.formats[f] ?? 0) + 1;
    }
    if (entry.kind === 'field') {
      const owner = s.lastEventByID.get(entry.blockOf!);
      if (owner && l.line - owner.line <= (entry.maxDistance ?? 20) && fields.key && !(fields.key in owner.fields)) {
        owner.fields[fields.key] = fields.val ?? '';
        (owner.blockLines ??= {})[fields.key] = { line: l.line, text: cutText(l.text) };
      }
      return;
    }
    if (entry.kind === 'fact') {
      for (const [k, v] of Object.entries(fields)) s.facts[k] ??= v;
      s.x.events.push(makeEvent(entry, l, p, fields));
      return;
    }
    const ev = makeEvent(entry, l, p, fields);
    if (entry.stage) {
      ev.stage = refineStage(entry, s, l.line, fields);
      ev.role = refineRole(entry, s, l.line, fields);
      if (s.frames.length && l.line - s.tracebackLine <= TRACEBACK_REACH) ev.frames = [...s.frames];
    }
    s.x.events.push(ev);
    s.lastEventByID.set(entry.id, ev);
    const before = s.retired.size;
    if (entry.once) s.retired.add(entry.id);
    if (entry.kind === 'launch') for (const id of UNTIL_LAUNCH) s.retired.add(id);
    if (s.retired.size !== before) retireAnchors(l.line);
  };

  const makeEvent = (
    entry: CatalogueEntry,
    l: ScannedLine,
    p: ParsedLine,
    fields: Record<string, string>,
  ): LogEvent => {
    const ev: LogEvent = {
      id: entry.id,
      kind: entry.kind as LogEvent['kind'],
      file,
      line: l.line,
      text: cutText(l.text),
      clocks: p.clocks,
      fields,
    };
    if (p.ranks.length) ev.ranks = p.ranks;
    if (p.tee) ev.localRank = p.tee.localRank;
    return ev;
  };

  const refineStage = (
    entry: CatalogueEntry,
    s: StreamState,
    line: number,
    fields: Record<string, string>,
  ): FailureStage => {
    const base = entry.stage!;
    const framesFresh = s.frames.length > 0 && line - s.tracebackLine <= TRACEBACK_REACH;
    const fromFrames = (): FailureStage | null => {
      if (!framesFresh) return null;
      // Innermost frames are last; the deepest recognised function decides.
      for (let i = s.frames.length - 1; i >= 0; i--) {
        const fn = s.frames[i]!;
        const hit = FRAME_STAGES.find((f) => f.fns.includes(fn));
        if (hit) return hit.stage;
      }
      return null;
    };
    switch (entry.refine) {
      case 'frames': {
        const st = fromFrames();
        if (st && (!entry.refineTo || entry.refineTo.includes(st))) return st;
        return base;
      }
      case 'keys': {
        const keys = fields.keys ?? '';
        const hit = KEY_STAGE_RES.find((k) => k.re.test(keys));
        return hit?.stage ?? fromFrames() ?? base;
      }
      case 'seq':
        return Number(fields.seq) <= STARTUP_SEQ_MAX ? 'comm-init' : 'collective-timeout';
      default:
        return base;
    }
  };

  const refineRole = (entry: CatalogueEntry, s: StreamState, line: number, fields: Record<string, string>) => {
    if (entry.primaryIfAtLeast) {
      const v = Number(fields[entry.primaryIfAtLeast.field]);
      if (v >= entry.primaryIfAtLeast.value) return 'primary';
    }
    if (entry.refine === 'inner') {
      // The exception chain since the traceback began: a lost connection means the host went away.
      const since = Math.max(0, s.tracebackLine - TRACEBACK_REACH);
      const recent = s.x.events.filter((e) => e.line >= since && e.line <= line);
      const lost = recent.some((e) => e.id === 'connection-lost');
      const connectTimeout = recent.some((e) => e.id === 'client-connect-timeout');
      if (lost && !connectTimeout) return 'consequence';
    }
    return entry.role ?? 'primary';
  };

  scanner = new LineScanner(anchors, onLine, { maxLineChars: opts.maxLineChars, headLines: HEAD_LINES });

  return {
    push(chunk) {
      if (!errorFile) scanner.push(chunk);
      else if (errorBytes + chunk.length <= MAX_ERROR_FILE_BYTES) {
        errorChunks.push(chunk.slice());
        errorBytes += chunk.length;
      } else errorBytes = Infinity;
    },
    finish() {
      const st = scanner.finish();
      const errorDoc = errorFile ? readErrorFileChunks() : null;
      const pathHints = hintsFromPath(file);
      const out: StreamExtract[] = [];
      if (streams.size === 0) stream('');
      for (const s of streams.values()) {
        if (s.x.stream === '') {
          if (st.first)
            s.x.firstLine = {
              line: st.first.line,
              text: cutText(st.first.text),
              clocks: parsePrefixes(st.first.text).clocks,
            };
          if (st.last)
            s.x.lastLine = {
              line: st.last.line,
              text: cutText(st.last.text),
              clocks: parsePrefixes(st.last.text).clocks,
            };
          s.x.lineCount = st.lines;
        }
        // A labelled stream with no recognised line of its own is noise of the label, not a node.
        if (s.x.stream !== '' && s.x.events.length === 0) continue;
        s.x.identity = [...(s.x.stream === '' || streams.size === 1 ? pathHints : []), ...contentHints(s)];
        if (s.x.stream !== '' && s.hostKey) {
          s.x.identity.push({
            kind: 'hostname',
            value: s.x.stream,
            evidence: `line prefix "${s.x.stream}" in ${file} (pdsh / log collector)`,
            confidence: 'medium',
          });
        }
        if (s.x.stream !== '') {
          s.x.identity.push({
            kind: 'label',
            value: `${file}#${s.x.stream}`,
            evidence: `line label "${s.x.stream}:" in ${file}`,
            confidence: 'high',
          });
        }
        out.push(s.x);
      }
      // Drop the unlabelled remainder of a labelled file when it holds nothing of its own.
      const useful = out.filter((x) => x.stream !== '' || x.events.length > 0 || out.length === 1);
      const torchy = useful.some((x) => x.events.some((e) => TORCH_IDS.has(e.id)));
      if (errorDoc) {
        st.lines = st0.lines;
        st.bytes = st0.bytes;
      }
      const problem =
        errorFile && !errorDoc
          ? { code: 'not-a-log' as const, message: `${file} is not a torchelastic error file (unreadable JSON)` }
          : errorDoc
            ? null
            : problemOf(file, st, torchy);
      return {
        file,
        bytes: st.bytes,
        lines: st.lines,
        longLines: st.longLines,
        invalidUtf8: st.invalidUtf8,
        mtimeMs: opts.mtimeMs ?? null,
        streams: problem ? [] : useful,
        problem,
      };
    },
  };
}

/** The first catalogue entry (in catalogue order) whose anchor is on the line and whose pattern matches the message. */
function firstEntry(
  text: string,
  msg: string,
  retired: Set<string>,
): { entry: CatalogueEntry; m: RegExpExecArray } | null {
  for (const { entry, re } of COMPILED) {
    if (entry.kind === 'frame' || entry.kind === 'traceback') continue;
    if (retired.has(entry.id)) continue;
    if (!entry.anchors.some((a) => text.includes(a))) continue;
    const m = re.exec(msg);
    if (m) return { entry, m };
  }
  return null;
}

/** What one line is, on its own: its prefixes and the catalogue entry it matches (evidence highlighting, tests). */
export function recogniseLine(text: string): { parsed: ParsedLine; id: string | null; fields: Record<string, string> } {
  const parsed = parsePrefixes(text);
  const hit = firstEntry(text, parsed.msg, new Set());
  return { parsed, id: hit?.entry.id ?? null, fields: hit ? groupsOf(hit.m) : {} };
}

/** The lines of a traceback quoted with `\n` escapes inside one line (JSON error reports), or null. */
function escapedLines(text: string): string[] | null {
  if (!text.includes('\\n') || !(text.includes('Traceback') || text.includes('File \\"'))) return null;
  return text
    .split('\\n')
    .map((t) => t.replace(/\\"/g, '"').replace(/\\\\/g, '\\'))
    .filter((t) => t.trim() !== '');
}

function problemOf(file: string, st: ScanStats, torchy: boolean): FileProblem | null {
  if (st.packed)
    return {
      code: 'archive-error',
      message: `${file} is ${st.packed}-compressed or an archive; unpack it first (or drop it as .gz/.zip/.tar.gz)`,
    };
  if (st.binary) return { code: 'binary', message: `${file} is not text (binary content); it was skipped` };
  if (st.bytes === 0) return { code: 'empty', message: `${file} is empty` };
  if (/\.json$/i.test(file)) return { code: 'not-a-log', message: `${file} is a JSON file, not a log` };
  if (!torchy)
    return {
      code: 'not-a-log',
      message: `${file} holds no torchrun or torch.distributed lines (${st.lines} lines read)`,
    };
  return null;
}

function groupsOf(m: RegExpExecArray): Record<string, string> {
  const out: Record<string, string> = {};
  if (m.groups) for (const [k, v] of Object.entries(m.groups)) if (v !== undefined) out[k] = v;
  return out;
}

function cutText(t: string): string {
  const s = t.trimEnd();
  return s.length > MAX_EVENT_TEXT ? s.slice(0, MAX_EVENT_TEXT) + ' …' : s;
}

/** What the recognised lines say about who this stream is. */
function contentHints(s: StreamState): IdentityHint[] {
  const hints: IdentityHint[] = [];
  const seen = new Set<string>();
  const add = (h: IdentityHint) => {
    const k = `${h.kind}:${h.value}`;
    if (seen.has(k)) return;
    seen.add(k);
    hints.push(h);
  };
  for (const e of s.x.events) {
    const at = `line ${e.line}`;
    if ((e.id === 'dyn-attempt' || e.id === 'dyn-joined' || e.id === 'dyn-closed') && e.fields.node) {
      add({
        kind: 'hostname',
        value: hostFromNodeId(e.fields.node),
        evidence: `${at}: node id '${e.fields.node}'`,
        confidence: 'high',
      });
    }
    if (e.id === 'dyn-joined' && e.fields.rank) {
      add({
        kind: 'group-rank',
        value: e.fields.rank,
        evidence: `${at}: joined … as rank ${e.fields.rank}`,
        confidence: 'high',
      });
    }
    if (e.id === 'child-failed' && e.fields.host) {
      add({
        kind: 'hostname',
        value: e.fields.host.trim(),
        evidence: `${at}: ChildFailedError host : ${e.fields.host}`,
        confidence: 'high',
      });
    }
    if (e.id === 'rdzv-complete' && e.fields.group_rank) {
      add({
        kind: 'group-rank',
        value: e.fields.group_rank,
        evidence: `${at}: Rendezvous complete, group_rank=${e.fields.group_rank}`,
        confidence: 'high',
      });
    }
    if (e.id === 'launch-config' && e.fields.rdzv_configs) {
      const r = /'rank':\s*(\d+)/.exec(e.fields.rdzv_configs);
      const cfgAt = `line ${e.blockLines?.rdzv_configs?.line ?? e.line}`;
      if (r)
        add({
          kind: 'node-rank',
          value: r[1]!,
          evidence: `${cfgAt}: rdzv_configs ${e.fields.rdzv_configs} (static --node_rank)`,
          confidence: 'high',
        });
    }
    if (e.id === 'torchrun-command') {
      const r = /--node[_-]rank[= ](\d+)/.exec(e.fields.args ?? '');
      if (r)
        add({ kind: 'node-rank', value: r[1]!, evidence: `${at}: torchrun --node_rank=${r[1]}`, confidence: 'high' });
    }
    if (e.id === 'c10d-store-host') {
      add({ kind: 'store-host', value: 'c10d', evidence: `${at}: ${e.text.slice(-80)}`, confidence: 'high' });
    }
  }
  return hints;
}
