// Per-node digests: the format (format.ts), writing one (encode.ts), reading one back (decode.ts, schema.ts).
export * from './format';
export { encodeDigest } from './encode';
export type { EncodeOptions, Encoded } from './encode';
export { decodeDigest, digestProblem, sniffDigest } from './decode';
export type { DecodedDigest, DigestError } from './decode';
export type { LineText } from './pack';
export { DigestSniffer } from './sniffer';
