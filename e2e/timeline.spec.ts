import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';

// The startup timeline, the skew chart and the what-if slider on real torch 2.6 logs (e2e/fixtures/s2: static
// backend, timeout=30, node3 launched 45 s late), and the timeline on a generated 1024-node job.

const FIXTURES = join(import.meta.dirname, 'fixtures', 's2');
const NODE_LOGS = ['node0.log', 'node1.log', 'node2.log', 'node3.log'];
const SCREENSHOTS = join(import.meta.dirname, '..', 'test-results', 'screenshots');

interface DropSpec {
  name: string;
  text: string;
}

const nodeLogSpecs = (): DropSpec[] =>
  NODE_LOGS.map((name) => ({ name, text: readFileSync(join(FIXTURES, name), 'utf8') }));

/** Drops files the way a browser does: one real DataTransfer through dragenter, dragover and drop. */
async function dropFiles(page: Page, specs: DropSpec[]): Promise<void> {
  const dataTransfer = await page.evaluateHandle((items: DropSpec[]) => {
    const transfer = new DataTransfer();
    for (const item of items) transfer.items.add(new File([item.text], item.name, { type: 'text/plain' }));
    return transfer;
  }, specs);
  await dispatchDrop(page, dataTransfer);
}

async function dispatchDrop(page: Page, dataTransfer: Awaited<ReturnType<Page['evaluateHandle']>>) {
  const zone = page.getByTestId('drop-zone');
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
  await dataTransfer.dispose();
}

const row = (page: Page, node: string) => page.locator(`[data-testid="timeline-row"][data-node="${node}"]`);
const bar = (page: Page, node: string, kind: string) =>
  page.locator(`[data-testid="timeline-bar"][data-node="${node}"][data-kind="${kind}"]`);

async function box(l: Locator) {
  const b = await l.boundingBox();
  if (!b) throw new Error('not visible');
  return b;
}

