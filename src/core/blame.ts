import type { Failure } from './model';

// What the failure's reasons say about its culprit, read the same way by every view (header, CLI report,
// Markdown, what-if, findings): whether the culprit caused the failure rather than arrived late, and whether a
// node whose log is missing is (likely) the one.

type Reasoned = Pick<Failure, 'reasoning'>;

/** The culprit crashed or failed on its own (a worker's error, its own GPU or driver, the first failure of
 * restarts that failed in turn): it was not late. */
export function causedNotLate(f: Reasoned | null | undefined): boolean {
  return (
    f?.reasoning.some((r) => r.code === 'worker-crash' || r.code === 'local-fault' || r.code === 'restart-cause') ??
    false
  );
}

/** A node whose log was not given is the likely culprit (or, by the store host's count, the culprit). */
export function missingIsCulprit(f: Reasoned | null | undefined): boolean {
  return (
    f?.reasoning.some(
      (r) => r.code === 'missing-likely' || r.code === 'host-absent' || r.code === 'joined-count-missing',
    ) ?? false
  );
}
