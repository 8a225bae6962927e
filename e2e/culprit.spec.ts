import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { dropFiles, type DropSpec } from './helpers';

// The verdict header on real captured runs (test/fixtures/captured, torch 2.6 on simulated nodes): who caused
// the failure — a late store host, or a worker that crashed and was not late — and the limit that fired with
// where its value comes from.

const CAPTURED = join(import.meta.dirname, '..', 'test', 'fixtures', 'captured');

function logsOf(scenario: string): DropSpec[] {
  return readdirSync(join(CAPTURED, scenario))
    .filter((f) => f.endsWith('.log'))
    .map((name) => ({ name, text: readFileSync(join(CAPTURED, scenario, name), 'utf8') }));
}

test('a worker that crashed is named as the cause, not as late, with the limit its peers waited', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, logsOf('torch2.6-c10d-crash-before-pg-init'));
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  await expect(page.getByTestId('late-nodes')).toContainText('Caused by: node1');
  await expect(page.getByTestId('late-nodes')).not.toContainText(/late node/i);
  await expect(page.locator('.facts')).toContainText(/Timeout ?60(\.0)? s \(printed in the logs\)/);
  const findings = page.getByTestId('findings');
  await expect(findings).toContainText('A worker on node1 failed with its own error');
  await expect(findings).not.toContainText('started 5.2 s after');
});

test('the store host late: the host is the culprit and the clients’ connect limit is the one that fired', async ({
  page,
}) => {
  await page.goto('/');
  await dropFiles(page, logsOf('torch2.6-c10d-host-late-fail'));
  await expect(page.getByTestId('late-nodes')).toContainText('node0');
  await expect(page.locator('.facts')).toContainText('(printed in the logs)');
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.getByTestId('late-nodes')).toContainText('node0');
  await expect(page.locator('.facts')).toContainText('（日志中已打印）');
});
