// Scale (issue 10, items 2–3; issue 13, items 4 and 7). A job of 4,096 nodes × 8 ranks, generated in the test into
// a temp folder from the line shapes of a real capture (scripts/bench-job.mjs, from
// test/fixtures/corpus/torch2.6-s1_static_healthy_info), is picked as a folder like a user would: the page stays
// responsive while it reads it, and its views summarise instead of listing thousands of things. A 20,000-entry
// archive of non-logs folds into one problem entry. A view that throws is contained. Times are not asserted
// here (npm run bench measures them); the longest main-thread task is, against a bound explained below.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { expect, test, type Page } from '@playwright/test';
import { generateJob, type GeneratedJob } from '../scripts/bench-job.mjs';
import { dropFiles } from './helpers';

const S2 = join(import.meta.dirname, 'fixtures', 's2');

/**
 * The longest main-thread task allowed while the 4,096-node job is read and drawn, in ms. Issue 10's goal is 50 ms;
 * this test cannot hold that on the machines it runs on, and says by how much in the bound. What is left on the
 * main thread: posting each File to a parse worker (Chromium clones a disk-backed File synchronously), receiving
 * the views' data in chunks of a few ms each, and React committing the views — the first partial view, the few
 * that replace it while the drop is read, and the whole job's, each view mounted in its own task. On the 2-core
 * machines this runs on, shared with two parse workers, the job worker and other sessions' jobs (load averages
 * 4–8), the longest of those measured 85–420 ms, most of it time spent waiting for a core; the same drop before
 * the job worker froze the page for 5–11 s (2 s at 1,024 nodes). 750 ms is under a tenth of that and still fails
 * any return of per-row rendering or of work over the whole job on the main thread, with room for a loaded
 * machine. Not counted: the task in which the browser itself turns the picked folder into 4,096 File objects
 * before it fires `change` (1.2–2.8 s here, none of it the app's); the app's own change handler in that task is
 * held to the same bound (it measured 50–150 ms: listing 4,096 rows).
 */
const LONGEST_TASK_MS = 750;

// This file runs while no other test runs (the suite runs two at a time, playwright.config.ts): that bound was
// measured with the cores shared with other sessions' work, never with a second test of this suite.
test.describe.configure({ lock: '-exclusive-' });

let dir = '';
let job: GeneratedJob;

test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'skewscope-scale-'));
  job = generateJob(join(dir, 'job4096'), { nodes: 4096, ranks: 8, late: 41, seed: 7 });
});

test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/* global window, document -- armPage and readPage run in the page */
/** Long tasks, the change event and the end of the app's handling of it, and when the whole job is drawn. */
function armPage() {
  const w = window as unknown as { __scale: { tasks: [number, number][]; change: number; handled: number } };
  w.__scale = { tasks: [], change: 0, handled: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__scale.tasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask' });
  window.addEventListener('change', () => (w.__scale.change ||= performance.now()), true);
  // Bubbling to the window comes after React's listener on its root: the app's handling of the change is done.
  window.addEventListener('change', () => (w.__scale.handled ||= performance.now()));
}

function readTasks() {
  const s = (window as unknown as { __scale: { tasks: [number, number][]; change: number; handled: number } }).__scale;
  const browsers = s.tasks.find(([start, d]) => start <= s.change && start + d >= s.change);
  const others = s.tasks.filter((task) => task !== browsers && task[0] + task[1] >= s.change);
  return {
    longest: others.reduce((m, [, d]) => Math.max(m, d), 0),
    count: others.length,
    handler: s.handled - s.change,
    browsers: browsers?.[1] ?? 0,
  };
}

async function settled(page: Page, timeout = 240_000): Promise<void> {
  await expect(page.getByTestId('progress')).toHaveCount(0, { timeout });
  await expect(page.getByTestId('node-table').locator('tbody tr[data-node]').first()).toBeVisible({ timeout });
  await expect(page.getByTestId('partial')).toHaveCount(0);
}

test('a 4,096-node × 8-rank job picked as a folder: the page stays responsive and its views summarise', async ({
  page,
}) => {
  test.setTimeout(360_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await page.evaluate(armPage);
  await page.getByTestId('folder-input').setInputFiles(join(dir, 'job4096'));

  // The job of the files read so far is drawn before the rest is read.
  await expect(page.getByTestId('verdict')).toBeVisible({ timeout: 120_000 });
  await settled(page);
  const tasks = await page.evaluate(readTasks);
  console.log(
    `4,096 nodes: longest task ${Math.round(tasks.longest)} ms (${tasks.count} over 50 ms), app's change handler ${Math.round(tasks.handler)} ms, the browser's own task for the folder ${Math.round(tasks.browsers)} ms`,
  );
  expect(tasks.longest).toBeLessThan(LONGEST_TASK_MS);
  expect(tasks.handler).toBeLessThan(LONGEST_TASK_MS);

  // A page of a few thousand elements, not of one row per node (it held 108,000 at this size before).
  expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeLessThan(6000);

  // The headline: how many were late and the worst of them by lag, not 41 names.
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'healthy');
  const headline = page.getByTestId('late-nodes');
  await expect(headline).toContainText('41 nodes');
  await expect(headline).toContainText(`${job.lateNodes[0]} (+`);
  await expect(headline).toContainText('and 33 more');
  const named = (await headline.innerText()).match(/node\d+/g)!;
  expect(named).toEqual(job.lateNodes.slice(0, 8));

  // One LATE_NODE card; every late node behind its disclosure, latest first, in a windowed list.
  const late = page.getByTestId('findings').locator('[data-code="LATE_NODE"]');
  await expect(late).toHaveCount(1);
  await late.getByRole('button', { name: 'All 41 late nodes, latest first' }).click();
  const list = late.getByTestId('late-list');
  await expect(list.locator('li').first()).toHaveAttribute('aria-setsize', '41');
  await expect(list.locator('li').first()).toContainText(job.lateNodes[0]!);

  // The skew chart: a histogram, with the late tail marked under it.
  const skew = page.getByTestId('skew-chart');
  await expect(skew.getByRole('button', { name: 'Histogram' })).toHaveAttribute('aria-pressed', 'true');
  await expect(skew.getByTestId('skew-tail')).toHaveAttribute('data-count', '41');
  await expect(skew.getByTestId('skew-tail-mark')).toHaveCount(41);

  // The node table: a screenful of rows rendered; sorted by lag the latest comes first; filtered, the late ones.
  const table = page.getByTestId('node-table');
  await expect(page.getByTestId('node-count')).toHaveText('Nodes: 4,096');
  const rendered = await table.locator('tbody tr[data-node]').count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(60);
  await table.locator('th[data-sort="lag"] button').click();
  await expect(table.locator('tbody tr[data-node]').first()).toHaveAttribute('data-node', job.lateNodes[0]!);
  await page.getByTestId('node-filter').fill('late');
  await expect(page.getByTestId('node-count')).toHaveText('Shown: 41 of 4,096');
  await expect(table.locator('tbody tr[data-node]').first()).toHaveAttribute('data-node', job.lateNodes[0]!);
  expect(errors).toEqual([]);
});

/** A zip of `count` small text files under `archive/`: plain lines, none of them torchrun's. */
function nonLogsZip(count: number): Buffer {
  const text = new TextEncoder().encode('epoch 1 loss 0.731\nepoch 2 loss 0.702\n');
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < count; i++) files[`archive/f${String(i).padStart(6, '0')}.log`] = text;
  return Buffer.from(zipSync(files, { level: 1 }));
}

