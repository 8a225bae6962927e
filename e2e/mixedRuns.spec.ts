import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { type DropSpec, dropFiles, nodeIds, watchErrors } from './helpers';

// Files of another run dropped onto the job on screen: the dashboard asks whether to add them to this job or
// to start a new one, showing the runs (the core's grouping: rendezvous ids, endpoints). Real captured pairs
// of runs (test/fixtures/captured/*-mixed-runs): run A is node0/node1, run B node2/node3.

const CAPTURED = join(import.meta.dirname, '..', 'test', 'fixtures', 'captured');

const logs = (scenario: string, names: string[]): DropSpec[] =>
  names.map((name) => ({ name, text: readFileSync(join(CAPTURED, scenario, name), 'utf8') }));

const RUN_A = ['node0.log', 'node1.log'];
const RUN_B = ['node2.log', 'node3.log'];

/** Run A's job on screen, then run B's files dropped onto it. */
async function dropAThenB(page: Page, scenario: string): Promise<void> {
  await page.goto('/');
  await dropFiles(page, logs(scenario, RUN_A));
  await expect(page.getByTestId('node-table')).toBeVisible();
  expect(await nodeIds(page)).toEqual(['node0', 'node1']);
  await dropFiles(page, logs(scenario, RUN_B));
  await expect(page.getByTestId('mixed-dialog')).toBeVisible();
}

test('1.13: the other run is asked about, with both runs shown; "Start a new job" keeps only its files', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await dropAThenB(page, 'torch1.13-mixed-runs');
  const dialog = page.getByTestId('mixed-dialog');
  await expect(dialog.getByRole('heading', { name: 'These files are from another run' })).toBeVisible();
  await expect(dialog).toContainText('another rendezvous id (--rdzv_id)');
  const runs = dialog.getByTestId('mixed-run');
  await expect(runs).toHaveCount(2);
  await expect(runs.nth(0)).toHaveAttribute('data-source', 'shown');
  await expect(runs.nth(0)).toContainText('On screen');
  await expect(runs.nth(0).getByTestId('mixed-run-key')).toHaveText('rdzv_id=trainjob-a, rdzv_endpoint=node0:29500');
  await expect(runs.nth(0).getByTestId('mixed-run-nodes')).toHaveText('node0 and node1');
  await expect(runs.nth(0).getByTestId('mixed-run-files')).toHaveText('node0.log and node1.log');
  // Run A's 1.13 lines carry no time; run B's node2 printed timed c10d lines.
  await expect(runs.nth(0).getByTestId('mixed-run-time')).toHaveText('Its lines carry no time.');
  await expect(runs.nth(1)).toHaveAttribute('data-source', 'added');
  await expect(runs.nth(1).getByTestId('mixed-run-key')).toHaveText('rdzv_id=trainjob-b, rdzv_endpoint=node0:29600');
  await expect(runs.nth(1).getByTestId('mixed-run-nodes')).toHaveText('node2 and node3');
  await expect(runs.nth(1).getByTestId('mixed-run-time')).toContainText('2026-12-01 12:0');
  // The job on screen stays as it was while the question is open.
  expect(await nodeIds(page)).toEqual(['node0', 'node1']);

  // Keyboard: the first choice has the focus, Tab and Shift+Tab stay in the dialog.
  const add = page.getByTestId('mixed-add');
  const fresh = page.getByTestId('mixed-new');
  await expect(add).toBeFocused();
  await expect(add).toHaveAccessibleName('Add to this job');
  await page.keyboard.press('Tab');
  await expect(fresh).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(add).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(fresh).toBeFocused();
  await expect(fresh).toContainText('analyse only the files just added (2)');

  await page.keyboard.press('Enter');
  await expect(page.getByTestId('mixed-dialog')).toHaveCount(0);
  await expect.poll(() => nodeIds(page)).toEqual(['node2', 'node3']);
  await expect(page.getByText('All 2 files')).toBeVisible();
  await expect(page.getByTestId('findings')).not.toContainText('different runs');
  // Run B on its own: node2 came 60 s late, beyond join_timeout=40, and the run failed.
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  expect(errors).toEqual([]);
});

