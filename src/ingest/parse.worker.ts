// One file per request, streamed: a multi-gigabyte log never exists as one string in memory.
import { createExtractor } from '../core/index';
import type { ParseReply, ParseRequest } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;

// Progress is for a bar, not a log: a message per 64 KiB chunk would flood the main thread.
const PROGRESS_INTERVAL_MS = 100;

function reply(message: ParseReply): void {
  scope.postMessage(message);
}

async function parse({ taskId, name, file, mtimeMs }: ParseRequest): Promise<void> {
  const extractor = createExtractor(name, { mtimeMs });
  const reader = file.stream().getReader();
  let bytesDone = 0;
  let lastReport = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    extractor.push(value);
    bytesDone += value.byteLength;
    const now = performance.now();
    if (now - lastReport >= PROGRESS_INTERVAL_MS) {
      lastReport = now;
      reply({ type: 'progress', taskId, bytesDone });
    }
  }
  reply({ type: 'progress', taskId, bytesDone });
  reply({ type: 'done', taskId, extract: extractor.finish() });
}

scope.onmessage = (event: MessageEvent<ParseRequest>) => {
  const request = event.data;
  parse(request).catch((error: unknown) => {
    reply({ type: 'failed', taskId: request.taskId, message: error instanceof Error ? error.message : String(error) });
  });
};
