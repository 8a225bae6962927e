import {
  HELPER_FRAMES,
  KEY_STAGES,
  PHASE_FRAMES,
  PYSPY_FRAME_PATTERN,
  PYSPY_THREAD_PATTERN,
  RICH_CURRENT_PATTERN,
  RICH_FRAME_PATTERN,
  TORCH_DISTRIBUTED_PATH,
  effectsOf as effectsOfId,
  frameIn,
  type CatalogueEntry,
} from '../catalogue';
import type { FailureStage, LogEvent } from '../model';
import { keepEvent } from './keep';
import type { Frame, StreamState } from './stream';

// Tracebacks: their frames tell which phase was waiting when an exception (a store timeout above all) was
// raised. The outermost phase-specific frame decides; shared helpers only when no phase frame is there.

/** How far back (lines) a traceback's frames still belong to an exception line. */
export const TRACEBACK_REACH = 400;
/** A warning this close above a traceback is refined by the traceback's frames too. */
const REFINE_AHEAD_LINES = 60;
/**
 * Frames kept of one traceback (a digest holds as many per event): past it, the outermost and the innermost
 * KEPT_FRAMES / 2 each, where the phases are (main and the launcher outside, torch's calls inside).
 */
export const MAX_FRAMES = 4096;
const KEPT_FRAMES = 3072;
/** Watchdog timeouts on the first collectives are startup trouble; later ones are training hangs. */
const STARTUP_SEQ_MAX = 5;

const TRACEBACK_START = 'Traceback (most recent call last)';
/** faulthandler's dump of a thread (`Current thread 0x… (most recent call first):`), as py-faulthandler,
 * `faulthandler.dump_traceback_later` and a SIGABRT print it; its frames read `line N in fn`, innermost first. */
const DUMP_START = '(most recent call first)';
/** The thread header itself: C++ backtraces (`Exception raised from recvBytes at … (most recent call first):`) say
 * the same words and are no dump. */
const DUMP_THREAD = /(?:Current thread|Thread) 0x[0-9a-fA-F]{4,16} \(most recent call first\)/;
/** py-spy's dump (`Thread 31877 (active): "MainThread"`, then `    fn (path:line)` innermost first). */
const PYSPY_THREAD = new RegExp(PYSPY_THREAD_PATTERN);
const PYSPY_FRAME = new RegExp(PYSPY_FRAME_PATTERN);
const FRAME_RE = /File "(?<path>[^"]{1,1000})", line (?<lineno>\d{1,9}),? in (?<fn>[\w<>]{1,200})/g;
const KEY_STAGE_RES = KEY_STAGES.map((k) => ({ re: new RegExp(k.re), stage: k.stage }));
const effectsOf = (e: LogEvent) => effectsOfId(e.id);
/** The agent's own entry points: a traceback through them is the launcher being torn down. */
const AGENT_FRAME = /(?:^|[\\/])torch[\\/]distributed[\\/](?:run\.py|launcher[\\/]|elastic[\\/])/;

function pushFrame(s: StreamState, f: Frame): void {
  s.frames.push(f);
  if (s.frames.length > MAX_FRAMES) s.frames.splice(KEPT_FRAMES / 2, s.frames.length - KEPT_FRAMES);
}

function startTraceback(s: StreamState, line: number, dump = false): void {
  s.frames = [];
  s.tracebackLine = line;
  s.tracebackOpen = true;
  s.dump = dump;
}

/** A dump lists the innermost call first: its frames are kept outermost first, as a traceback's are. */
function addFrame(s: StreamState, f: Frame): void {
  if (s.dump) s.frames.unshift(f);
  else pushFrame(s, f);
}

