// The ingest layer's surface for state/: reading files into extracts, then the job model.
import { buildJob } from '../core/index';
import type { FileExtract, JobModel, Overrides } from '../core/model';

export { filesFromDataTransfer, filesFromList } from './collect';
export type { Collected } from './collect';
export { runPool } from './pool';
export { loadExample } from './example';
export { unreadableExtract } from './unreadable';
export { mergeExtracts, nextPastedName, pastedPath, pruneOverrides, sourcesOf } from './merge';
export type { Yielded } from './merge';
export type { PoolListener, PoolRun } from './pool';
export type { InputFile } from './types';

export function assembleJob(extracts: FileExtract[], overrides: Overrides = {}): JobModel {
  return buildJob(extracts, { overrides });
}
export type { Overrides };

// The diagnosis reads the job model only; the store asks for it again when the language changes.
export { diagnose as diagnoseJob } from '../core/index';
export type { Diagnosis, Finding, Advice } from '../core/index';
export type { Lang } from '../core/i18n';
