// Cancel and recover (issue 13, item 11): a ~500 MB drop cancelled mid-way frees the parse workers and their
// memory, and the app stays usable. The big file is made in the test, in a temp folder (never committed): the
// training-output lines of a real node log (no torchrun anchor on them) repeated to 500 MB, picked through the
// page's own file input beside the four real node logs.
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

const FIXTURES = join(import.meta.dirname, 'fixtures', 's2');
const LOGS = ['node0.log', 'node1.log', 'node2.log', 'node3.log'].map((f) => join(FIXTURES, f));
const BIG_BYTES = 500 * 1024 * 1024;

let dir = '';
let big = '';

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'skewscope-cancel-'));
  big = join(dir, 'train-output.log');
  const noise = readFileSync(LOGS[0]!, 'utf8')
    .split('\n')
    .filter((l) => l.includes('[rank'))
    .join('\n');
  let block = `${noise}\n`;
  while (block.length < 1 << 20) block += block;
  const chunk = Buffer.from(block);
  const out = createWriteStream(big);
  for (let written = 0; written < BIG_BYTES; written += chunk.length)
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise<void>((r) => out.end(() => r()));
});

test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Parse workers the page has alive (Playwright sees every dedicated worker through the DevTools protocol). */
const parseWorkers = (page: Page) => page.workers().filter((w) => /parse\.worker/.test(w.url())).length;

test('cancelling a 500 MB drop mid-way frees the workers and their memory; a small drop after it is analysed', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles([big, ...LOGS]);

  // Mid-way: the four logs are read, the big one is still being read by a worker.
  await expect(page.getByText(/^4 of 5 files/)).toBeVisible({ timeout: 60_000 });
  expect(parseWorkers(page)).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('note')).toContainText('Cancelled');

  // No busy worker after the cancel: every parse worker is terminated, none left reading.
  await expect.poll(() => parseWorkers(page), { timeout: 10_000 }).toBe(0);
  // And the bytes they held are gone from the page: its heap after a collection is far below the file's size.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  expect(usedSize).toBeLessThan(BIG_BYTES / 5);

  // Usable: start over, drop the four logs alone, and they are analysed.
  await page.getByRole('button', { name: 'Start over', exact: true }).click();
  await page.getByTestId('file-input').setInputFiles(LOGS);
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  await expect(page.getByTestId('late-nodes')).toContainText('node3');
  await expect(page.getByRole('note')).toHaveCount(0);
  await expect.poll(() => parseWorkers(page), { timeout: 10_000 }).toBe(0);
  expect(errors).toEqual([]);
});
