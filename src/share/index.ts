// Sharing a diagnosis without its logs: a link (`#share=<version>.<payload>`, read in the page, never sent to a
// server), a Markdown report and the JSON export. Pure TypeScript on top of src/core: no DOM, no Node APIs.
export {
  DEFAULT_SHARE_BASE,
  UPGRADERS,
  decodeShare,
  encodeShare,
  previewShare,
  shareBase,
  shareError,
  urlBudget,
} from './link';
export type { Decoded, ShareError, ShareErrorCode, ShareOptions, SharePreview, ShareResult, Upgrader } from './link';
export type { Dropped, SnapshotOptions } from './build';
export { DEFAULT_REDACTION } from './redact';
export type { PathMode, RedactOptions, RedactionCounts } from './redact';
export { restore } from './restore';
export type { Restored } from './restore';
export type {
  ShareClockOffset,
  ShareEvent,
  ShareFailure,
  ShareFinding,
  ShareJobFacts,
  ShareLimit,
  ShareNode,
  ShareSnapshot,
  ShareView,
} from './snapshot';
export { OMISSIONS, SHARE_VERSION, WireSchema, WireV1Schema, WireV2Schema } from './wire';
export type { Omission, Wire, WireV1, WireV2 } from './wire';
export { markdownReport } from './markdown';
export type { MarkdownMeta } from './markdown';
export { diagnosisJson, shareMarkdown } from './exports';
