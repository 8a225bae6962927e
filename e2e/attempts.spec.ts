import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, type DropSpec } from './helpers';

// A restarted node's attempts on real captured restarts (test/fixtures/captured: --max-restarts with a worker
// that crashes once): on its timeline row (a tag, a strip of attempts under its bars, a line where each begins)
// and in its details (each attempt: when, whether its rendezvous completed, what ended it, attempts left).

const CAPTURED = join(import.meta.dirname, '..', 'test', 'fixtures', 'captured');

const logs = (scenario: string, names: string[]): DropSpec[] =>
  names.map((name) => ({ name, text: readFileSync(join(CAPTURED, scenario, name), 'utf8') }));

const NODES = ['node0.log', 'node1.log', 'node2.log'];

const details = async (page: Page, node: string) => {
  await page.getByTestId('node-table').locator(`tr[data-node="${node}"] .nodes-toggle`).click();
  return page.getByTestId('attempts');
};

test('2.6 restart once: node1’s two attempts on its row, their tooltip, and the line that ended the first', async ({
  page,
}) => {
  await page.goto('/');
  await dropFiles(page, logs('torch2.6-c10d-restart-once-noshare', NODES));
  await expect(page.getByTestId('verdict')).toContainText(/healthy/i);
  const timeline = page.getByTestId('timeline');
  // Only node1 restarted (its worker crashed); node0 and node2 only saw it re-join, restart_count 0.
  await expect(timeline.getByTestId('timeline-restarts')).toHaveCount(1);
  const row = timeline.locator('[data-testid="timeline-row"][data-node="node1"]');
  await expect(row.getByTestId('timeline-restarts')).toHaveText('↻ 1');
  const segments = row.getByTestId('timeline-attempt');
  await expect(segments).toHaveCount(2);
  await expect(segments.nth(0)).toHaveAttribute('data-index', '0');
  await expect(segments.nth(1)).toHaveAttribute('data-index', '1');
  // End to end: attempt 0 ends where attempt 1 begins (node1.log: 11:57:52.901, 21.370 s after node1's launch).
  await expect(segments.nth(0)).toHaveAttribute('data-end', '21.370');
  await expect(segments.nth(1)).toHaveAttribute('data-start', '21.370');
  await expect(segments.nth(0)).toHaveAccessibleName(
    /^node1: Attempt 0, from 0\.000 s for 21\.4 s\. Its rendezvous completed\. Worker error, then the worker group restarted \(2\/2 attempts left\)\. Opens node1\.log:68$/,
  );
  await expect(timeline.locator('.tl__legend')).toContainText('Attempts of a restarted node (restart_count)');

  await segments.nth(0).hover();
  const tip = page.getByTestId('timeline-tooltip');
  await expect(tip).toContainText('node1 — Attempt 0');
  await expect(tip).toContainText('Its rendezvous completed');
  await expect(tip).toContainText('Worker error, then the worker group restarted (2/2 attempts left)');
  await expect(tip).toContainText('node1.log:68');
  await expect(tip).toContainText('failed (exitcode: 1)');
  await expect(tip).toContainText('Ends at node1.log:69');
  await expect(tip).toContainText('Worker group FAILED. 2/2 attempts left');

  await segments.nth(0).click();
  const viewer = page.getByRole('dialog');
  await expect(viewer.getByTestId('evidence-path')).toHaveText('node1.log');
  await expect(viewer.locator('[data-line="68"]')).toHaveClass(/ev-row--target/);
  await expect(viewer.locator('[data-line="68"]')).toContainText('failed (exitcode: 1)');
  await page.keyboard.press('Escape');

  const attempts = await details(page, 'node1');
  const items = attempts.getByTestId('attempt');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('restart_count=0');
  await expect(items.nth(0)).toContainText('began 11:57:31.531 UTC · lasted 21.4 s');
  await expect(items.nth(0).getByTestId('attempt-rdzv')).toHaveText('completed');
  await expect(items.nth(0).getByTestId('attempt-ended')).toHaveText(
    'Worker error, then the worker group restarted (2/2 attempts left)',
  );
  await expect(items.nth(1).getByTestId('attempt-rdzv')).toHaveText('completed');
  await expect(items.nth(1).getByTestId('attempt-ended')).toHaveText('The last attempt in its log');
  // Each line opens in the evidence viewer.
  await items.nth(0).getByTestId('attempt-evidence').nth(1).click();
  await expect(viewer.locator('[data-line="69"]')).toHaveClass(/ev-row--target/);
  await expect(viewer.locator('[data-line="69"]')).toContainText('Worker group FAILED');
  await page.keyboard.press('Escape');
  // A node that never restarted has no attempts to show.
  await page.getByTestId('node-table').locator('tr[data-node="node1"] .nodes-toggle').click();
  await details(page, 'node0');
  await expect(page.getByTestId('attempts')).toHaveCount(0);
});