test.describe('the s2 job (node3 45 s late, timeout 30 s)', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/');
    await dropFiles(page, nodeLogSpecs());
    await expect(page.getByTestId('timeline')).toBeVisible();
  });

  test('the timeline shows four rows, node3 starting ~45 s after node0, and the 30 s limit labelled', async ({
    page,
  }) => {
    const timeline = page.getByTestId('timeline');
    await expect(timeline.getByTestId('timeline-row')).toHaveCount(4);
    await expect(timeline).toContainText("Seconds after node0's launch");

    const node0 = bar(page, 'node0', 'rendezvous');
    const node3 = bar(page, 'node3', 'rendezvous');
    expect(Number(await node0.getAttribute('data-start'))).toBe(0);
    const start3 = Number(await node3.getAttribute('data-start'));
    expect(start3).toBeGreaterThan(44);
    expect(start3).toBeLessThan(46);

    // The 30 s timeout from the logs is a labelled line, and it sits between node0's start and node3's.
    const label = timeline.locator('[data-testid="timeline-limit-label"][data-seconds="30"]');
    await expect(label).toHaveText('rendezvous timeout 30 s');
    const line = timeline.locator('[data-testid="timeline-limit"][data-seconds="30"]');
    await expect(line).toBeVisible();
    const [b0, b3, l30] = [await box(node0), await box(node3), await box(line)];
    expect(b0.x).toBeLessThan(l30.x);
    expect(b3.x).toBeGreaterThan(l30.x);
    // Position on the axis: 30 s is two thirds of the way from node0's start to node3's.
    expect((l30.x - b0.x) / (b3.x - b0.x)).toBeCloseTo(30 / start3, 1);

    // Hovering a bar shows exact times, the duration and the evidence line.
    await node3.hover();
    const tip = page.getByTestId('timeline-tooltip');
    await expect(tip).toContainText('node3 — Waiting in rendezvous');
    await expect(tip).toContainText('node3.log:1');
    await expect(tip).toContainText('Ended in a failure: Store connect');
  });

  test('clicking node3’s failure marker opens its evidence and selects the row', async ({ page }) => {
    await expect(row(page, 'node3')).toHaveAttribute('aria-selected', 'false');
    const marker = page.locator('[data-testid="timeline-marker"][data-node="node3"][data-kind="failure"]').first();
    const line = await marker.getAttribute('data-line');
    await marker.click();
    await expect(row(page, 'node3')).toHaveAttribute('aria-selected', 'true');
    await expect(row(page, 'node0')).toHaveAttribute('aria-selected', 'false');
    await expect(page.getByTestId('timeline-status')).toContainText(`node3.log:${line}`);
  });

  test('zoom and pan from the keyboard and the buttons', async ({ page }) => {
    // Seconds on screen: the gap between the 30 s line and node3's start (45 s) widens when zooming in.
    const line = page.locator('[data-testid="timeline-limit"][data-seconds="30"]');
    const node3 = bar(page, 'node3', 'rendezvous');
    const gap = async () => (await box(node3)).x - (await box(line)).x;
    const before = await gap();
    expect(before).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'Zoom in (+)' }).click();
    expect(await gap()).toBeCloseTo(before * 1.5, -1);
    // Keys work wherever focus is inside the grid: 0 fits everything again, + zooms, ← pans.
    await page.locator('[data-testid="timeline-row"][data-node="node0"] .tl-row__name').focus();
    await page.keyboard.press('0');
    await expect.poll(gap).toBeCloseTo(before, 0);
    await page.keyboard.press('+');
    await expect.poll(gap).toBeCloseTo(before * 1.5, -1);
    const x = (await box(line)).x;
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await box(line)).x).toBeGreaterThan(x + 20);
    await page.keyboard.press('0');
    await expect.poll(gap).toBeCloseTo(before, 0);
    // Dragging the rows pans; Ctrl + wheel zooms around the pointer.
    const plot = row(page, 'node1').locator('.tl-row__plot');
    const p = await box(plot);
    const lineX = (await box(line)).x;
    await page.mouse.move(p.x + p.width * 0.8, p.y + p.height / 2);
    await page.mouse.down();
    await page.mouse.move(p.x + p.width * 0.8 - 60, p.y + p.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await box(line)).x).toBeCloseTo(lineX - 60, -1);
    const gapBefore = await gap();
    await page.mouse.move(((await box(line)).x + (await box(node3)).x) / 2, p.y + p.height / 2);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
    await expect.poll(gap).toBeGreaterThan(gapBefore * 1.2);
    await page.locator('[data-testid="timeline-row"][data-node="node0"] .tl-row__name').focus();
    await page.keyboard.press('0');
    // Arrow keys up and down move between nodes.
    await page.keyboard.press('ArrowDown');
    await expect(page.locator('[data-testid="timeline-row"][data-node="node1"] .tl-row__name')).toBeFocused();
  });

  test('the skew chart shows node3’s bar past the 30 s limit', async ({ page }) => {
    const chart = page.getByTestId('skew-chart');
    const node3 = chart.locator('[data-testid="skew-bar"][data-node="node3"]');
    await expect(node3).toHaveAttribute('data-crossed-label', 'rendezvous timeout 30 s');
    await expect(chart.locator('[data-testid="skew-bar"][data-node="node1"]')).toHaveAttribute('data-crossed', '');
    // Drawn past the labelled reference line.
    const limit = chart.locator('.skew-ref--limit line').first();
    const [b, l] = [await box(node3), await box(limit)];
    expect(b.x + b.width).toBeGreaterThan(l.x + 5);
    expect(b.x).toBeLessThan(l.x);
    await expect(chart).toContainText('rendezvous timeout 30 s');
    await expect(chart.getByTestId('skew-summary')).toContainText(
      'node3 launched 45.1 s after node0: past the rendezvous timeout 30 s in force by 15.1 s',
    );
  });

  test('the what-if slider: at 1800 s every node would have made it', async ({ page }) => {
    const slider = page.getByTestId('what-if-slider');
    const range = slider.getByTestId('what-if-range');
    await expect(range).toHaveValue('1800');
    await range.fill('600');
    await expect(slider.getByTestId('what-if-number')).toHaveValue('600');
    await expect(slider.getByTestId('what-if-verdict')).toContainText('With timeout = 600 s every node');
    await range.fill('1800');
    await expect(slider.getByTestId('what-if-verdict')).toContainText('every node would have made it');
    await expect(slider.getByTestId('what-if-verdict')).toContainText('to spare');
    // The latest node leads the list, with its spare time.
    await expect(slider.getByTestId('what-if-nodes').locator('tbody tr').first()).toHaveAttribute('data-node', 'node3');
    await slider.getByTestId('what-if-number').fill('90');
    await expect(range).toHaveValue('90');
    await expect(slider.getByTestId('what-if-nodes').locator('tbody tr').first()).toContainText('to spare');
  });
});

