import {
  CATALOGUE,
  ENTRY,
  isLauncherText,
  isTorchEvidence,
  type CatalogueEntry,
  type IdentityField,
} from '../catalogue';
import { DigestSniffer } from '../digest';
import { MAX_ERROR_FILE_BYTES, isErrorFile, readErrorFile } from '../errorFile';
import { sentence } from '../../i18n/sentence';
import { hint, hintsFromPath, hostFromNodeId } from '../identity';
import { LineScanner, streamLabelProbe, type ScannedLine } from '../lineScanner';
import { Dewrap } from '../scan/dewrap';
import type { FailureStage, FileExtract, IdentityHint, LogEvent, StreamExtract } from '../model';
import { WrapperMemory, parsePrefixes, type ParsedLine } from '../prefixes';
import { AgentRoute, isAgentKey } from './agentRoute';
import { splitAgentTurns } from './agentTurns';
import { contentHints, identityValue } from './identity';
import { everEnded, keepEvent, sawStage, settleKept } from './keep';
import { firstEntry, firstEntryOf, leftmostEntry, type Hit } from './match';
import { errorFileProblem, problemOf } from './problems';
import { quotedLines } from './records';
import { newStream, noteAgent, notePrefixHost, type StreamState } from './stream';
import {
  agentFrames,
  closeDump,
  closeTraceback,
  framesFresh,
  inCollective,
  readTraceback,
  refineRole,
  refineStage,
  stageFromFrames,
  torchFrames,
  torchHomeOf,
} from './traceback';

// Per-file extraction: scanner → prefixes → catalogue → stream state. Runs in a worker (browser) or in Node
// (CLI), one instance per file, fed chunk by chunk; the result is plain data for the job builder.

/** Stored event text is cut here; matching still sees the whole (line-limited) text. */
const MAX_EVENT_TEXT = 2000;
const HEAD_LINES = 40;
const PID_MAX = 4_194_304;
/** Reasons a stream is torch evidence, kept for the report (the first few are enough). */
const MAX_EVIDENCE_REASONS = 4;
/** Frames one line must hold to be a collapsed paste (a line of its own holds one frame at most). */
const MIN_COLLAPSED_FRAMES = 2;
/** Messages read from one collapsed line. */
const MAX_COLLAPSED_MESSAGES = 16;
/** Entries that head a block of field lines (the launch config, the rendezvous result). */
const BLOCK_HEADS = new Set(CATALOGUE.flatMap((e) => (e.blockOf ? [e.blockOf] : [])));
const UNTIL_LAUNCH = CATALOGUE.filter((e) => e.untilLaunch).map((e) => e.id);
const ONCE = CATALOGUE.filter((e) => e.once).map((e) => e.id);
const TORCH_ORIGIN = /(?:^|[\\/.])torch[\\/.]distributed(?:[\\/.]|$)/;

const anchorCache = new Map<string, string[]>();
/** The anchor literals the scanner searches for, without those that only retired entries need (one array per set). */
function anchorsWithout(retired: ReadonlySet<string>): string[] {
  const key = [...retired].sort().join(',');
  let list = anchorCache.get(key);
  if (list === undefined) {
    list = CATALOGUE.filter((e) => !retired.has(e.id)).flatMap((e) => e.anchors);
    anchorCache.set(key, list);
  }
  return list;
}

export interface Extractor {
  push(chunk: Uint8Array): void;
  /** The extract of this file itself (for a skewscope digest: the digest file, with its problem if unreadable). */
  finish(): FileExtract;
  /** What the file brings to the job: its own extract, or the extracts a digest carries. Call this or finish(). */
  finishAll(): FileExtract[];
}

export interface ExtractorOptions {
  mtimeMs?: number | null;
  maxLineChars?: number;
}

/** The anchors found on a line: indices into the anchor list the scanner searched it with. */
interface FoundAnchors {
  list: readonly string[];
  indices: readonly number[];
}

function cutText(t: string): string {
  const s = t.trimEnd();
  return s.length > MAX_EVENT_TEXT ? s.slice(0, MAX_EVENT_TEXT) + ' …' : s;
}

function noteEvidence(s: StreamState, why: string): void {
  if (s.x.torchEvidence.length < MAX_EVIDENCE_REASONS) s.x.torchEvidence.push(why);
}

