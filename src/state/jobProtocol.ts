// Messages between the page (jobClient.ts) and the job worker (job.worker.ts). Plain data only.
//
// The job worker owns the job: it receives every extract from the parse workers, builds the job model, the
// diagnosis and the views' data, and sends the page only what the views draw — on a large job in parts (the
// verdict first, then the timeline rows and the nodes in chunks), so that no message takes long to receive.
import type { FileExtract, Overrides } from '../core/model';
import type { Diagnosis, Lang } from '../ingest/index';
import type { Coverage, NodeView, ResultView } from '../ingest/index';
import type { TimelineRow } from '../core/timeline';
import type { ShareOptions, ShareResult } from '../share/index';
import type { MixedQuestion } from './mixedRuns';

export type ToJob =
  /** A parse worker's channel: its extracts arrive on it. */
  | { type: 'port'; port: MessagePort }
  /** Extracts made in the page (a folder entry the browser would not open, a crashed parse worker). */
  | { type: 'put'; path: string; extracts: FileExtract[]; taskId: number | null }
  /** Tasks cancelled before they finished: what they sent so far is dropped. */
  | { type: 'discard'; taskIds: number[] }
  | {
      type: 'analyse';
      seq: number;
      /** The finished inputs the job is made of, in order (a later input of the same name wins). */
      paths: string[];
      overrides: Overrides;
      lang: Lang;
      /** Set for an analysis of the files read so far, while the rest is still being read. */
      partial: Coverage | null;
      /** Inputs not in `paths` are forgotten (the run is over: they were replaced or cancelled). */
      prune: boolean;
      /**
       * The inputs of the drop being read, when the job on screen holds others: if they are another run than
       * those, the page is asked (`mixed`) before the job of them all replaces the one on screen.
       */
      added: string[] | null;
    }
  | { type: 'lang'; lang: Lang }
  | { type: 'reset' }
  | { type: 'request'; id: number; request: JobRequest };

/** Questions about the job on screen, answered from the whole job (its events included). */
export type JobRequest =
  | { kind: 'share'; options: ShareOptions }
  /** The link alone (null when the diagnosis does not fit in one): what the page keeps for a reload. */
  | { kind: 'link'; options: ShareOptions }
  | { kind: 'markdown'; lang: Lang }
  | { kind: 'json' }
  | { kind: 'evidence-text'; file: string; line: number };

export interface JobAnswers {
  share: ShareResult;
  link: string | null;
  markdown: string;
  json: string;
  'evidence-text': string | null;
}

export type FromJob =
  /**
   * The verdict, findings, late nodes and problems; `view.job.nodes` and `view.job.files` are empty, `view.gaps`
   * too, the timeline null.
   */
  | { type: 'head'; seq: number; view: ResultView; overrides: Overrides }
  /** The timeline (rows empty: they follow in `rows`), the skew chart, the fired line. */
  | ({ type: 'timeline'; seq: number } & Pick<ResultView, 'timeline' | 'skew' | 'fired'>)
  | { type: 'rows'; seq: number; rows: TimelineRow[] }
  | { type: 'nodes'; seq: number; nodes: NodeView[] }
  /** The job's files and their time gaps, in chunks (the head goes without them: 10,000 files are megabytes). */
  | { type: 'files'; seq: number; files: ResultView['job']['files']; gaps: ResultView['gaps'] }
  | { type: 'end'; seq: number }
  /** No file yielded anything. */
  | { type: 'empty'; seq: number; overrides: Overrides }
  /** The added inputs are another run than the job on screen: no view is sent, the job on screen stays. */
  | { type: 'mixed'; seq: number; question: MixedQuestion }
  | { type: 'failed'; seq: number; message: string }
  /** The diagnosis again, in another language, for the view of analysis `seq`. */
  | { type: 'diagnosis'; seq: number; diagnosis: Diagnosis }
  | { type: 'answer'; id: number; ok: true; value: unknown }
  | { type: 'answer'; id: number; ok: false; message: string };
