// The parsing core's public surface. Pure TypeScript: no DOM, no Node APIs; runs in workers and in Node.
export { createExtractor } from './extract';
export type { Extractor, ExtractorOptions } from './extract';
export { buildJob } from './job/index';
export type { BuildOptions } from './job/index';
export { CATALOGUE, ALL_ANCHORS } from './catalogue';
export type { CatalogueEntry } from './catalogue';
export * from './model';
export { recogniseLine } from './extract';
export { diagnose } from './findings';
export type { Diagnosis, Finding, Advice, Severity } from './findings';
export { limitsInForce } from './thresholds';
export type { LimitInForce, LimitId } from './thresholds';
export { whatIf, recommendedTimeout } from './advice';
export { causedNotLate, missingIsCulprit } from './blame';
export type { WhatIf } from './advice';
export { FINDING_CODES } from './diagnosisText';
export type { FindingCode } from './diagnosisText';
