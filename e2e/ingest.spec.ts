// Getting logs in: folders, archives unpacked in the browser, cancelling a large read, pasted text, adding files
// to the job on screen, and what a bomb or a damaged archive looks like. Real logs from e2e/fixtures/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { zipSync } from 'fflate';
import { type DropSpec, dropFiles, nodeIds, watchErrors } from './helpers';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const S2_LOGS = ['node0.log', 'node1.log', 'node2.log', 'node3.log'];
/** Made with `tar --sort=name --owner=0 --group=0 --mtime=… -czf s5.tar.gz s5` from e2e/fixtures/s5/. */
const S5_TAR_GZ = join(FIXTURES, 's5.tar.gz');
/** The s5 scenario's files: four node logs and four `--log-dir` trees of four files each. */
const S5_FILES = 20;

function s2Text(name: string): string {
  return readFileSync(join(FIXTURES, 's2', name), 'utf8');
}

function s2Specs(names = S2_LOGS): DropSpec[] {
  return names.map((name) => ({ name, text: s2Text(name) }));
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

test('a --log-dir tree picked with "Choose folder" is one healthy job of node0..node3', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await expect(page.getByTestId('drop-zone')).toBeVisible();
  await page.getByTestId('folder-input').setInputFiles(join(FIXTURES, 's5'));

  await expect(page.getByTestId('verdict')).toContainText(/healthy/i);
  expect(await nodeIds(page)).toEqual(['node0', 'node1', 'node2', 'node3']);
  await expect(page.getByText(`All ${S5_FILES} files`)).toBeVisible();
  // The folder's name is kept in front of every path: `s5/node2_logdir/…/stdout.log` still names node2.
  await expect(page.getByTestId('file-problems')).toContainText('s5/node2_logdir/');
  expect(errors).toEqual([]);
});