/** srun's own report of one task (`srun: error: gpu-s01: task 0: Exited with exit code 1`), printed unlabelled. */
const SRUN_TASK = /^srun: error: [\w.-]{1,200}: task (\d{1,5}): /;

/**
 * The stream a line belongs to: its Slurm label, or the host a stream-splitting wrapper names. srun prints its
 * reports of a task without the `-l` label: they go to that task's stream when the file has one.
 */
function streamKeyOf(p: ParsedLine, streams: Map<string, unknown>): string {
  if (p.slurm !== null) return p.slurm;
  if (p.hostKeysStream && p.host) return p.host;
  const task = streams.size > 1 && p.msg.startsWith('srun: error: ') ? SRUN_TASK.exec(p.msg)?.[1] : undefined;
  return task !== undefined && streams.has(task) ? task : '';
}

export function createExtractor(file: string, opts: ExtractorOptions = {}): Extractor {
  const streams = new Map<string, StreamState>();
  const wrappers = new WrapperMemory();
  /** Pieces of lines a terminal hard-wrapped, joined before the scan (scan/dewrap.ts). */
  const dewrap = new Dewrap();
  const agents = new AgentRoute(file);
  const agentEnded = (key: string) => {
    const s = streams.get(key);
    return s !== undefined && everEnded(s);
  };
  // eslint-disable-next-line prefer-const -- the line callback refers to it before construction ends
  let scanner: LineScanner;
  /** The anchors being searched for: a line's anchor indices point into this list. */
  let anchorList = anchorsWithout(new Set());

  // Anchors that only retired entries need stop being searched for, from the next line on, once every stream
  // that counts has retired them. In a labelled file (several nodes in one) the scanner's stream probe hands on
  // the first line of each new label, so a node that shows up later gets every anchor back at once; the
  // unlabelled remainder of a labelled file counts only once it has events of its own. Counts per entry keep
  // this cheap with thousands of streams (an entry a stream takes back must decrement its count).
  let labelled = false;
  const counting = new Set<StreamState>();
  const retiredBy = new Map<string, number>();
  let anchorsRetired: ReadonlySet<string> = new Set<string>();
  const countStream = (s: StreamState, on: boolean) => {
    if (counting.has(s) === on) return;
    if (on) counting.add(s);
    else counting.delete(s);
    for (const id of s.retired) retiredBy.set(id, (retiredBy.get(id) ?? 0) + (on ? 1 : -1));
  };
  const retire = (s: StreamState, id: string) => {
    if (s.retired.has(id)) return;
    s.retired.add(id);
    if (counting.has(s)) retiredBy.set(id, (retiredBy.get(id) ?? 0) + 1);
  };
  const revive = (s: StreamState, id: string): boolean => {
    if (!s.retired.delete(id)) return false;
    if (counting.has(s)) retiredBy.set(id, retiredBy.get(id)! - 1);
    return true;
  };
  /** Search for the anchors of the entries some counting stream still needs (a revived entry at once). */
  const retireAnchors = () => {
    const common = new Set<string>();
    if (counting.size > 0) for (const [id, n] of retiredBy) if (n === counting.size) common.add(id);
    if (common.size === anchorsRetired.size && [...common].every((id) => anchorsRetired.has(id))) return;
    anchorsRetired = common;
    anchorList = anchorsWithout(common);
    scanner.setAnchors(anchorList);
  };
  /** The unlabelled remainder of a labelled file counts from its first event on. */
  const ownEvent = (s: StreamState) => {
    if (counting.has(s)) return;
    countStream(s, true);
    retireAnchors();
  };

  const stream = (key: string): StreamState => {
    let s = streams.get(key);
    if (!s) {
      s = newStream(file, key);
      streams.set(key, s);
      if (key !== '' && !labelled) {
        labelled = true;
        scanner.setStreamProbe(streamLabelProbe());
        const rest = streams.get('');
        if (rest && rest.x.events.length === 0) countStream(rest, false);
      }
      if (key !== '' || !labelled) countStream(s, true);
      retireAnchors();
    }
    return s;
  };

  /**
   * Prefixes that show PyTorch's distributed code printed the line, whatever the message. Worker prefixes count
   * unless another program's sign is in the file (they count once the file is read, like a logger's name):
   * PyTorch's own test harness prints `[rank1]:` too, and a program built on torch's modules logs under its names.
   */
  const prefixEvidence = (s: StreamState, l: ScannedLine, p: ParsedLine) => {
    if (s.x.torchEvidence.length >= MAX_EVIDENCE_REASONS) return;
    if (p.c10dTag) noteEvidence(s, `line ${l.line}: a [c10d] tag`);
    else if (s.weakEvidence.length >= MAX_EVIDENCE_REASONS) return;
    else if (p.tee) s.weakEvidence.push(`line ${l.line}: torchrun's [${p.tee.role}${p.tee.localRank}]: worker prefix`);
    else if (p.ranks.length) s.weakEvidence.push(`line ${l.line}: a [rank${p.ranks[0]}]: prefix`);
    else if (p.origin && TORCH_ORIGIN.test(p.origin)) s.weakEvidence.push(`line ${l.line}: logged by ${p.origin}`);
  };

  const onLine = (scanned: ScannedLine) => {
    const at = dewrap.joined > 0 ? { ...scanned, line: dewrap.physical(scanned.line) } : scanned;
    const unnumbered = wrappers.unnumber(at.text, at.line);
    const l = unnumbered === at.text ? at : { ...at, text: unnumbered };
    const searched = anchorList;
    const p = parsePrefixes(l.text, wrappers);
    const retiredBefore = anchorsRetired;
    const key = streamKeyOf(p, streams);
    const s = stream(key === '' ? agents.route(p, agentEnded) : key);
    // A new stream brought anchors back: this line was searched without them, so look for all of them.
    const anchors = anchorsRetired !== retiredBefore ? null : { list: searched, indices: l.anchors };
    if (p.hostKeysStream && p.slurm === null && p.host && !p.hostIsLabel) s.hostKey = true;
    else if (p.host && p.outer.includes('nccl')) notePrefixHost(s, p.host);
    if (s.x.firstLine === null && l.text.trim() !== '')
      s.x.firstLine = { line: l.line, text: cutText(l.text), clocks: p.clocks };
    if (s.x.stream !== '') s.x.lastLine = { line: l.line, text: cutText(l.text), clocks: p.clocks };
    prefixEvidence(s, l, p);
    const inner = quotedLines(p.msg);
    if (inner) {
      // A traceback or exception quoted in JSON: read its lines as lines, dated like the line that holds them.
      for (const text of inner) {
        const ip = parsePrefixes(text);
        ip.clocks = [...p.clocks, ...ip.clocks];
        matchLine(s, { ...l, text, anchors: [] }, ip, null);
      }
      return;
    }
    matchLine(s, l, p, anchors);
  };

  /** `anchors`: the anchors the scanner found on the line, in the list it searched (null: look in the text). */
  const matchLine = (s: StreamState, l: ScannedLine, p: ParsedLine, anchors: FoundAnchors | null) => {
    const text = l.text;
    // Traceback structure first: a collapsed traceback may hold frames and the exception on one line.
    const added = readTraceback(s, l.line, text);
    if (added && !s.torchHomeSeen) noteTorchHome(s, l, p, added);
    if (s.frames.length && s.x.torchEvidence.length === 0 && torchFrames(s.frames))
      noteEvidence(s, `line ${l.line}: a traceback through torch.distributed`);
    if (s.richCall === l.line) noteEvidence(s, `line ${l.line}: a traceback stopped in a torch.distributed call`);
    // A paste whose newlines collapsed holds a traceback's frames and the messages around them on one line (an
    // agent's `failed (exitcode: 1)`, the traceback, then the ChildFailedError block): each message is read in
    // turn, the first in the text first, from where the one before it ended.
    const collapsed = (added ?? 0) >= MIN_COLLAPSED_FRAMES;
    let hit = collapsed
      ? leftmostEntry(p.msg, s.retired)
      : anchors
        ? firstEntryOf(anchors.list, anchors.indices, p.msg, s.retired)
        : firstEntry(text, p.msg, s.retired);
    let part = { l, p };
    for (let k = 0; hit !== null; k++) {
      applyHit(s, part.l, part.p, hit);
      if (!collapsed || k + 1 >= MAX_COLLAPSED_MESSAGES || hit.end <= 0) break;
      const msg = part.p.msg.slice(hit.end);
      if (msg.trim() === '') break;
      part = { l: { ...l, text: msg, anchors: [] }, p: { ...part.p, msg } };
      hit = leftmostEntry(msg, s.retired);
    }
  };

  /** What one matched message on a line does to its stream: an event, a block field, evidence, retired anchors. */
  const applyHit = (s: StreamState, l: ScannedLine, p: ParsedLine, hit: Hit) => {
    const { entry, fields } = hit;
    if (p.format) {
      // Linux pids stay below 2^22; a larger glog id is a thread id, which 2.3–2.4 printed.
      const f = p.format === 'glog' && p.glogId !== null && p.glogId > PID_MAX ? 'glog-tid' : p.format;
      s.x.formats[f] = (s.x.formats[f] ?? 0) + 1;
    }
    if (entry.kind === 'field') return attachField(s, entry, l, fields);
    const ev = makeEvent(entry, l, p, fields);
    const fx = entry.effects;
    if (entry.kind !== 'fact' && fx?.stage) {
      const fresh = framesFresh(s, l.line);
      ev.stage = refineStage(entry, fresh ? s.frames : null, fields);
      // A worker's line (a local-rank or rank label) with no frames to say otherwise: the worker's own store.
      if (fx.workerLineStage && ev.stage === fx.stage && (p.tee || p.ranks.length)) ev.stage = fx.workerLineStage;
      if (fx.storeWait && ev.stage === 'collective-timeout' && !s.stepped && fresh && inCollective(s.frames))
        ev.stage = 'comm-init';
      // After the stream's training steps (and no restart since), a store wait no frame places is a collective
      // or barrier of the running job — a hang while training, not a startup stage.
      if (fx.storeWait && ev.stage === 'other' && s.stepped) ev.stage = 'collective-timeout';
      if (fx.killedInStage && ev.stage === 'other' && !s.stepped) ev.stage = enteredStage(s) ?? ev.stage;
      ev.role = refineRole(entry, s, l.line, fields, ev.stage);
      if (fresh) ev.frames = s.frames.map((f) => f.fn);
    }
    keepEvent(s, ev);
    if (entry.kind === 'first-step') s.stepped = true;
    // A new round starts its workers again: its first collectives are startup again.
    else if (entry.kind === 'restart') s.stepped = false;
    ownEvent(s);
    if (entry.kind === 'fact') {
      // A once-only fact (the torch install path) is not searched for again in this stream.
      if (entry.once && !s.retired.has(entry.id)) {
        retire(s, entry.id);
        retireAnchors();
      }
      return;
    }
    // torchrun's wording printed by another program's format from a file that is not PyTorch's (dlrover
    // re-implements torchrun's messages); communicator and store messages come from wherever they are wrapped.
    const lookalike = isLauncherText(entry) && p.origin !== null && !p.pytorchFormat && !/torch|c10d/i.test(p.origin);
    // Another program re-implementing torchrun is another program: its torch-named lines are weak evidence.
    if (fx?.foreign || lookalike) s.foreign = true;
    if (isTorchEvidence(entry) && !lookalike) {
      if (fx?.weakEvidence) {
        if (s.weakEvidence.length < MAX_EVIDENCE_REASONS) s.weakEvidence.push(`line ${l.line}: ${entry.id}`);
      } else noteEvidence(s, `line ${l.line}: ${entry.id}`);
    }
    if (entry.kind === 'failure' || entry.kind === 'error') closeTraceback(s);
    s.lastEventByID.set(entry.id, ev);
    noteAgentSigns(s, entry, ev);
    const before = s.retired.size;
    if (entry.once) retire(s, entry.id);
    if (entry.kind === 'launch') for (const id of UNTIL_LAUNCH) retire(s, id);
    // A restarted worker group starts over: its first step is news again.
    let revived = false;
    if (entry.kind === 'restart' || entry.kind === 'rendezvous-begin' || fx?.newAttempt)
      for (const id of ONCE) revived = revive(s, id) || revived;
    if (revived || s.retired.size !== before) retireAnchors();
  };

  /** Where torch is installed, once per stream, as a fact event of the frame line that shows it. */
  const noteTorchHome = (s: StreamState, l: ScannedLine, p: ParsedLine, added: number) => {
    for (const f of s.frames.slice(-added)) {
      const path = torchHomeOf(f);
      if (path === null) continue;
      s.torchHomeSeen = true;
      keepEvent(s, makeEvent(ENTRY.get('torch-install-path')!, l, p, { path }));
      return;
    }
  };

  const attachField = (s: StreamState, entry: CatalogueEntry, l: ScannedLine, fields: Record<string, string>) => {
    const owner = s.lastEventByID.get(entry.blockOf!);
    if (!owner || l.line - owner.line > (entry.maxDistance ?? 20) || !fields.key || fields.key in owner.fields) return;
    owner.fields[fields.key] = fields.val ?? '';
    (owner.blockLines ??= {})[fields.key] = { line: l.line, text: cutText(l.text) };
    // A rank printed in a block (the rendezvous result's group_rank, the static rank in a launch block's
    // rdzv_configs) tells agents apart like one on the line.
    for (const rule of ENTRY.get(owner.id)?.effects?.identity ?? [])
      if (rule.field === fields.key) noteRankSign(s, rule, owner, owner.fields.restart_count);
  };

  const makeEvent = (entry: CatalogueEntry, l: ScannedLine, p: ParsedLine, fields: Record<string, string>) => {
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
      if (i === 0) s.x.firstLine = { line: 1, text: cutText(text), clocks: p.clocks };
      matchLine(s, { line: 1, text, cut: false, anchors: [] }, p, null);
    });
    return doc;
  };

  scanner = new LineScanner(anchorList, onLine, {
    maxLineChars: opts.maxLineChars,
    headLines: HEAD_LINES,
  });

  // A skewscope digest (told by its first bytes, whatever its name) is read whole too: it carries extracts.
  const sniffer = errorFile ? null : new DigestSniffer(file, opts.mtimeMs ?? null);

  const extractor: Extractor = {
    push(chunk) {
      if (sniffer) {
        const pass = sniffer.push(chunk);
        const text = pass ? dewrap.push(pass) : null;
        if (text) scanner.push(text);
      } else if (errorBytes + chunk.length <= MAX_ERROR_FILE_BYTES) {
        errorChunks.push(chunk.slice());
        errorBytes += chunk.length;
      } else errorBytes = Infinity;
    },
    finish() {
      if (sniffer?.isDigest) return sniffer.read().self;
      const held = sniffer?.flush();
      const text = held ? dewrap.push(held) : null;
      if (text) scanner.push(text);
      const rest = dewrap.flush();
      if (rest) scanner.push(rest);
      const st = scanner.finish();
      // Line numbers as the file has them, where pieces of hard-wrapped lines were joined.
      if (dewrap.joined > 0) {
        st.lines += dewrap.joined;
        if (st.first) st.first = { ...st.first, line: dewrap.physical(st.first.line) };
        if (st.last) st.last = { ...st.last, line: dewrap.physical(st.last.line) };
      }
      const errorDoc = errorFile ? readErrorFileChunks() : null;
      if (errorDoc) {
        st.lines = 1;
        st.bytes = errorBytes;
      }
      if (streams.size === 0) stream('');
      const whole = streams.get('');
      if (whole) {
        if (st.first)
          whole.x.firstLine = {
            line: st.first.line,
            text: cutText(st.first.text),
            clocks: parsePrefixes(st.first.text, wrappers).clocks,
          };
        if (st.last)
          whole.x.lastLine = {
            line: st.last.line,
            text: cutText(st.last.text),
            clocks: parsePrefixes(st.last.text, wrappers).clocks,
          };
        whole.x.lineCount = st.lines;
      }
      const out = finishStreams(file, [...streams.values()], agents.schedulerOutput);
      // A file that shows its node never started torchrun (the command not found, the pod's container never
      // started) is a node of the job, though no line of it is PyTorch's: alone it still shows no torchrun.
      const torchy =
        out.some((x) => x.torchEvidence.length > 0) ||
        out.some((x) => x.events.some((e) => ENTRY.get(e.id)?.effects?.neverLaunched));
      const problem = errorFile && !errorDoc ? errorFileProblem(file) : errorDoc ? null : problemOf(file, st, torchy);
      return {
        file,
        bytes: st.bytes,
        lines: st.lines,
        longLines: st.longLines,
        invalidUtf8: st.invalidUtf8,
        decoding: { ...st.decoding },
        mtimeMs: opts.mtimeMs ?? null,
        streams: problem ? [] : out,
        problem,
      };
    },
    finishAll() {
      return sniffer?.isDigest ? sniffer.read().extracts : [extractor.finish()];
    },
  };
  return extractor;
}

