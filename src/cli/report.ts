import { words, type Lang } from '../core/i18n';
import type { JobModel } from '../core/model';

// The human summary: the verdict line first, then what failed and who was late, then the nodes.

const fmtSec = (s: number | null, unit: string) => (s === null ? '–' : `${s.toFixed(s < 10 ? 1 : 0)} ${unit}`);

export function renderReport(job: JobModel, lang: Lang): string {
  const w = words(lang);
  const u = w.ui;
  const lines: string[] = [];
  const f = job.failure;
  const head = [`skewscope: ${w.verdict[job.verdict]}`];
  if (f) head.push(`— ${w.stage[f.stage]}`);
  lines.push(head.join(' '));
  const j = job.job;
  lines.push(
    `${u.job}: ${u.torch} ${j.torchVersion ?? u.unknown}, ${u.backend} ${j.backend ?? u.unknown}, ${u.nodes} ${
      j.nnodes ?? job.nodes.length
    }${j.nprocPerNode ? ` × ${j.nprocPerNode}` : ''}, ${u.skew} ${fmtSec(job.skewSeconds, u.seconds!)}${
      j.rdzvConfigs ? `, ${u.rdzvConfigs} ${JSON.stringify(j.rdzvConfigs)}` : ''
    }`,
  );
  if (f) {
    lines.push('');
    lines.push(`${u.stage}: ${f.stage}`);
    lines.push(`${u.reportedBy}: ${f.reportedBy.join(', ') || u.none}`);
    lines.push(`${u.lateNodes}: ${f.lateNodes.join(', ') || u.unknown}`);
    if (f.timeoutSeconds !== null) lines.push(`${u.timeout}: ${f.timeoutSeconds} ${u.seconds}`);
    for (const r of f.reasoning) lines.push(`${u.why}: ${r}`);
    if (f.evidence.length) {
      lines.push(`${u.evidence}:`);
      for (const e of f.evidence) lines.push(`  ${e.file}:${e.line}  ${e.text.trim().slice(0, 160)}`);
    }
  }
  if (job.missingNodes.length) lines.push('', `${u.missing}: ${job.missingNodes.join(', ')}`);
  if (job.nodes.length) {
    lines.push('');
    const rows = job.nodes.map((n) => [
      n.id,
      n.groupRank === null ? '–' : String(n.groupRank),
      n.launchTime ? n.launchTime.replace('T', ' ').replace('Z', '') : '–',
      fmtSec(n.lagSeconds, u.seconds!),
      n.failureStage ?? '',
    ]);
    const header = [u.node!, u.groupRank!, u.launch!, u.lag!, u.failure!];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const fmt = (r: string[]) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd();
    lines.push(fmt(header));
    for (const r of rows) lines.push(fmt(r));
  }
  if (job.notes.length) {
    lines.push('', `${u.notes}:`);
    for (const n of job.notes) lines.push(`  - ${n}`);
  }
  const bad = job.files.filter((x) => x.problem);
  if (bad.length) {
    lines.push('', `${u.files}:`);
    for (const b of bad) lines.push(`  - ${b.problem!.message}`);
  }
  return lines.join('\n') + '\n';
}
