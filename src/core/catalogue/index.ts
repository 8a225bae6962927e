import { AGENT } from './agent';
import { CANN } from './cann';
import { DERIVED } from './derived';
import { FRAMEWORKS } from './frameworks';
import { GLOO } from './gloo';
import { HCCL } from './hccl';
import { LAUNCHER } from './launcher';
import { NCCL } from './nccl';
import { PROCESS_GROUP } from './processGroup';
import { RENDEZVOUS } from './rendezvous';
import { SCRIPT } from './script';
import { TCPSTORE } from './tcpstore';
import { TRACEBACK } from './traceback';
import type { CatalogueEntry, Effects } from './types';
import { withCurledQuotes } from './typographic';

export type { CatalogueEntry, Effects, EntryKind, Role, StatedDuration, FactFields, IdentityField } from './types';
export { PHASE_FRAMES, HELPER_FRAMES, KEY_STAGES, TORCH_DISTRIBUTED_PATH, frameIn } from './frames';
export { PYSPY_FRAME_PATTERN, PYSPY_THREAD_PATTERN, RICH_CURRENT_PATTERN, RICH_FRAME_PATTERN } from './traceback';

// The message catalogue, in match order: a line belongs to the first entry whose anchor it holds and whose
// pattern matches. Specific messages come before the generic ones that would also match their text (the
// 2.6 TCPStore retry line quotes the connect timeout; every exception line ends in `…Error: …`), so the
// Python exception catch-all and the script heuristics come last. Communicator errors quote store errors
// (`ncclUniqueId … got error: Socket Timeout`), so they come before the TCPStore entries.
export const CATALOGUE: CatalogueEntry[] = [
  ...LAUNCHER,
  ...AGENT,
  ...RENDEZVOUS,
  ...NCCL,
  ...GLOO,
  ...HCCL,
  ...CANN,
  ...TCPSTORE,
  ...PROCESS_GROUP,
  ...FRAMEWORKS,
  ...SCRIPT,
  ...TRACEBACK,
];

// In place, so that the entries stay the objects the family lists hold (LAUNCHER_TEXT below).
for (const e of CATALOGUE) e.anchors = withCurledQuotes(e.anchors);

/** Every entry by id, the derived ones (made from a log's structure, not a line) included. */
export const ENTRY: ReadonlyMap<string, CatalogueEntry> = new Map([...CATALOGUE, ...DERIVED].map((e) => [e.id, e]));

const NO_EFFECTS: Effects = {};

/** What an event's message says; {} for an id the catalogue does not know (old share links, derived events). */
export function effectsOf(id: string): Effects {
  return ENTRY.get(id)?.effects ?? NO_EFFECTS;
}

/** Entries whose match shows a PyTorch distributed job at all (as opposed to generic Python or script output). */
export function isTorchEvidence(e: CatalogueEntry): boolean {
  return e.kind !== 'frame' && e.kind !== 'traceback' && !e.effects?.notTorchEvidence;
}

/** torchrun's own messages (launcher, agent, rendezvous): other launchers (dlrover) re-implement and print
 * them from their own files, so only these need a PyTorch origin to count as evidence. */
const LAUNCHER_TEXT = new Set<CatalogueEntry>([...LAUNCHER, ...AGENT, ...RENDEZVOUS]);
export function isLauncherText(e: CatalogueEntry): boolean {
  return LAUNCHER_TEXT.has(e);
}

export const ALL_ANCHORS: string[] = [...new Set(CATALOGUE.flatMap((e) => e.anchors))];