/** Streams as the job builder gets them: with identity, cut tracebacks closed, empty labelled ones dropped. */
function finishStreams(file: string, given: StreamState[], schedulerOutput: boolean): StreamExtract[] {
  const pathHints = hintsFromPath(file);
  // A scheduler's unlabelled output of agents that ran one after another: one stream per agent.
  const states =
    schedulerOutput && given.length === 1 && given[0]!.x.stream === ''
      ? splitAgentTurns(given[0]!, contentHints)
      : given;
  // Another program's sign anywhere in the file speaks for all of it: its own lines may carry a host label
  // (`gpu-hx3: Test NCCL failure …`) that keys a stream of their own.
  const foreign = states.some((s) => s.foreign);
  const kept: StreamState[] = [];
  for (const s of states) {
    if (!foreign) for (const why of s.weakEvidence) noteEvidence(s, why);
    closeDump(s);
    settleKept(s);
    // A labelled stream with no recognised line of its own is noise of the label, not a node.
    if (s.x.stream !== '' && s.x.events.length === 0 && s.x.torchEvidence.length === 0) continue;
    kept.push(s);
  }
  // Drop the unlabelled remainder of a labelled file when it holds nothing of its own.
  const holds = (s: StreamState) => s.x.stream !== '' || s.x.events.length > 0 || s.x.torchEvidence.length > 0;
  const streams = kept.length === 1 ? kept : kept.filter(holds);
  for (const s of streams) {
    closeCutTraceback(s);
    s.x.agents = agentCount(s);
    // The file's name names its stream when it holds one (a node's own log whose every line a tool labelled).
    s.x.identity = [
      // (Not an agent split off a scheduler's output: the file holds several nodes then.)
      ...((s.x.stream === '' && states === given) || streams.length === 1 ? pathHints : []),
      ...contentHints(s),
      ...labelHints(file, s),
    ];
  }
  return withOneLabel(
    streams.map((s) => s.x),
    pathHints,
  );
}

