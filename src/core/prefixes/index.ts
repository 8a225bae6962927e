export { parsePrefixes } from './parse';
export { OUTER_PREFIXES } from './outer';
export { FORMAT_PREFIXES } from './formats';
export { WrapperMemory, shapeOf } from './wrappers';
export type { ParsedLine, PrefixRow } from './types';
