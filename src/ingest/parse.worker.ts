// One input file per request, streamed: a multi-gigabyte log never exists as one string in memory, and an archive
// is unpacked member by member as its bytes arrive (see archive/), each member into its own extractor.
import { createInputReader } from './archive/index';
import type { ParseReply, ParseRequest } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;

// Progress is for a bar, not a log: a message per 64 KiB chunk would flood the main thread.
const PROGRESS_INTERVAL_MS = 100;

function reply(message: ParseReply): void {
  scope.postMessage(message);
}

async function parse({ taskId, name, file, mtimeMs }: ParseRequest): Promise<void> {
  const input = createInputReader(name, {
    mtimeMs,
    onExtract: (extract) => reply({ type: 'extract', taskId, extract }),
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
  reply({ type: 'done', taskId });
}

scope.onmessage = (event: MessageEvent<ParseRequest>) => {
  const request = event.data;
  parse(request).catch((error: unknown) => {
    reply({ type: 'failed', taskId: request.taskId, message: error instanceof Error ? error.message : String(error) });
  });
};