/**
 * A file of one node whose tool labels every line (torchx's `trainer/0 `) shows the label to the reader only
 * once a line behind it is one a row knows; what came before (a job script's `date`, its first lines) went to
 * the unlabelled stream. With one label in the file, that head is the same node: one stream, not two.
 */
function withOneLabel(streams: StreamExtract[], pathHints: IdentityHint[]): StreamExtract[] {
  const rest = streams.find((x) => x.stream === '');
  const labelled = streams.filter((x) => x.stream !== '');
  if (!rest || labelled.length !== 1 || isAgentKey(labelled[0]!.stream)) return streams;
  const one = labelled[0]!;
  // Only the head of the file, before the label was first known: not a stray labelled line in another's log.
  const from = one.firstLine?.line ?? 0;
  if (rest.events.some((e) => e.line > from)) return streams;
  const ids = [...pathHints, ...one.identity, ...rest.identity];
  const seen = new Set<string>();
  const formats = { ...one.formats };
  for (const [f, n] of Object.entries(rest.formats)) formats[f] = (formats[f] ?? 0) + n;
  const first = [one.firstLine, rest.firstLine].filter((l) => l !== null).sort((a, b) => a.line - b.line);
  return [
    {
      ...one,
      events: [...rest.events, ...one.events].sort((a, b) => a.line - b.line),
      identity: ids.filter((h) => {
        const k = `${h.kind}\n${h.value}`;
        return seen.has(k) ? false : (seen.add(k), true);
      }),
      firstLine: first[0] ?? null,
      lastLine: [one.lastLine, rest.lastLine].filter((l) => l !== null).sort((a, b) => b.line - a.line)[0] ?? null,
      lineCount: one.lineCount + rest.lineCount,
      formats,
      torchEvidence: [...one.torchEvidence, ...rest.torchEvidence].slice(0, MAX_EVIDENCE_REASONS),
      agents: Math.max(one.agents, rest.agents),
    },
  ];
}

