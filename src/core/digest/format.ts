import type { FileExtract } from '../model';

// A per-node digest: what `skewscope digest` prints on a node, and what `analyze` and the dashboard read back
// as if the node's logs had been dropped. It carries the per-file extracts themselves (FileExtract, the very
// data the job builder reads), so a digest and the logs it was made from give the same job model.
//
// Format 1, one JSON object, its first member naming the format (that is how a digest is told from a log,
// whatever its file name). A file may hold several, one per line (`pdsh -N … skewscope digest … > all.jsonl`).
//   {"format":"skewscope-digest","version":1,"producer":"skewscope 0.1.0","created":"<ISO 8601>",
//    "node":{"name":"gpu-17","host":"gpu-17"},"lines":false,
//    "files":[<FileExtract>…],"overflow":null,"check":"<crc32 of the rest, 8 hex digits>"}
// Inside `files`, each FileExtract as the core made it, with two changes that the reader undoes:
//   - a stream's and an event's `file` is left out when it is the file's own (it always is today);
//   - without `lines`, every object holding a line reference ({line: number, text: string}) loses its `text`
//     (read back as ''), and evidence strings that quote a line lose the quote. With `lines`, texts are kept,
//     redacted by the producer (addresses, paths), as share links redact them.
// Fields the core adds later travel unchanged: the reader validates what it knows and keeps the rest.

export const DIGEST_FORMAT = 'skewscope-digest';
/** Bump when a reader of the previous format would misread a digest of the new one. */
export const DIGEST_VERSION = 1;
/** What `skewscope digest` aims at for one node's normal startup (measured on the corpus: docs/cluster.md). */
export const DIGEST_BUDGET_BYTES = 16 * 1024;
/** Default hard cap of one digest: past it, events are left out (and counted) until it fits. */
export const DIGEST_CAP_BYTES = 256 * 1024;
/** Largest cap a digest may be given (`--max-bytes`). */
export const MAX_DIGEST_BYTES = 8 * 1024 * 1024;
/** Largest file of digests a reader takes in (read whole, like error.json): one digest, or many one per line. */
export const MAX_DIGEST_FILE_BYTES = 64 * 1024 * 1024;

/** Where the digest was made. */
export interface DigestNode {
  /** The node's name: the folder its files are put under (`--node`, else $SLURMD_NODENAME, else the host name). */
  name: string;
  /** The host name of the machine `skewscope digest` ran on. */
  host: string;
}

/** What the cap left out. */
export interface DigestOverflow {
  capBytes: number;
  /** Events left out, in all and by catalogue id. */
  events: number;
  byId: Record<string, number>;
  /** Files left out whole (after every event that could go had gone). */
  files: number;
}

export interface Digest {
  format: typeof DIGEST_FORMAT;
  version: number;
  producer: string;
  created: string;
  node: DigestNode;
  /** True when line texts are in (redacted); false: no line text at all. */
  lines: boolean;
  files: FileExtract[];
  overflow: DigestOverflow | null;
  check: string;
}
