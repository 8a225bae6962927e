// Numbers read from log lines are untrusted: a mutated or hostile line can say `max_nodes : 4294967296` or
// `timed out after 99999999999999999ms`. Each reader here range-checks what it returns, so no such value sizes
// an allocation or builds an invalid Date; an absurd value reads as null (the caller keeps the text).

/** Nodes, ranks, workers: counts a real job can have. */
export const MAX_COUNT = 1_000_000;
/** A stated duration longer than this (a year) is not a timeout anyone set. */
export const MAX_DURATION_S = 366 * 24 * 3600;

/** A whole count in [0, MAX_COUNT], or null. */
export function boundedCount(s: string | undefined | null): number | null {
  if (s === undefined || s === null) return null;
  const t = s.trim();
  if (!/^\d{1,7}$/.test(t)) return null;
  const n = Number(t);
  return n <= MAX_COUNT ? n : null;
}

/** A duration in seconds from a number and its unit, in [0, MAX_DURATION_S], or null. */
export function boundedSeconds(raw: string | undefined | null, unit: 'ms' | 's'): number | null {
  if (raw === undefined || raw === null) return null;
  const t = raw.trim();
  if (!/^\d{1,15}(?:\.\d{1,9})?(?:[eE][+-]?\d{1,3})?$/.test(t)) return null;
  const n = Number(t);
  if (!Number.isFinite(n) || n < 0) return null;
  const s = unit === 'ms' ? n / 1000 : n;
  return s <= MAX_DURATION_S ? s : null;
}

/** The least of `xs` (Infinity for none), by a loop: `Math.min(...xs)` overflows the stack past ~100,000 values. */
export function minOf(xs: readonly number[]): number {
  let m = Infinity;
  for (const x of xs) if (x < m) m = x;
  return m;
}

/** The greatest of `xs` (-Infinity for none), by a loop, for the same reason. */
export function maxOf(xs: readonly number[]): number {
  let m = -Infinity;
  for (const x of xs) if (x > m) m = x;
  return m;
}