const CORPUS = join(import.meta.dirname, '..', 'test', 'fixtures', 'corpus');
const corpusSpecs = (scenario: string, files: string[]): DropSpec[] =>
  files.map((name) => ({ name, text: readFileSync(join(CORPUS, scenario, name), 'utf8') }));

test('logs without times: the timeline says what it cannot place, why, and how to capture times', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, corpusSpecs('torch1.13-s1_healthy_static', NODE_LOGS));
  const timeline = page.getByTestId('timeline');
  await expect(timeline.getByTestId('timeline-unplaced')).toContainText('No node can be placed on the time axis.');
  await expect(timeline.getByTestId('timeline-unplaced')).toContainText('torch ≤ 2.0 prints none at default settings');
  await expect(timeline.getByTestId('timeline-unplaced')).toContainText('export LOGLEVEL=INFO');
  await expect(timeline.getByTestId('timeline-row')).toHaveCount(4);
  await expect(row(page, 'node0')).toContainText('Not placed:');
  await expect(row(page, 'node0')).toContainText('init_process_group done after 0.27s');
  await expect(timeline.getByTestId('timeline-bar')).toHaveCount(0);
  // The reason is a way into the evidence too.
  await row(page, 'node0')
    .getByRole('button', { name: /node0: Not placed/ })
    .click();
  await expect(page.getByTestId('timeline-status')).toContainText('node0.log:7');
  // With no node on the time axis there is no skew chart, and without a launch time (nor a backend the logs
  // name) no what-if: only the timeline says why.
  await expect(page.getByTestId('skew-chart')).toHaveCount(0);
  await expect(page.getByTestId('what-if-slider')).toHaveCount(0);
});

test('work before torchrun and per-rank lanes (Kubernetes timestamps, p2)', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, corpusSpecs('torch1.13-capture-p2', ['node0.log', 'node1.log', 'node2.log']));
  const timeline = page.getByTestId('timeline');
  const pre = bar(page, 'node1', 'pre-launch');
  await expect(pre).toBeVisible();
  await pre.focus();
  await expect(page.getByTestId('timeline-tooltip')).toContainText('node1 — Before torchrun');
  await expect(page.getByTestId('timeline-tooltip')).toContainText('downloading dataset shard');
  await expect(timeline.getByTestId('timeline-lane')).toHaveCount(0);
  await timeline.getByRole('button', { name: 'Ranks' }).click();
  await expect(timeline.getByTestId('timeline-lane')).toHaveCount(3);
  await expect(
    timeline.locator('[data-testid="timeline-lane"][data-node="node1"] [data-testid="timeline-bar"]'),
  ).toHaveCount(2);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme, viewport: { width: 1280, height: 900 } });

    test('screenshots of the dashboard with the timeline', async ({ page }) => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.goto('/');
      await dropFiles(page, nodeLogSpecs());
      await expect(page.getByTestId('timeline')).toBeVisible();
      await expect(page.getByTestId('skew-bar')).toHaveCount(4);
      await bar(page, 'node3', 'rendezvous').hover();
      await expect(page.getByTestId('timeline-tooltip')).toBeVisible();
      await page.getByTestId('timeline').screenshot({ path: join(SCREENSHOTS, `timeline-${colorScheme}.png`) });
      await page.mouse.move(0, 0);
      await page.screenshot({ path: join(SCREENSHOTS, `dashboard-${colorScheme}.png`), fullPage: true });
    });
  });
}

/**
 * A 1024-node job made from the real s2 logs: node0 is the store host (node0.log), the others copies of a client
 * that waited (node1.log) or, for ten of them, of the late node that found the host gone (node3.log) — each
 * renamed, re-ranked and shifted to its own launch time.
 */
function bigJob(): { plan: { name: string; template: string; rank: number; shift: number; lag: number }[] } {
  const launch = (file: string) => {
    const m = /^I\d{4} (\d\d):(\d\d):(\d\d\.\d+)/.exec(readFileSync(join(FIXTURES, file), 'utf8'))!;
    return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  };
  const t0 = launch('node0.log');
  const plan = Array.from({ length: 1024 }, (_, i) => {
    const late = i % 100 === 37;
    const template = i === 0 ? 'node0.log' : late ? 'node3.log' : 'node1.log';
    const lag = i === 0 ? 0 : late ? 40 + Math.floor(i / 100) * 7.5 : ((i * 389) % 1024) * 0.025;
    return { name: `node${i}`, template, rank: i, lag, shift: t0 + lag - launch(template) };
  });
  return { plan };
}