test('a .tar.gz of the same tree gives the same verdict and nodes; a .zip of node logs names the late node', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await dropFiles(page, [{ name: 's5.tar.gz', base64: base64(readFileSync(S5_TAR_GZ)) }]);

  await expect(page.getByTestId('verdict')).toContainText(/healthy/i);
  expect(await nodeIds(page)).toEqual(['node0', 'node1', 'node2', 'node3']);
  await expect(page.getByText(`All ${S5_FILES} files`)).toBeVisible();
  // Each member is a file of its own, named <archive>/<path inside>.
  await expect(page.getByTestId('file-problems')).toContainText(
    's5.tar.gz/s5/node3_logdir/s5-job_9uwaxenb/attempt_0/1/stderr.log',
  );

  await page.getByRole('button', { name: 'Start over', exact: true }).click();
  const zip = zipSync(Object.fromEntries(S2_LOGS.map((name) => [name, new TextEncoder().encode(s2Text(name))])));
  await dropFiles(page, [{ name: 'job-logs.zip', base64: base64(zip) }]);
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  await expect(page.getByTestId('late-nodes')).toContainText('node3');
  expect(await nodeIds(page)).toEqual(['node0', 'node1', 'node2', 'node3']);
  await expect(page.getByTestId('file-problems')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('cancelling a large read keeps the files already read, and the page stays usable', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  // Lines a worker prints during training (no torchrun anchor on them), repeated to about 300 MB.
  const noise = s2Text('node0.log')
    .split('\n')
    .filter((line) => line.includes('[rank'))
    .join('\n');
  await dropFiles(page, [...s2Specs(), { name: 'train-output.log', text: `${noise}\n`, repeatToBytes: 300e6 }]);

  // The four node logs are read while the large file is still being read: cancel then.
  await expect(page.getByText(/^4 of 5 files/)).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();

  await expect(page.getByRole('note')).toContainText('Cancelled: the results below cover 4 of 5 files');
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  await expect(page.getByTestId('late-nodes')).toContainText('node3');
  await expect(page.getByTestId('file-problems')).toContainText('train-output.log');
  await expect(page.getByTestId('file-problems')).toContainText('the run was cancelled');

  // Still usable: the job can be started over and another drop is read.
  await page.getByRole('button', { name: 'Start over', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('torchrun');
  await dropFiles(page, s2Specs());
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  await expect(page.getByRole('note')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('pasted text for two nodes joins the job of the two files dropped before', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await dropFiles(page, s2Specs(['node0.log', 'node1.log']));
  await expect(page.getByTestId('verdict')).toBeVisible();
  expect(await nodeIds(page)).toEqual(['node0', 'node1']);

  const open = page.getByRole('button', { name: 'Paste log text' });
  await open.click();
  const dialog = page.getByRole('dialog', { name: 'Paste log text' });
  await expect(dialog).toBeVisible();
  const text = dialog.getByRole('textbox', { name: 'Log text' });
  const name = dialog.getByRole('textbox', { name: 'File name' });
  await expect(text).toBeFocused();
  await expect(name).toHaveValue('pasted-1.log');
  await expect(dialog.getByRole('button', { name: 'Analyse' })).toBeDisabled();

  // Esc closes it and gives focus back to the button that opened it.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();

  await open.click();
  await expect(text).toBeFocused();
  // Focus stays in the dialog: Shift+Tab from the first control goes to the last one.
  await name.focus();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(name).toBeFocused();
  await name.fill('node2.log');
  await text.fill(s2Text('node2.log'));
  await dialog.getByRole('button', { name: 'Analyse' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('node-table').locator('tr[data-node="node2"]')).toBeVisible();

  await open.click();
  await name.fill('node3.log');
  await text.fill(s2Text('node3.log'));
  await dialog.getByRole('button', { name: 'Analyse' }).click();

  await expect(page.getByTestId('late-nodes')).toContainText('node3');
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  expect(await nodeIds(page)).toEqual(['node0', 'node1', 'node2', 'node3']);
  await expect(page.getByText('All 4 files')).toBeVisible();
  expect(errors).toEqual([]);
});

test('files dropped on a result are added to its job; the same name again replaces the file', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, s2Specs(['node0.log', 'node1.log', 'node2.log']));
  await expect(page.getByTestId('verdict')).toBeVisible();
  await expect(page.getByTestId('drop-zone')).toContainText('add them to this job');

  await dropFiles(page, s2Specs(['node3.log']));
  await expect(page.getByTestId('late-nodes')).toContainText('node3');
  expect(await nodeIds(page)).toEqual(['node0', 'node1', 'node2', 'node3']);
  await expect(page.getByText('All 4 files')).toBeVisible();

  // node3.log again, now not a log at all: it replaces the earlier node3.log instead of joining it.
  await dropFiles(page, [{ name: 'node3.log', bytes: Array.from({ length: 4096 }, (_, i) => i % 256) }]);
  await expect(page.getByTestId('file-problems')).toContainText('node3.log');
  await expect(page.getByText('All 4 files')).toBeVisible();
  expect(await nodeIds(page)).toEqual(['node0', 'node1', 'node2']);

  await page.getByRole('button', { name: 'Start over', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('torchrun');
  await dropFiles(page, s2Specs(['node1.log']));
  await expect(page.getByTestId('verdict')).toBeVisible();
  expect(await nodeIds(page)).toEqual(['node1']);
});

test('a gzip bomb and a damaged archive are listed with their reasons while the logs are analysed', async ({
  page,
}) => {
  // About 300 KB of gzip that inflates to 300 MiB of zeros (Node's zlib makes it in half a second, fflate in 2.7 s).
  const bomb = gzipSync(Buffer.alloc(300 << 20), { level: 9 });
  expect(bomb.length).toBeLessThan(400_000);
  // Cut inside its first log: nothing of it joins the job.
  const cut = readFileSync(S5_TAR_GZ).subarray(0, 300);

  await page.goto('/');
  await dropFiles(page, [
    ...s2Specs(),
    { name: 'debug.log.gz', base64: base64(bomb) },
    { name: 'other-job.tar.gz', base64: base64(cut) },
  ]);

  // The bomb is caught after 256 MiB inflated: seconds on a busy machine.
  await expect(page.getByTestId('verdict')).toContainText(/failed/i, { timeout: 30_000 });
  await expect(page.getByTestId('late-nodes')).toContainText('node3');
  const problems = page.getByTestId('file-problems');
  const bombRow = problems.getByRole('listitem').filter({ hasText: 'debug.log' });
  await expect(bombRow).toContainText('Archive bomb');
  await expect(bombRow).toContainText(/debug\.log\.gz inflates \d+:1 .* a decompression bomb; reading stopped/);
  const damaged = problems.getByRole('listitem').filter({ hasText: 'Archive error' });
  await expect(damaged).toHaveCount(1);
  await expect(damaged).toContainText(/other-job\.tar\.gz is cut short: its compressed data ends early/);
  await expect(problems.getByRole('listitem')).toHaveCount(2);
});