test('a 20,000-entry archive of non-logs is one folded problem entry, its files listed in a window when opened', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const zip = nonLogsZip(20_000);
  await page.goto('/');
  await dropFiles(page, [
    { name: 'bundle.zip', base64: zip.toString('base64') },
    ...['node0.log', 'node1.log', 'node2.log', 'node3.log'].map((name) => ({
      name,
      text: readFileSync(join(S2, name), 'utf8'),
    })),
  ]);
  await expect(page.getByTestId('verdict')).toContainText(/failed/i, { timeout: 120_000 });
  await expect(page.getByTestId('progress')).toHaveCount(0, { timeout: 120_000 });

  const problems = page.getByTestId('file-problems');
  const group = problems.locator(':scope > li');
  await expect(group).toHaveCount(1);
  await expect(group).toHaveAttribute('data-problem', 'not-a-log');
  await expect(group).toHaveAttribute('data-count', '20000');
  await expect(group).toContainText('20,000 files with no torchrun lines in bundle.zip/archive/');
  await expect(group).toContainText('f000000.log, f000001.log, f000002.log…');
  // It was 20,001 rows (140,000 elements); the whole page now holds a few thousand.
  expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeLessThan(4000);

  await group.getByTestId('problems-show-all').click();
  const files = group.getByTestId('problems-files');
  const items = files.locator('li');
  await expect(items.first()).toHaveAttribute('aria-setsize', '20000');
  expect(await items.count()).toBeLessThan(60);
  await expect(items.first()).toContainText('bundle.zip/archive/f000000.log');
  await expect(items.first()).toContainText('holds no torchrun or torch.distributed lines');
  // Scrolled to its end, the window shows the last file.
  await files.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(files.locator('[data-file="bundle.zip/archive/f019999.log"]')).toBeVisible();
  await group.getByTestId('problems-show-all').click();
  await expect(files).toHaveCount(0);
});

test('a view that throws is replaced by a card saying which and why; the other views are shown', async ({ page }) => {
  // Text measuring fails in this page: the timeline measures node names while it renders; no other view does.
  await page.addInitScript(() => {
    CanvasRenderingContext2D.prototype.measureText = () => {
      throw new Error('measureText is unavailable');
    };
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await dropFiles(
    page,
    ['node0.log', 'node1.log', 'node2.log', 'node3.log'].map((name) => ({
      name,
      text: readFileSync(join(S2, name), 'utf8'),
    })),
  );
  const failed = page.getByTestId('view-failed');
  await expect(failed).toHaveCount(1);
  await expect(failed).toHaveAttribute('data-view', 'timeline');
  await expect(failed).toContainText('This part could not be shown: the timeline');
  await expect(failed).toContainText('measureText is unavailable');
  for (const id of ['verdict', 'findings', 'skew-chart', 'what-if-slider', 'node-table', 'evidence'])
    await expect(page.getByTestId(id)).toBeVisible();
  await expect(page.getByTestId('late-nodes')).toContainText('node3');
  // Contained: the page itself threw nothing.
  expect(errors).toEqual([]);
});
