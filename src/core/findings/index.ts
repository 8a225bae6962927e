import { recommendedTimeout, whatIf, type AdviceSpec } from '../advice';
import { adviceText, findingText } from '../diagnosisText';
import type { Lang } from '../i18n';
import type { JobModel } from '../model';
import { limitsInForce } from '../thresholds';
import { contextOf, type Context } from './context';
import { clockDrafts, missingDrafts, noTimestampsDrafts } from './data';
import { hostLateDrafts } from './hostLate';
import { lateNodeDrafts } from './lateNode';
import { rdzvTimeoutDrafts } from './rdzvTimeout';
import { mixedDrafts, restartDrafts } from './runs';
import { restartStoreDrafts, roundStoreDrafts } from './restartStore';
import { runIdMismatchDrafts } from './runIdMismatch';
import { skewRiskDrafts } from './skewRisk';
import { storeBarrierDrafts } from './storeBarrier';
import { storeSyncDrafts } from './storeSync';
import { storeUnreachableDrafts } from './storeUnreachable';
import { collectiveDrafts, commInitDrafts, exitBarrierDrafts, pgInitDrafts, unclassifiedDrafts } from './stages';
import type { Diagnosis, Draft, Finding, Severity } from './types';
import { workerCrashDrafts } from './workerCrash';

export type { Advice, Diagnosis, Finding, Severity } from './types';

// The diagnosis: findings with stable codes, each with its numbers, its evidence lines and the advice that
// fixes it. Each rule is a small function over one shared context; words come from diagnosisText.ts.

const RULES: ((c: Context) => Draft[])[] = [
  workerCrashDrafts,
  lateNodeDrafts,
  hostLateDrafts,
  storeSyncDrafts,
  runIdMismatchDrafts,
  rdzvTimeoutDrafts,
  storeUnreachableDrafts,
  pgInitDrafts,
  commInitDrafts,
  collectiveDrafts,
  exitBarrierDrafts,
  unclassifiedDrafts,
  skewRiskDrafts,
  restartStoreDrafts,
  roundStoreDrafts,
  restartDrafts,
  mixedDrafts,
  storeBarrierDrafts,
  (c) => c.prelaunch.map((p) => ({ ...p, severity: c.lateIds.includes(p.nodes[0]!) ? 'warning' : 'info' })),
  missingDrafts,
  clockDrafts,
  noTimestampsDrafts,
];

/** Findings whose failure no longer limit would have let through (the store kept across rounds). */
const NO_LIMIT_HELPS = new Set<string>(['RESTART_STORE_REUSED', 'ROUND_STORE_REUSED']);

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function dedupe(a: AdviceSpec[]): AdviceSpec[] {
  const seen = new Set<string>();
  return a.filter((x) => !seen.has(x.id) && seen.add(x.id));
}

export function diagnose(job: JobModel, lang: Lang = 'en'): Diagnosis {
  const limits = limitsInForce(job);
  const c = contextOf(job, limits);
  const findings = RULES.flatMap((rule) => rule(c))
    .map((d): Finding => {
      const { title, detail } = findingText(lang, d.code, d.numbers, d.late);
      const advice = dedupe(d.advice).map((a) => ({
        id: a.id,
        command: a.command,
        goesIn: a.goesIn,
        values: a.values,
        ...adviceText(lang, a.id, a.values),
      }));
      return {
        code: d.code,
        severity: d.severity,
        title,
        detail,
        numbers: d.numbers,
        ...(d.late ? { late: d.late } : {}),
        nodes: d.nodes,
        evidence: d.evidence,
        advice,
      };
    })
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  const rec = recommendedTimeout(job.skewSeconds);
  // A failure no limit could have prevented gets no what-if.
  const limitless = findings.some((f) => NO_LIMIT_HELPS.has(f.code));
  return { findings, thresholds: limits, recommendedTimeout: rec, whatIf: limitless ? null : whatIf(job, limits, rec) };
}
