import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, type DropSpec } from './helpers';

// The evidence viewer (a log line in context, read from the dropped file) and the node table's corrections.

const FIXTURES = join(import.meta.dirname, 'fixtures', 's2');
const NODE_LOGS = ['node0.log', 'node1.log', 'node2.log', 'node3.log'];
const SCREENSHOTS = join(import.meta.dirname, '..', 'test-results', 'screenshots');

const nodeLogSpecs = (): DropSpec[] =>
  NODE_LOGS.map((name) => ({ name, text: readFileSync(join(FIXTURES, name), 'utf8') }));

async function dropNodeLogs(page: Page, specs: DropSpec[] = nodeLogSpecs(), verdict = /failed/i): Promise<void> {
  await dropFiles(page, specs);
  await expect(page.getByTestId('verdict')).toContainText(verdict);
}

const row = (page: Page, line: number) => page.getByRole('dialog').locator(`[data-line="${line}"]`);
const activeRow = (page: Page) => page.getByRole('dialog').getByRole('option', { selected: true });

test.describe('evidence viewer', () => {
  test('opens node0.log at line 70 from the failure evidence, marks recognised lines, and closes with Esc', async ({
    page,
  }) => {
    await page.goto('/');
    await dropNodeLogs(page);

    const evidence = page.getByTestId('evidence').getByRole('button', { name: /^node0\.log:70\b/ });
    await evidence.click();

    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('evidence-path')).toHaveText('node0.log');
    // The evidence line, highlighted, on screen, and the one the keyboard is on.
    const target = row(page, 70);
    await expect(target).toContainText('Timed out after 31 seconds waiting for clients');
    await expect(target).toHaveClass(/ev-row--target/);
    await expect(target).toBeInViewport();
    await expect(target).toHaveAttribute('aria-selected', 'true');
    await expect(target).toHaveAttribute('data-recognised', 'master-wait-clients');
    await expect(dialog.getByTestId('evidence-position')).toContainText('recognised as master-wait-clients');
    await expect(row(page, 69)).not.toHaveAttribute('data-recognised');
    await expect(row(page, 69)).toHaveText(/^69/);
    await expect(dialog.getByRole('listbox')).toBeFocused();

    // Keyboard: p/n jump between recognised lines, Home goes to the first loaded line.
    await page.keyboard.press('p');
    await expect(activeRow(page)).toHaveAttribute('data-line', '24');
    await expect(row(page, 24)).toBeInViewport();
    // Recognised lines are marked (the launch config, the rendezvous…); others are not.
    await expect(row(page, 21)).toHaveAttribute('data-recognised', 'rdzv-begin');
    await expect(row(page, 22)).not.toHaveAttribute('data-recognised');
    expect(await dialog.locator('[data-recognised]').count()).toBeGreaterThanOrEqual(10);
    await page.keyboard.press('n');
    await expect(activeRow(page)).toHaveAttribute('data-line', '70');
    await page.keyboard.press('n');
    await expect(dialog.getByRole('status')).toContainText('No recognised line after line 70');
    await page.keyboard.press('Home');
    await expect(activeRow(page)).toHaveAttribute('data-line', '1');
    await page.keyboard.press('n');
    await expect(activeRow(page)).toHaveAttribute('data-line', '4');
    await page.keyboard.press('ArrowDown');
    await expect(activeRow(page)).toHaveAttribute('data-line', '5');
    await page.keyboard.press('End');
    await expect(activeRow(page)).toHaveAttribute('data-line', '70');

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(evidence).toBeFocused();
  });

  test('opens from a finding’s evidence with the keyboard, keeps focus inside, and goes to a typed line', async ({
    page,
  }) => {
    await page.goto('/');
    await dropNodeLogs(page);

    const line = page
      .getByTestId('findings')
      .locator('[data-code="LATE_NODE"]')
      .getByRole('button', { name: /^node3\.log:148\b/ });
    await line.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(row(page, 148)).toContainText('The client socket has timed out after 30000ms');
    await expect(row(page, 148)).toHaveClass(/ev-row--target/);

    // Tab cycles within the dialog.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }

    await dialog.getByLabel('Go to line').fill('22');
    await dialog.getByLabel('Go to line').press('Enter');
    await expect(activeRow(page)).toHaveAttribute('data-line', '22');
    await expect(row(page, 22)).toHaveAttribute('data-recognised', 'client-connect-timeout');
    await expect(row(page, 22)).toBeInViewport();

    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect(dialog).toBeHidden();
    await expect(line).toBeFocused();
  });

  test('scrolls through a long file a window at a time', async ({ page }) => {
    await page.goto('/');
    // 20 000 lines after node0's failure: far more than the viewer renders or loads at once.
    const specs = nodeLogSpecs();
    specs[0]!.text += Array.from({ length: 20_000 }, (_, i) => `line ${i + 1} of a long log`).join('\n') + '\n';
    await dropNodeLogs(page, specs);

    await page
      .getByTestId('evidence')
      .getByRole('button', { name: /^node0\.log:70\b/ })
      .click();
    const dialog = page.getByRole('dialog');
    await expect(row(page, 70)).toBeInViewport();
    // Only the lines on screen are in the DOM.
    expect(await dialog.getByRole('option').count()).toBeLessThan(100);

    await dialog.getByLabel('Go to line').fill('15000');
    await dialog.getByLabel('Go to line').press('Enter');
    await expect(row(page, 15000)).toContainText('line 14930 of a long log');
    await expect(activeRow(page)).toHaveAttribute('data-line', '15000');
    // Paging down past the lines loaded so far loads the next windows.
    let after = 0;
    await expect(async () => {
      for (let i = 0; i < 8; i++) await page.keyboard.press('PageDown');
      after = Number(await activeRow(page).getAttribute('data-line'));
      expect(after).toBeGreaterThan(15_000 + 600);
    }).toPass();
    await expect(row(page, after)).toContainText(`line ${after - 70} of a long log`);
    // Home goes to the first loaded line; the window above it loads, so Home again goes further up.
    let before = after;
    await expect(async () => {
      await page.keyboard.press('Home');
      before = Number(await activeRow(page).getAttribute('data-line'));
      expect(before).toBeLessThan(15_000 - 600);
    }).toPass();
    await expect(row(page, before)).toContainText(`line ${before - 70} of a long log`);
    await expect(row(page, before)).toBeInViewport();
    expect(await dialog.getByRole('option').count()).toBeLessThan(100);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test('Ctrl+F finds text in the file, within the lines loaded and far beyond them', async ({ page }) => {
    await page.goto('/');
    const specs = nodeLogSpecs();
    specs[0]!.text +=
      Array.from({ length: 20_000 }, (_, i) =>
        i === 18_000 ? 'a needle in the log' : `line ${i + 1} of a long log`,
      ).join('\n') + '\n';
    await dropNodeLogs(page, specs);
    await page
      .getByTestId('evidence')
      .getByRole('button', { name: /^node0\.log:70\b/ })
      .click();
    const dialog = page.getByRole('dialog');
    await expect(row(page, 70)).toBeInViewport();

    // Ctrl+F goes to the viewer's own find field, not the browser's.
    await page.keyboard.press('Control+f');
    const find = dialog.getByTestId('evidence-find');
    await expect(find).toBeFocused();
    // Backwards from the evidence line: the launch configuration at line 14, highlighted.
    await find.fill('rdzv_configs');
    await find.press('Shift+Enter');
    await expect(activeRow(page)).toHaveAttribute('data-line', '14');
    await expect(row(page, 14).locator('mark')).toHaveText('rdzv_configs');
    // Forwards, thousands of lines past what is loaded: the worker reads on to it.
    await find.fill('NEEDLE');
    await find.press('Enter');
    await expect(activeRow(page)).toHaveAttribute('data-line', String(70 + 18_001));
    await expect(row(page, 70 + 18_001)).toBeInViewport();
    await expect(row(page, 70 + 18_001).locator('mark')).toHaveText('needle');
    await find.press('Enter');
    await expect(dialog.getByRole('status').last()).toContainText('No “NEEDLE” further down');
  });
});

/** A one-member ustar archive (what `tar czf` writes, minus the owner names). */
function tarOf(name: string, text: string): Buffer {
  const body = Buffer.from(text, 'utf8');
  const header = Buffer.alloc(512);
  const put = (value: string, at: number, len: number) => header.write(value.slice(0, len), at, len, 'ascii');
  put(name, 0, 100);
  put('0000644\0', 100, 8);
  put('0000000\0', 108, 8);
  put('0000000\0', 116, 8);
  put(body.length.toString(8).padStart(11, '0') + '\0', 124, 12);
  put('14712345670\0', 136, 12);
  put('        ', 148, 8);
  put('0', 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const b of header) sum += b;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  const pad = Buffer.alloc((512 - (body.length % 512)) % 512);
  return Buffer.concat([header, body, pad, Buffer.alloc(1024)]);
}

test.describe('evidence in compressed files', () => {
  test('a log dropped as .gz opens in the viewer, inflated as it is read', async ({ page }) => {
    await page.goto('/');
    const specs = nodeLogSpecs();
    specs[0] = { name: 'node0.log.gz', bytes: [...gzipSync(Buffer.from(specs[0]!.text!, 'utf8'))] };
    await dropNodeLogs(page, specs);
    await page
      .getByTestId('evidence')
      .getByRole('button', { name: /^node0\.log:70\b/ })
      .click();
    await expect(row(page, 70)).toContainText('Timed out after 31 seconds waiting for clients');
    await expect(row(page, 70)).toHaveAttribute('data-recognised', 'master-wait-clients');
  });

  test('a member of a .tar.gz opens in the viewer, unpacked from the archive', async ({ page }) => {
    await page.goto('/');
    const specs = nodeLogSpecs();
    specs[0] = { name: 'job.tar.gz', bytes: [...gzipSync(tarOf('node0.log', specs[0]!.text!))] };
    await dropNodeLogs(page, specs);
    const evidence = page.getByTestId('evidence').getByRole('button', { name: /^job\.tar\.gz\/node0\.log:70\b/ });
    await evidence.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('evidence-path')).toHaveText('job.tar.gz/node0.log');
    await expect(row(page, 70)).toContainText('Timed out after 31 seconds waiting for clients');
    await expect(row(page, 70)).toHaveAttribute('data-recognised', 'master-wait-clients');
    await expect(row(page, 70)).toBeInViewport();
    await page.keyboard.press('p');
    await expect(activeRow(page)).toHaveAttribute('data-line', '24');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(evidence).toBeFocused();
  });

  test('a member of a .zip, gzipped inside it, opens in the viewer too', async ({ page }) => {
    await page.goto('/');
    const specs = nodeLogSpecs();
    const zip = zipSync({ 'logs/node3.log.gz': gzipSync(Buffer.from(specs[3]!.text!, 'utf8')) });
    specs[3] = { name: 'late.zip', bytes: [...zip] };
    await dropNodeLogs(page, specs);
    await page
      .getByTestId('evidence')
      .getByRole('button', { name: /^late\.zip\/logs\/node3\.log:\d+/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('evidence-path')).toHaveText('late.zip/logs/node3.log');
    await expect(dialog.getByRole('listbox')).toContainText('DistNetworkError');
  });
});

test.describe('node table corrections', () => {
  const details = (page: Page, node: string) =>
    page.getByRole('button', { name: `Details and corrections for ${node}` });
  const nodeRows = (page: Page) => page.getByTestId('node-table').locator('tbody tr[data-node]');

  test('renaming node3 renames the late node in the verdict, and reset brings it back', async ({ page }) => {
    await page.goto('/');
    await dropNodeLogs(page);
    await expect(page.getByTestId('late-nodes')).toContainText('node3');

    await details(page, 'node3').click();
    const detail = page.locator('[data-node-detail="node3"]');
    // Why node3.log is node3: the name and the node rank its launch config printed.
    await expect(detail.getByTestId('identity')).toContainText('node number in the name: node3');
    await expect(detail.getByTestId('identity')).toContainText("rdzv_configs {'timeout': '30', 'rank': 3}");
    await detail.getByLabel('Name of node3').fill('gpu-host-17');
    await detail.getByRole('button', { name: 'Rename' }).click();

    await expect(page.getByTestId('late-nodes')).toHaveText('Late node: gpu-host-17');
    await expect(nodeRows(page).filter({ hasText: 'gpu-host-17' })).toContainText('renamed');
    await expect(page.getByTestId('findings')).toContainText('gpu-host-17 started 45 s after node0');

    await page.getByTestId('reset-corrections').click();
    await expect(page.getByTestId('late-nodes')).toHaveText('Late node: node3');
    await expect(page.getByTestId('reset-corrections')).toBeDisabled();
  });

  test('moving node3.log into node2 leaves three nodes', async ({ page }) => {
    await page.goto('/');
    await dropNodeLogs(page);
    await expect(nodeRows(page)).toHaveCount(4);

    await details(page, 'node3').click();
    await page.getByLabel('Node of node3.log').selectOption('node2');
    await page.getByRole('button', { name: 'Apply changes to node3.log' }).click();

    await expect(nodeRows(page)).toHaveCount(3);
    await expect(nodeRows(page).filter({ hasText: 'node3.log' })).toHaveAttribute('data-node', 'node2');
    await expect(page.locator('[data-node-detail="node2"]')).toContainText('placed by hand');

    // Split it off again, into a node of its own.
    await page.getByLabel('Node of node3.log').selectOption({ label: 'New node…' });
    await page.getByLabel('New node name for node3.log').fill('late-one');
    await page.getByRole('button', { name: 'Apply changes to node3.log' }).click();
    await expect(nodeRows(page)).toHaveCount(4);
    await expect(nodeRows(page).filter({ hasText: 'node3.log' })).toHaveAttribute('data-node', 'late-one');
  });

  test('a UTC offset of +60 minutes for node3.log moves node3’s launch an hour earlier', async ({ page }) => {
    await page.goto('/');
    await dropNodeLogs(page);
    const lag = (node: string) => page.locator(`tr[data-node="${node}"]`).getByTestId('lag');
    await expect(lag('node3')).toContainText('+45.1 s');
    await expect(lag('node0')).toHaveText(/^0 s/);

    await details(page, 'node3').click();
    await page.getByLabel('UTC offset of node3.log’s times').selectOption('60');
    await page.getByRole('button', { name: 'Apply changes to node3.log' }).click();

    // node3's 18:30 local is 17:30 UTC: it launched first, an hour before the others, so it is not behind anyone.
    await expect(lag('node3')).toHaveText(/^0 s/);
    await expect(lag('node0')).toContainText('+59 min');
    await expect(page.getByText('Year or time zone set by hand for node3.log.')).toBeVisible();
    await expect(page.getByLabel('UTC offset of node3.log’s times')).toHaveValue('60');
  });
});

test('the clock offset column tells a time zone from a clock that is off, and shows where it was measured', async ({
  page,
}) => {
  // A healthy run (its agents leave the rendezvous together): node1 logged in UTC+8, node2's clock 7 s fast.
  const healthy = join(import.meta.dirname, '..', 'test', 'fixtures', 'corpus', 'torch2.6-s1_static_healthy_info');
  const shift = (text: string, seconds: number) =>
    text.replace(/^([IWE])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)/gm, (_, lv, mo, d, h, mi, se) => {
      const t = new Date(Date.UTC(2026, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se)) + seconds * 1000);
      const p2 = (n: number) => String(n).padStart(2, '0');
      return `${lv}${p2(t.getUTCMonth() + 1)}${p2(t.getUTCDate())} ${p2(t.getUTCHours())}:${p2(t.getUTCMinutes())}:${p2(t.getUTCSeconds())}`;
    });
  const specs = NODE_LOGS.map((name) => ({ name, text: readFileSync(join(healthy, name), 'utf8') }));
  specs[1]!.text = shift(specs[1]!.text, 8 * 3600);
  specs[2]!.text = shift(specs[2]!.text, 7);
  await page.goto('/');
  await dropNodeLogs(page, specs, /healthy/i);

  const clock = (node: string) => page.locator(`tr[data-node="${node}"]`).getByTestId('clock');
  await expect(clock('node1')).toContainText('+8 h');
  await expect(clock('node1')).toContainText('time zone, corrected');
  await expect(clock('node2')).toContainText(/\+7\.\d\d s ± 0\.25 s/);
  await expect(clock('node2')).toContainText('clock');
  await expect(clock('node2')).not.toContainText('corrected');
  await expect(clock('node0')).toHaveText('—');
  // Asked to, the analysis subtracts node2's clock offset: its lag drops by about 7 s, and it says so.
  const lag = page.locator('tr[data-node="node2"]').getByTestId('lag');
  const before = Number(/\+?([\d.]+)/.exec((await lag.textContent()) ?? '')![1]);
  await page.getByTestId('correct-clocks').check();
  await expect(clock('node2')).toContainText('corrected');
  const after = Number(/\+?([\d.]+)/.exec((await lag.textContent()) ?? '')![1]);
  expect(before - after).toBeGreaterThan(6);
  await page.getByTestId('correct-clocks').uncheck();
  await expect(clock('node2')).not.toContainText('corrected');
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.getByTestId('node-table').screenshot({ path: join(SCREENSHOTS, 'nodes-clock-offsets.png') });

  await page.getByRole('button', { name: 'Details and corrections for node2' }).click();
  const measured = page.locator('[data-node-detail="node2"]').getByTestId('clock-evidence');
  await expect(measured).toContainText('Rendezvous complete');
  const where = /^node2\.log:(\d+)/.exec((await measured.textContent()) ?? '');
  await measured.click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(activeRow(page)).toHaveAttribute('data-line', where![1]!);
  await expect(activeRow(page)).toContainText('Rendezvous complete');
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`screenshots of the viewer and the node details (${colorScheme})`, async ({ page }) => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    await dropNodeLogs(page);
    await page.getByRole('button', { name: 'Details and corrections for node3' }).click();
    await page.getByTestId('node-table').screenshot({ path: join(SCREENSHOTS, `nodes-${colorScheme}.png`) });
    await page
      .getByTestId('evidence')
      .getByRole('button', { name: /^node0\.log:70\b/ })
      .click();
    await expect(row(page, 70)).toBeInViewport();
    await page.screenshot({ path: join(SCREENSHOTS, `evidence-viewer-${colorScheme}.png`) });
  });
}
