// Archives and compressed logs, read as streams: shared by the parse worker and the CLI (no DOM, no Node APIs).
export {
  ARCHIVE_LIMITS,
  bytesText,
  createInputReader,
  inputKind,
  isMultiFileArchive,
  memberPath,
  readInput,
} from './reader';
export type { ArchiveLimits, InputKind, InputReader, InputReaderOptions } from './reader';
export { TarError, TarReader, parsePax } from './tar';
export type { TarEntry, TarHandler } from './tar';
