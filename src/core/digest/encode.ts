import type { FileExtract } from '../model';
import { crc32Hex } from './crc';
import { DIGEST_CAP_BYTES, DIGEST_FORMAT, DIGEST_VERSION, type DigestNode, type DigestOverflow } from './format';
import { packExtract, type LineText } from './pack';

export interface EncodeOptions {
  /** `skewscope <version>`. */
  producer: string;
  node: DigestNode;
  /** ISO 8601; default now. */
  created?: string;
  /** Keep line texts, passed through this redaction; null (default): no line text in the digest. */
  lineText?: LineText;
  /** Hard cap in bytes (UTF-8); default DIGEST_CAP_BYTES. */
  capBytes?: number;
}

export interface Encoded {
  /** The digest, one line of JSON with a final newline. */
  text: string;
  bytes: number;
  overflow: DigestOverflow | null;
}

type Obj = Record<string, unknown>;

/** Events that go first when a digest is over its cap: the ones the analysis leans on least. */
// Milestones not listed are 3. Failures and launches decide the diagnosis (who failed, who was late), so they go
// last, after the facts that only shape the advice (where torch is installed).
const KEEP_ORDER: Record<string, number> = { info: 0, error: 1, exit: 2, fact: 4, failure: 5, launch: 5 };
/** Per stream, this many events at each end are the last to go (the startup and how it ended). */
const EDGE_EVENTS = 16;

const utf8Length = (s: string) => new TextEncoder().encode(s).length;

function seal(body: Obj): string {
  const text = JSON.stringify(body);
  // `check` closes the object: the body's own JSON with one more member.
  return `${text.slice(0, -1)},"check":"${crc32Hex(text)}"}\n`;
}

/** One node's extracts as a digest: every extract whole, unless the cap makes it leave some out (counted). */
export function encodeDigest(extracts: FileExtract[], opts: EncodeOptions): Encoded {
  const capBytes = opts.capBytes ?? DIGEST_CAP_BYTES;
  const lines = typeof opts.lineText === 'function';
  const files = extracts.map((x) => packExtract(x, opts.lineText ?? null) as Obj);
  const body: Obj = {
    format: DIGEST_FORMAT,
    version: DIGEST_VERSION,
    producer: opts.producer,
    created: opts.created ?? new Date().toISOString(),
    node: { name: opts.node.name, host: opts.node.host },
    lines,
    files,
    overflow: null,
  };
  let text = seal(body);
  let bytes = utf8Length(text);
  if (bytes <= capBytes) return { text, bytes, overflow: null };

  const overflow: DigestOverflow = { capBytes, events: 0, byId: {}, files: 0 };
  body.overflow = overflow;
  // Until it fits: events by how little they matter and how far from their stream's ends they are, then files
  // from the last. Sizes are known per event (JSON sizes add up), so each round drops just enough.
  for (let round = 0; bytes > capBytes && round < 8; round++) {
    let excess = bytes - capBytes + 256;
    for (const ev of candidates(files, round > 0)) {
      if (excess <= 0) break;
      const list = ev.list;
      const at = list.indexOf(ev.event);
      if (at < 0) continue;
      list.splice(at, 1);
      excess -= ev.size;
      overflow.events += 1;
      const id = typeof ev.event.id === 'string' ? ev.event.id : '?';
      overflow.byId[id] = (overflow.byId[id] ?? 0) + 1;
    }
    while (excess > 0 && files.length > 1 && round > 0) {
      excess -= JSON.stringify(files.pop()).length + 1;
      overflow.files += 1;
    }
    text = seal(body);
    bytes = utf8Length(text);
  }
  return { text, bytes, overflow };
}

interface Candidate {
  list: Obj[];
  event: Obj;
  size: number;
  rank: number;
}

/** Events that may be left out, the first to go first. `edges`: the ones near a stream's ends may go too. */
function candidates(files: Obj[], edges: boolean): Candidate[] {
  const out: Candidate[] = [];
  for (const f of files) {
    for (const s of (f.streams as Obj[]) ?? []) {
      const list = (s.events as Obj[]) ?? [];
      list.forEach((event, i) => {
        const fromEdge = Math.min(i, list.length - 1 - i);
        if (!edges && fromEdge < EDGE_EVENTS) return;
        const keep = KEEP_ORDER[event.kind as string] ?? 3;
        out.push({ list, event, size: JSON.stringify(event).length + 1, rank: keep * 1e9 - fromEdge });
      });
    }
  }
  return out.sort((a, b) => a.rank - b.rank);
}