test('a 1024-node job: rows are virtualised, sorting by lag puts the latest first, the filter narrows', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  const { plan } = bigJob();
  const templates = Object.fromEntries(
    ['node0.log', 'node1.log', 'node3.log'].map((f) => [f, readFileSync(join(FIXTURES, f), 'utf8')]),
  );
  const dataTransfer = await page.evaluateHandle(
    ({ plan, templates }) => {
      const transfer = new DataTransfer();
      const pad = (n: number, w = 2) => String(n).padStart(w, '0');
      // glog `I1129 18:29:57.437000` and C++ `[E1129 18:31:02.037662347`, moved by `shift` seconds.
      const move = (h: string, mi: string, s: string, frac: string, shift: number) => {
        const scale = 10 ** frac.length;
        const t = Math.round(((Number(h) * 60 + Number(mi)) * 60 + Number(s) + shift) * scale + Number(frac));
        const sec = Math.floor(t / scale);
        return `${pad(Math.floor(sec / 3600) % 24)}:${pad(Math.floor(sec / 60) % 60)}:${pad(sec % 60)}.${pad(t % scale, frac.length)}`;
      };
      for (const p of plan) {
        const body = templates[p.template]!.replace(
          /^(\[?[IWEF]\d{4}) (\d\d):(\d\d):(\d\d)\.(\d{6,9})/gm,
          (_m, pre: string, h: string, mi: string, sec: string, frac: string) =>
            `${pre} ${move(h, mi, sec, frac, p.shift)}`,
        )
          .replace(/'rank': \d+\}/, `'rank': ${p.rank}}`)
          .replace(/(min_nodes|max_nodes)(\s+): 4/g, '$1$2: 1024');
        transfer.items.add(new File([body], `${p.name}.log`, { type: 'text/plain' }));
      }
      return transfer;
    },
    { plan, templates },
  );
  await dispatchDrop(page, dataTransfer);

  const timeline = page.getByTestId('timeline');
  // The timeline of the files read so far is drawn while the rest is read; the test reads the whole job's.
  await expect(timeline).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('progress')).toHaveCount(0, { timeout: 120_000 });
  await expect(page.getByTestId('timeline-count')).toHaveText('1,024 nodes');
  const grid = timeline.getByRole('grid');
  await expect(grid).toHaveAttribute('aria-rowcount', '1025');
  const rendered = await timeline.getByTestId('timeline-row').count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(60);

  const latest = [...plan].sort((a, b) => b.lag - a.lag)[0]!;
  expect(latest.name).toBe('node937');
  await page.getByTestId('timeline-sort').selectOption('lag');
  const first = timeline.locator('[data-testid="timeline-row"][aria-rowindex="2"]');
  await expect(first).toHaveAttribute('data-node', 'node937');
  await expect(first).toContainText('+107.5 s');
  await expect(timeline.locator('[data-testid="timeline-row"][aria-rowindex="3"]')).toHaveAttribute(
    'data-node',
    'node837',
  );
  await timeline.screenshot({ path: join(SCREENSHOTS, 'timeline-1024.png') });

  // Scrolling renders the rows further down, still only a window of them.
  await timeline.locator('.tl__viewport').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(timeline.locator('[data-testid="timeline-row"][aria-rowindex="1025"]')).toBeVisible();
  await expect(timeline.locator('[data-testid="timeline-row"][aria-rowindex="1025"]')).toHaveAttribute(
    'data-node',
    'node0',
  );
  expect(await timeline.getByTestId('timeline-row').count()).toBeLessThan(60);

  await page.getByTestId('timeline-filter').fill('node10');
  await expect(page.getByTestId('timeline-count')).toHaveText('35 of 1,024 nodes');
  const names = await timeline
    .getByTestId('timeline-row')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-node') ?? ''));
  expect(names.length).toBeGreaterThan(10);
  expect(names.every((n) => n.startsWith('node10'))).toBe(true);
  // The filtered list starts from its top.
  await expect(timeline.locator('[data-testid="timeline-row"][aria-rowindex="2"]')).toBeVisible();

  // The skew chart switches to a histogram for a job this large.
  await expect(page.getByTestId('skew-chart').getByRole('button', { name: 'Histogram' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  expect(await page.getByTestId('skew-bin').count()).toBeGreaterThan(5);
  await page.getByTestId('skew-chart').screenshot({ path: join(SCREENSHOTS, 'skew-1024.png') });
});