test('2.6 --log-dir: node0’s second attempt never completed its rendezvous, and the node failed there', async ({
  page,
}) => {
  await page.goto('/');
  await dropFiles(page, logs('torch2.6-c10d-logdir-restart', NODES));
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  const segments = page.locator('[data-testid="timeline-attempt"][data-node="node0"]');
  await expect(segments).toHaveCount(2);
  await expect(segments.nth(0)).toHaveAttribute('data-formed', '');
  await expect(segments.nth(1)).not.toHaveAttribute('data-formed');
  await expect(segments.nth(1)).toHaveClass(/is-unformed/);
  const attempts = await details(page, 'node0');
  const last = attempts.getByTestId('attempt').nth(1);
  await expect(last.getByTestId('attempt-rdzv')).toHaveText('did not complete');
  await expect(last.getByTestId('attempt-ended')).toHaveText(
    /^The last attempt in its log: the node failed there \(.+\)$/,
  );
  await expect(attempts.getByTestId('attempt').nth(0).getByTestId('attempt-ended')).toHaveText(
    'Worker error, then the worker group restarted (1/1 attempts left)',
  );
});

test('1.13: no times to draw, but the rows say they restarted and the details list each attempt', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, logs('torch1.13-c10d-restart-once', NODES));
  await expect(page.getByTestId('verdict')).toContainText(/healthy/i);
  const timeline = page.getByTestId('timeline');
  await expect(timeline.getByTestId('timeline-unplaced')).toBeVisible();
  await expect(timeline.getByTestId('timeline-attempt')).toHaveCount(0);
  await expect(timeline.getByTestId('timeline-restarts')).toHaveCount(2);
  const attempts = await details(page, 'node0');
  const items = attempts.getByTestId('attempt');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('its lines carry no time');
  await expect(items.nth(0).getByTestId('attempt-ended')).toHaveText(
    'Worker error, then the worker group restarted (2/2 attempts left)',
  );
  await expect(items.nth(0).getByTestId('attempt-evidence').nth(0)).toContainText('node0.log:63');
});

test('1.13 --log-dir tree, chosen as a folder: the attempts in Chinese, and the details fit a 390 px phone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.getByRole('button', { name: '中文' }).click();
  await page.getByTestId('folder-input').setInputFiles(join(CAPTURED, 'torch1.13-c10d-logdir-restart'));
  await expect(page.getByTestId('node-table')).toBeVisible();
  const attempts = await details(page, 'node0');
  await expect(attempts.getByRole('heading', { name: '尝试' })).toBeVisible();
  const items = attempts.getByTestId('attempt');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0).getByTestId('attempt-rdzv')).toHaveText('已完成');
  await expect(items.nth(0).getByTestId('attempt-ended')).toHaveText(
    'worker 报错，随后 worker 组重启（还剩 1/1 次尝试）',
  );
  const out = await attempts.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return [...el.querySelectorAll<HTMLElement>('*')]
      .filter((c) => {
        const r = c.getBoundingClientRect();
        return r.width > 0 && r.right > box.right + 0.5;
      })
      .map((c) => c.className);
  });
  expect(out).toEqual([]);
});
