// The ingest layer's surface for state/: reading files into extracts, the job model, and the views' data.
import { buildJob } from '../core/index';
import type { FileExtract, JobModel, Overrides } from '../core/model';

export { filesFromDataTransfer, filesFromList } from './collect';
export type { Collected } from './collect';
export { runPool, poolSize } from './pool';
export { loadExample } from './example';
export { unreadableExtract } from './unreadable';
export { mergeExtracts, nextPastedName, pastedPath, pruneOverrides, sourcesOf } from './merge';
export type { Yielded } from './merge';
export type { PoolListener, PoolOptions, PoolRun } from './pool';
export type { ParseToJob } from './protocol';
export type { InputFile } from './types';
export * from './view/index';

export function assembleJob(extracts: FileExtract[], overrides: Overrides = {}): JobModel {
  return buildJob(extracts, { overrides });
}
export type { Overrides };

// The diagnosis reads the job model only; the job worker makes it again when the language changes.
export { diagnose as diagnoseJob } from '../core/index';
export type { Diagnosis, Finding, Advice } from '../core/index';
export type { Lang } from '../core/i18n';