test('2.6: "Add to this job" keeps both runs in one job, and the finding names the runs', async ({ page }) => {
  const errors = watchErrors(page);
  await dropAThenB(page, 'torch2.6-mixed-runs');
  const runs = page.getByTestId('mixed-run');
  await expect(page.getByTestId('mixed-dialog')).toContainText('another rendezvous endpoint');
  await expect(runs.nth(0).getByTestId('mixed-run-key')).toHaveText('rdzv_endpoint=node0:29500');
  await expect(runs.nth(1).getByTestId('mixed-run-key')).toHaveText('rdzv_endpoint=node0:29700');
  // Each run's time range from its lines: run B started after run A had ended.
  await expect(runs.nth(0).getByTestId('mixed-run-time')).toContainText('2026-12-01 12:02:13.292 UTC →');
  await expect(runs.nth(1).getByTestId('mixed-run-time')).toContainText('2026-12-01 12:02:46.207 UTC →');

  await page.getByTestId('mixed-add').click();
  await expect(page.getByTestId('mixed-dialog')).toHaveCount(0);
  await expect.poll(() => nodeIds(page)).toEqual(['node0', 'node1', 'node2', 'node3']);
  const findings = page.getByTestId('findings');
  await expect(findings).toContainText('These logs come from 2 different runs');
  await expect(findings).toContainText('rdzv_endpoint=node0:29500: node0, node1');
  await expect(findings).toContainText('rdzv_endpoint=node0:29700: node2, node3');
  expect(errors).toEqual([]);
});

test('Esc answers as a drop always did: the files are added', async ({ page }) => {
  await dropAThenB(page, 'torch2.6-mixed-runs');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('mixed-dialog')).toHaveCount(0);
  await expect.poll(() => nodeIds(page)).toEqual(['node0', 'node1', 'node2', 'node3']);
  await expect(page.getByTestId('findings')).toContainText('These logs come from 2 different runs');
});

test('one run never asks: more nodes of the same run, or two runs dropped together', async ({ page }) => {
  await page.goto('/');
  const scenario = 'torch2.6-c10d-restart-once-noshare';
  await dropFiles(page, logs(scenario, ['node0.log', 'node1.log']));
  await expect.poll(() => nodeIds(page)).toEqual(['node0', 'node1']);
  await dropFiles(page, logs(scenario, ['node2.log']));
  await expect.poll(() => nodeIds(page)).toEqual(['node0', 'node1', 'node2']);
  await expect(page.getByTestId('mixed-dialog')).toHaveCount(0);

  // Both runs in one drop: nothing was on screen to add them to; the finding says they are two runs.
  await page.getByTestId('start-over').click();
  await dropFiles(page, logs('torch1.13-mixed-runs', [...RUN_A, ...RUN_B]));
  await expect(page.getByTestId('findings')).toContainText('These logs come from 2 different runs');
  await expect(page.getByTestId('mixed-dialog')).toHaveCount(0);
});

test('in Chinese, and on a 390 px phone nothing runs out of the dialog', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.getByRole('button', { name: '中文' }).click();
  await dropFiles(page, logs('torch2.6-mixed-runs', RUN_A));
  await expect(page.getByTestId('node-table')).toBeVisible();
  await dropFiles(page, logs('torch2.6-mixed-runs', RUN_B));
  const dialog = page.getByTestId('mixed-dialog');
  await expect(dialog.getByRole('heading', { name: '这些文件来自另一次运行' })).toBeVisible();
  await expect(dialog.getByTestId('mixed-run').nth(0)).toContainText('屏幕上的');
  await expect(dialog.getByTestId('mixed-run').nth(1)).toContainText('刚加入的');
  await expect(page.getByTestId('mixed-add')).toHaveAccessibleName('加入当前作业');
  await expect(page.getByTestId('mixed-new')).toHaveAccessibleName('开始新作业');
  const overflow = await dialog.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const out = [...el.querySelectorAll<HTMLElement>('*')].filter((c) => {
      const r = c.getBoundingClientRect();
      return r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5);
    });
    return {
      dialog: [box.left, box.right],
      scroll: el.scrollWidth - el.clientWidth,
      out: out.map((c) => c.className),
    };
  });
  expect(overflow.dialog[0]).toBeGreaterThanOrEqual(0);
  expect(overflow.dialog[1]).toBeLessThanOrEqual(390);
  expect(overflow.scroll).toBe(0);
  expect(overflow.out).toEqual([]);
  // The choices stack on a phone, each the full width of the dialog.
  const [a, b] = [await page.getByTestId('mixed-add').boundingBox(), await page.getByTestId('mixed-new').boundingBox()];
  expect(b!.y).toBeGreaterThan(a!.y + a!.height - 1);
  await page.getByTestId('mixed-new').click();
  await expect.poll(() => nodeIds(page)).toEqual(['node2', 'node3']);
});