const RICH_FRAME = new RegExp(RICH_FRAME_PATTERN);
const RICH_CURRENT = new RegExp(RICH_CURRENT_PATTERN);
/** A call into PyTorch's distributed API on the line a Rich box marks as running. */
const DIST_CALL = /\b(?:torch\.distributed|dist)\.\w{1,60}\(/;

/** A frame of a Rich traceback box; the path may come a line before its function. */
function readRichFrame(s: StreamState, line: number, text: string): boolean {
  const m = RICH_FRAME.exec(text);
  if (!m) {
    const cur = RICH_CURRENT.exec(text);
    if (cur && s.tracebackOpen && DIST_CALL.test(cur.groups!.code!)) s.richCall = line;
    return false;
  }
  const g = m.groups!;
  if (g.path && !g.fn) {
    s.richPath = g.path;
    return false;
  }
  const path = g.path ?? s.richPath;
  s.richPath = null;
  if (path === null) return false;
  if (!s.tracebackOpen) startTraceback(s, line);
  pushFrame(s, { fn: (g.fn ?? g.fn2)!, path });
  return true;
}

/** Reads traceback structure from a line (a collapsed traceback may hold its start, frames and exception);
 * returns how many frames it added. */
export function readTraceback(s: StreamState, line: number, text: string): number {
  if (text.includes(TRACEBACK_START)) {
    closeDump(s);
    startTraceback(s, line);
  } else if (text.includes(DUMP_START) && DUMP_THREAD.test(text)) {
    // Each thread of a dump is a list of its own: the one before it ends here.
    closeDump(s);
    startTraceback(s, line, true);
    return 0;
  }
  if (text.includes('Thread ') && PYSPY_THREAD.test(text.trim())) {
    // Each thread of a dump is a list of its own, as in faulthandler's.
    closeDump(s);
    startTraceback(s, line, true);
    return 0;
  }
  if (s.dump && s.tracebackOpen && text.includes(' (')) {
    const m = PYSPY_FRAME.exec(text);
    if (m) {
      addFrame(s, { fn: m.groups!.fn!, path: m.groups!.path! });
      s.frameLine = line;
      return 1;
    }
  }
  if (text.includes('│ ')) {
    if (!readRichFrame(s, line, text)) return 0;
    refineEarlier(s, line);
    return 1;
  }
  if (!text.includes('File "')) return 0;
  FRAME_RE.lastIndex = 0;
  let fm: RegExpExecArray | null;
  let added = 0;
  while ((fm = FRAME_RE.exec(text)) !== null) {
    // Frames pasted without their `Traceback` header still start one.
    if (added === 0 && !s.tracebackOpen) startTraceback(s, line);
    addFrame(s, { fn: fm.groups!.fn!, path: fm.groups!.path! });
    added++;
  }
  if (added > 0) {
    s.frameLine = line;
    refineEarlier(s, line);
  }
  return Math.min(added, s.frames.length);
}

const TORCH_HOME = /^(\/.{0,1000}?)\/torch\/distributed\//;

/** The directory torch is installed in, from a frame through torch.distributed (`/usr/lib/python3/dist-packages`). */
export function torchHomeOf(f: Frame): string | null {
  return TORCH_HOME.exec(f.path)?.[1] ?? null;
}

export function framesFresh(s: StreamState, line: number): boolean {
  return s.frames.length > 0 && line - s.tracebackLine <= TRACEBACK_REACH;
}

/** The outermost phase frame is a collective call (the first one creates its NCCL communicator). */
export function inCollective(frames: readonly Frame[]): boolean {
  for (const f of frames) {
    const hit = PHASE_FRAMES.find((p) => frameIn(f, p));
    if (hit) return hit.collective === true;
  }
  return false;
}

/** The stage the frames give: the outermost phase frame, else a store helper, else null. */
export function stageFromFrames(frames: readonly Frame[]): FailureStage | null {
  for (const f of frames) {
    const hit = PHASE_FRAMES.find((p) => frameIn(f, p));
    if (hit) return hit.stage;
  }
  for (const f of frames) {
    const hit = HELPER_FRAMES.find((p) => frameIn(f, p));
    if (hit) return hit.stage;
  }
  return null;
}

export function torchFrames(frames: readonly Frame[]): boolean {
  return frames.some((f) => TORCH_DISTRIBUTED_PATH.test(f.path));
}

export function agentFrames(frames: readonly Frame[]): boolean {
  return frames.some((f) => AGENT_FRAME.test(f.path));
}

export function refineStage(
  entry: CatalogueEntry,
  frames: readonly Frame[] | null,
  fields: Record<string, string>,
): FailureStage {
  const fx = entry.effects!;
  const base = fx.stage!;
  const fromFrames = () => (frames ? stageFromFrames(frames) : null);
  switch (fx.refine) {
    case 'frames': {
      const st = fromFrames();
      if (st && (!fx.refineTo || fx.refineTo.includes(st))) return st;
      // An exception raised in the training script, through no PyTorch code: a worker's own error.
      if (fx.userCodeStage && frames && frames.length > 0 && !agentFrames(frames)) return fx.userCodeStage;
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
}

export function refineRole(
  entry: CatalogueEntry,
  s: StreamState,
  line: number,
  fields: Record<string, string>,
  stage: FailureStage,
) {
  const fx = entry.effects!;
  if (fx.primaryInPhase?.includes(stage)) return 'primary' as const;
  if (fx.primaryIfAtLeast) {
    const v = Number(fields[fx.primaryIfAtLeast.field]);
    if (v >= fx.primaryIfAtLeast.value) return 'primary' as const;
  }
  if (fx.refine === 'inner') {
    // The cause nearest above it in the exception chain: a lost connection means the host went away (a
    // consequence); a connect timeout means it was never reached. A timeout the client retried past and a
    // later loss are read as the loss.
    const since = Math.max(0, s.tracebackLine - TRACEBACK_REACH);
    for (let i = s.x.events.length - 1; i >= 0; i--) {
      const e = s.x.events[i]!;
      if (e.line < since) break;
      if (e.line > line) continue;
      if (effectsOf(e).store === 'lost') return 'consequence' as const;
      if (effectsOf(e).waitedSinceLaunch !== undefined) break;
    }
  }
  return fx.role ?? 'primary';
}

/**
 * A warning that could not see frames when it was read (2.6 prints the TCPStore warning before the traceback)
 * takes the stage of the traceback that follows it.
 */
function refineEarlier(s: StreamState, line: number): void {
  // The frames are read only when a warning above waits for them: not once per frame line of a long traceback.
  let st: FailureStage | null | undefined;
  for (let i = s.x.events.length - 1; i >= 0; i--) {
    const e = s.x.events[i]!;
    if (line - e.line > REFINE_AHEAD_LINES) break;
    if (e.frames) continue;
    const entry = effectsOf(e);
    if (entry.refine !== 'frames' || !e.stage || e.stage !== entry.stage) continue;
    st ??= stageFromFrames(s.frames);
    if (st === null) return;
    if (entry.refineTo && !entry.refineTo.includes(st)) continue;
    e.stage = st;
  }
}

/** An exception line closes the traceback it ends. */
export function closeTraceback(s: StreamState): void {
  s.tracebackOpen = false;
}

/**
 * The end of one thread of a stack dump: if its frames wait in a startup phase, an event says so (the process
 * was alive and waiting there, nothing had failed yet). Called at the next thread, traceback, or the end.
 */
export function closeDump(s: StreamState): void {
  if (!s.dump || !s.tracebackOpen) return;
  s.tracebackOpen = false;
  s.dump = false;
  const stage = stageFromFrames(s.frames);
  if (stage === null || !torchFrames(s.frames)) return;
  keepEvent(s, {
    id: 'stack-dump',
    kind: 'info',
    file: s.x.file,
    line: Math.max(s.tracebackLine, s.frameLine),
    text: `(most recent call first): … ${s.frames.at(-1)!.fn} ← ${s.frames[0]!.fn} (${s.frames.length} frames)`,
    clocks: [],
    fields: { frames: String(s.frames.length) },
    stage,
    frames: s.frames.map((f) => f.fn),
  });
}
