import type { ParsedLine } from '../prefixes';
import { parsePrefixes } from '../prefixes';
import { firstEntry } from './match';

/** What one line is, on its own: its prefixes and the catalogue entry it matches (evidence highlighting, tests). */
export function recogniseLine(text: string): { parsed: ParsedLine; id: string | null; fields: Record<string, string> } {
  const parsed = parsePrefixes(text);
  const hit = firstEntry(text, parsed.msg, new Set());
  return { parsed, id: hit?.entry.id ?? null, fields: hit?.fields ?? {} };
}
