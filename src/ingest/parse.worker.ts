// One input file per request, streamed: a multi-gigabyte log never exists as one string in memory, and an archive
// is unpacked member by member as its bytes arrive (see archive/), each member into its own extractor. Extracts go
// straight to the job worker on the port the pool gave this worker; the page hears only progress and the end.
import { createInputReader } from './archive/index';
import { SentenceError } from '../i18n/sentence';
import type { ParseConnect, ParseReply, ParseRequest, ParseToJob } from './protocol';
import { unreadableExtract } from './unreadable';

const scope = self as unknown as DedicatedWorkerGlobalScope;

// Progress is for a bar, not a log: a message per 64 KiB chunk would flood the main thread.
const PROGRESS_INTERVAL_MS = 100;

let port: MessagePort | null = null;

function reply(message: ParseReply): void {
  scope.postMessage(message);
}

function toJob(message: ParseToJob): void {
  port!.postMessage(message);
}

function mtimeOf({ file, mtimeMs }: ParseRequest): number | null {
  if (mtimeMs !== 'file') return mtimeMs;
  return file instanceof File ? file.lastModified || null : null;
}

async function parse(request: ParseRequest, names: string[]): Promise<void> {
  const { taskId, name, file } = request;
  reply({ type: 'started', taskId, bytes: file.size });
  const mtimeMs = mtimeOf(request);
  const input = createInputReader(name, {
    mtimeMs,
    onExtract: (extract) => {
      names.push(extract.file);
      toJob({ type: 'extract', taskId, extract });
    },
  });
  const reader = file.stream().getReader();
  let bytesDone = 0;
  let lastReport = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    input.push(value);
    bytesDone += value.byteLength;
    if (input.stopped) {
      // A bomb or a damaged archive: what is left of the file is not read.
      await reader.cancel();
      break;
    }
    const now = performance.now();
    if (now - lastReport >= PROGRESS_INTERVAL_MS) {
      lastReport = now;
      reply({ type: 'progress', taskId, bytesDone });
    }
  }
  input.finish();
  reply({ type: 'progress', taskId, bytesDone });
}

scope.onmessage = (event: MessageEvent<ParseConnect | ParseRequest>) => {
  const message = event.data;
  if (message.type === 'connect') {
    port = message.port;
    return;
  }
  const names: string[] = [];
  const end = () => {
    toJob({ type: 'finished', taskId: message.taskId, path: message.name });
    reply({ type: 'done', taskId: message.taskId, names });
  };
  parse(message, names).then(end, (error: unknown) => {
    // What the file yielded before it failed stays; the failure itself is one more problem file.
    const reason =
      error instanceof SentenceError ? error.sentence : error instanceof Error ? error.message : String(error);
    const failed = unreadableExtract(message.name, message.file.size, mtimeOf(message), reason);
    names.push(failed.file);
    toJob({ type: 'extract', taskId: message.taskId, extract: failed });
    end();
  });
};