function labelHints(file: string, s: StreamState): IdentityHint[] {
  if (s.x.stream === '') return [];
  const hints: IdentityHint[] = [];
  const label = s.x.stream;
  if (s.hostKey) hints.push(hint('hostname', label, sentence('hint.linePrefix', { label, file }), 'medium'));
  hints.push(hint('label', `${file}#${label}`, sentence('hint.lineLabel', { label, file }), 'high'));
  return hints;
}

/** The startup stage the stream last entered (init_process_group called, a communicator begun), if any. */
function enteredStage(s: StreamState): FailureStage | null {
  for (let i = s.x.events.length - 1; i >= 0; i--) {
    const fx = ENTRY.get(s.x.events[i]!.id)?.effects;
    const st = fx?.entersStage ?? fx?.waitingIn;
    if (st) return st;
    if (s.x.events[i]!.kind === 'restart') return null;
  }
  return null;
}

/** The stage of the last wait the stream reported with nothing after it to say the wait ended. */
function openWait(s: StreamState): FailureStage | null {
  for (let i = s.x.events.length - 1; i >= 0; i--) {
    const e = s.x.events[i]!;
    const fx = ENTRY.get(e.id)?.effects;
    const waiting = fx?.waitingIn ?? (fx?.waitsInItsStage ? e.stage : undefined);
    if (waiting) return waiting;
    if (e.kind !== 'info') return null;
  }
  return null;
}

