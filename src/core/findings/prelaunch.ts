import { stageDataAdvice } from '../advice';
import { ENTRY } from '../catalogue';
import type { JobModel } from '../model';
import { evOf } from './evidence';
import type { Draft } from './types';

// PRELAUNCH_WORK: a node whose log begins well before its torchrun launch did work first (downloads,
// unpacking): that delays the rendezvous for every node.

/** Time between a node's first log line and its torchrun launch that counts as pre-launch work. */
const PRELAUNCH_MIN_S = 30;
const ACTIVITY =
  /([Dd]ownload\w*|[Uu]npack\w*|[Ee]xtract\w*|tar -x\w*|pip install|Pulling|rsync|aws s3|gsutil|wget|curl|sha256sum|Copying|' -> ')/;

function activityWord(what: string | undefined, text: string): string {
  const w = what ?? ACTIVITY.exec(text)?.[1] ?? 'work';
  return w === "' -> '" ? 'cp' : w.trim().toLowerCase();
}

export function prelaunchDrafts(job: JobModel): Draft[] {
  const out: Draft[] = [];
  for (const n of job.nodes) {
    if (!n.launchTime || !n.firstLine?.time) continue;
    const gap = (Date.parse(n.launchTime) - Date.parse(n.firstLine.time)) / 1000;
    // Lines of entries that only matter before the launch: the job script's downloads, copies, unpacking.
    const activity = n.events.filter((e) => ENTRY.get(e.id)?.untilLaunch === true);
    if (gap < PRELAUNCH_MIN_S && !(activity.length && gap >= 5)) continue;
    const words = [...new Set(activity.map((e) => activityWord(e.fields.what, e.text)))].slice(0, 4).join(', ');
    out.push({
      code: 'PRELAUNCH_WORK',
      severity: 'info',
      numbers: { node: n.id, seconds: Math.round(gap), activity: words || null },
      nodes: [n.id],
      evidence: [
        { file: n.firstLine.file, line: n.firstLine.line, text: n.firstLine.text },
        ...activity.slice(0, 3).map((e) => ({ file: e.file, line: e.line, text: e.text })),
        ...evOf(n.events.find((e) => e.kind === 'launch')),
      ],
      advice: [stageDataAdvice()],
    });
  }
  return out;
}
