// Encodes the last diagnosis for saved.ts off the main thread: on a 4,096-node job the link takes about half a
// second to build, which would freeze the page it was meant to survive.
import { previewShare, type ShareOptions } from '../share/index';
import type { Diagnosis } from '../core/findings';
import type { JobModel } from '../core/model';

export interface SaveRequest {
  id: number;
  job: JobModel;
  diagnosis: Diagnosis;
  options: ShareOptions;
}

export interface SaveReply {
  id: number;
  /** The link's fragment part, or null when this diagnosis does not fit in one. */
  link: string | null;
}

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<SaveRequest>) => {
  const { id, job, diagnosis, options } = event.data;
  let link: string | null;
  try {
    const result = previewShare(job, diagnosis, options);
    link = result.ok ? result.url : null;
  } catch {
    link = null;
  }
  scope.postMessage({ id, link } satisfies SaveReply);
};