/**
 * A paste that ends inside a traceback: the exception line lies past its end. Through the agent's own code it
 * is the launcher being torn down; through user code it is a worker that crashed. Either is said at low
 * confidence (the exception itself is not in the text).
 */
function closeCutTraceback(s: StreamState): void {
  if (!s.tracebackOpen || s.frames.length === 0) return;
  // Facts read off frame lines (where torch is installed) are part of the traceback, not an end of it.
  const last = s.x.events.findLast((e) => (e.kind as string) !== 'fact');
  if (last && last.line >= s.tracebackLine) return;
  const agent = agentFrames(s.frames);
  const first = s.frames[0]!;
  // The phase the frames name; an agent torn down after its workers failed is a worker error.
  const workersFailed = sawStage(s, 'worker-error');
  const stage =
    stageFromFrames(s.frames) ?? openWait(s) ?? (agent ? (workersFailed ? 'worker-error' : 'other') : 'worker-error');
  const ev: LogEvent = {
    id: agent ? 'agent-traceback-cut' : 'worker-traceback-cut',
    kind: 'failure',
    file: s.x.file,
    line: s.tracebackLine,
    text: `Traceback (most recent call last): … ${first.fn} (${s.frames.length} frames, the exception line is not in the log)`,
    clocks: [],
    fields: { frames: String(s.frames.length) },
    stage,
    role: 'primary',
    frames: s.frames.map((f) => f.fn),
    confidence: 'low',
  };
  s.x.events.push(ev);
  if (agent) noteEvidence(s, `line ${s.tracebackLine}: the launcher's traceback`);
}

/** How many agents this stream holds: distinct group ranks in one round, distinct c10d hosts, interleaved launches. */
function agentCount(s: StreamState): number {
  let n = 1;
  for (const [kind, values] of s.agentKeys)
    if (kind.startsWith('group_rank@') || kind === 'c10d-host' || kind === 'node-rank') n = Math.max(n, values.size);
  return Math.max(n, s.agentKeys.get('concurrent-launch')?.size ?? 0);
}

/**
 * A rank that names one agent: a group rank is per rendezvous round (a restarted job's rounds reassign them);
 * a node rank (static `rdzv_configs` rank, `--node_rank`) is the agent's for good, so reruns of one node in a
 * log share it while the four agents of an unlabelled `srun` output give four.
 */
function noteRankSign(s: StreamState, rule: IdentityField, ev: LogEvent, round: string | undefined): void {
  if (rule.kind !== 'group-rank' && rule.kind !== 'node-rank') return;
  const value = identityValue(rule, ev);
  if (value === null) return;
  noteAgent(s, rule.kind === 'group-rank' ? `group_rank@${round ?? '0'}` : 'node-rank', value);
}

/** Record the signs of which agent printed an event: the host of its c10d node id, a launch block of its own. */
function noteAgentSigns(s: StreamState, entry: CatalogueEntry, ev: LogEvent): void {
  for (const rule of entry.effects?.identity ?? []) {
    const raw = ev.fields[rule.field];
    if (raw === undefined) continue;
    if (rule.read === 'c10d-node-id') noteAgent(s, 'c10d-host', hostFromNodeId(raw));
    noteRankSign(s, rule, ev, ev.fields.round);
  }
  if (BLOCK_HEADS.has(entry.id) && entry.kind === 'launch') {
    // A second launch block before the first agent ended (no exit or failure yet) is another agent.
    const ended = everEnded(s);
    if (!ended) noteAgent(s, 'concurrent-launch', String(ev.line));
  }
}

export { recogniseLine } from './recognise';
