import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_VERSION } from '../src/core/model';
import { expect, test, type Browser, type BrowserContext, type Download, type Page } from '@playwright/test';
import { ORIGIN, dropFiles, type DropSpec } from './helpers';

// Sharing a diagnosis: the Share dialog on the real s2 logs (node3 launched 45 s late, timeout 30 s), the link
// opened in a fresh browser context with no files and no request beyond the app's origin, redaction, broken
// links, and the Markdown / JSON / PNG exports.

const FIXTURES = join(import.meta.dirname, 'fixtures', 's2');
const NODE_LOGS = ['node0.log', 'node1.log', 'node2.log', 'node3.log'];
// No slash: the link's path redaction would shorten `</b>` (see the report).
const TITLE = 'Job 42 died again <b>bold <img src=x onerror=alert(1)>';

const nodeLogSpecs = (): DropSpec[] =>
  NODE_LOGS.map((name) => ({ name, text: readFileSync(join(FIXTURES, name), 'utf8') }));

async function analyse(page: Page): Promise<void> {
  await page.goto('/');
  await dropFiles(page, nodeLogSpecs());
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
}

/** A context that records every request its pages (and their workers) make. */
async function freshContext(browser: Browser): Promise<{ context: BrowserContext; requests: string[] }> {
  const context = await browser.newContext({ baseURL: ORIGIN });
  const requests: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  return { context, requests };
}

/** Requests that go anywhere but the app's origin (data: and blob: URLs are made in the page). */
const foreign = (requests: string[]) =>
  requests.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== ORIGIN);

async function readDownload(download: Download): Promise<Buffer> {
  const path = await download.path();
  return readFileSync(path);
}

test('a share link opens the same diagnosis in a fresh context, read-only, with no request beyond the origin', async ({
  browser,
}) => {
  const sender = await browser.newContext({ baseURL: ORIGIN });
  await sender.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ORIGIN });
  const page = await sender.newPage();
  await analyse(page);

  await page.getByTestId('share-open').click();
  const dialog = page.getByRole('dialog', { name: 'Share this diagnosis' });
  await expect(dialog).toBeVisible();
  // The defaults of src/share: addresses and paths redacted, hostnames kept, no evidence (no log text) unless
  // the sender ticks it on, which this sender does, to see the lines in the preview.
  await expect(dialog.getByTestId('redact-hostnames')).not.toBeChecked();
  await expect(dialog.getByTestId('redact-ips')).toBeChecked();
  await expect(dialog.getByTestId('redact-paths')).toBeChecked();
  await expect(dialog.getByTestId('include-evidence')).not.toBeChecked();
  await dialog.getByTestId('include-evidence').check();
  await dialog.getByLabel('Title').fill(TITLE);

  const preview = dialog.getByTestId('share-preview');
  await expect(preview).toContainText(TITLE);
  await expect(dialog.getByTestId('share-preview-nodes')).toContainText('node3');
  await expect(dialog.getByTestId('share-preview-nodes')).toContainText(/\+45(\.\d+)? s/);
  await expect(dialog.getByTestId('share-preview-findings')).toContainText('node3 started 45 s after node0');
  await expect(dialog.getByTestId('share-preview-evidence')).toContainText('node');
  await expect(dialog.getByTestId('share-size')).toContainText(/The link is [\d,]+ characters long; within the 2,000/);
  await expect(dialog.getByTestId('share-size')).toContainText('Nothing was left out');

  const url = await dialog.getByTestId('share-url').inputValue();
  expect(url).toMatch(new RegExp(`^${ORIGIN}/#share=\\d+\\.`));
  // The link holds still while the dialog is open: it is not rebuilt over and over (each rebuild would stamp a new
  // creation second into it, so a link that changes across a second boundary is one being rebuilt in a loop).
  await page.waitForTimeout(1100);
  expect(await dialog.getByTestId('share-url').inputValue()).toBe(url);
  await dialog.getByTestId('share-copy').click();
  await expect(dialog.getByTestId('share-status')).toContainText('Link copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  // Leaving out the evidence lines changes the preview and the link.
  await dialog.getByTestId('include-evidence').uncheck();
  await expect(dialog.getByTestId('share-preview')).toContainText('No log lines are in the link.');
  expect(await dialog.getByTestId('share-url').inputValue()).not.toBe(url);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await sender.close();

  const { context, requests } = await freshContext(browser);
  const reader = await context.newPage();
  const errors: string[] = [];
  reader.on('pageerror', (error) => errors.push(error.message));
  await reader.goto(url);

  const banner = reader.getByTestId('shared-banner');
  await expect(banner).toContainText('No logs are in this link');
  await expect(banner).toContainText(/skewscope \d+\.\d+\.\d+/);
  // The title is text, never markup.
  await expect(reader.getByTestId('shared-title')).toHaveText(TITLE);
  await expect(banner.locator('b, img')).toHaveCount(0);

  await expect(reader.getByTestId('verdict')).toContainText(/failed/i);
  await expect(reader.getByTestId('late-nodes')).toContainText('node3');
  await expect(reader.getByTestId('skew')).toContainText(/45(\.\d+)? s/);
  await expect(reader.getByTestId('findings').locator('[data-code="LATE_NODE"]')).toContainText(
    'node3 started 45 s after node0',
  );
  await expect(reader.getByTestId('advice')).toContainText('--rdzv_conf="timeout=1800"');
  await expect(reader.locator('[data-testid="timeline-row"][data-node="node3"]')).toBeVisible();
  await expect(reader.locator('[data-testid="skew-bar"][data-node="node3"]')).toBeVisible();
  await expect(reader.getByTestId('node-table')).toContainText('node3');
  // Read-only: no corrections, no log viewer; evidence is the text the link carries.
  await expect(reader.getByTestId('reset-corrections')).toHaveCount(0);
  await expect(reader.getByTestId('node-table').locator('input, select')).toHaveCount(0);
  await expect(reader.getByTestId('evidence').locator('li').first()).toBeVisible();
  await expect(reader.getByTestId('evidence').locator('button')).toHaveCount(0);
  // The link stays in the address bar.
  expect(reader.url()).toBe(url);

  // The language switch re-renders the shared diagnosis in Chinese.
  await reader.getByRole('button', { name: '中文' }).click();
  await expect(reader.getByTestId('findings').locator('[data-code="SKEW_EXCEEDS_RDZV_TIMEOUT"]')).toContainText(
    'rendezvous 期限',
  );
  await expect(reader.getByTestId('late-nodes')).toContainText('node3');

  // Opening the link fetched only the app's own files.
  expect(requests.length).toBeGreaterThan(0);
  expect(foreign(requests)).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});

test('a tampered, truncated or newer link shows why it cannot open, and the page still analyses logs', async ({
  browser,
}) => {
  const page = await browser.newPage({ baseURL: ORIGIN });
  await analyse(page);
  await page.getByTestId('share-open').click();
  const url = await page.getByTestId('share-url').inputValue();
  await page.close();

  const prefix = /#share=\d+\./.exec(url)![0];
  const hash = url.indexOf(prefix) + prefix.length;
  const at = hash + Math.floor((url.length - hash) / 2);
  const tampered = url.slice(0, at) + (url[at] === 'A' ? 'B' : 'A') + url.slice(at + 1);
  const cases: [string, RegExp][] = [
    [tampered, /damaged|not a valid diagnosis/],
    [url.slice(0, hash + 20), /incomplete|damaged/],
    [`${ORIGIN}/#share=9.${url.slice(hash)}`, /newer skewscope/],
    [`${ORIGIN}/#share=<script>alert(1)</script>`, /damaged/],
  ];
  const { context, requests } = await freshContext(browser);
  const reader = await context.newPage();
  const errors: string[] = [];
  reader.on('pageerror', (error) => errors.push(error.message));
  for (const [link, message] of cases) {
    await reader.goto(link);
    await expect(reader.getByTestId('share-link-error')).toBeVisible();
    await expect(reader.getByTestId('share-link-error-message')).toContainText(message);
    await expect(reader.getByTestId('shared-banner')).toHaveCount(0);
    await expect(reader.getByTestId('verdict')).toHaveCount(0);
    await expect(reader.getByTestId('open-example')).toBeVisible();
  }
  await expect(reader.locator('script:not([src])')).toHaveCount(0);

  // The drop zone still works: a fresh analysis, and the broken link leaves the address bar.
  await dropFiles(reader, nodeLogSpecs());
  await expect(reader.getByTestId('verdict')).toContainText(/failed/i);
  await expect(reader.getByTestId('late-nodes')).toContainText('node3');
  await expect(reader.getByTestId('share-link-error')).toHaveCount(0);
  // The broken link left the address bar; what is there now is the analysed view's own state.
  expect(reader.url()).not.toContain('share=');
  expect(new URL(reader.url()).origin + new URL(reader.url()).pathname).toBe(`${ORIGIN}/`);
  expect(foreign(requests)).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});

test('with hostnames redacted, the shared view names node-03 and never the hostnames of the logs', async ({
  browser,
}) => {
  const page = await browser.newPage({ baseURL: ORIGIN });
  await analyse(page);
  await page.getByTestId('share-open').click();
  await page.getByTestId('redact-hostnames').check();
  await expect(page.getByTestId('share-preview-nodes')).toContainText('node-03');
  await expect(page.getByTestId('share-preview')).not.toContainText(/\bnode[0-3]\b/);
  const url = await page.getByTestId('share-url').inputValue();
  await page.close();

  const { context, requests } = await freshContext(browser);
  const reader = await context.newPage();
  await reader.goto(url);
  await expect(reader.getByTestId('shared-banner')).toBeVisible();
  await expect(reader.getByTestId('verdict')).toContainText(/failed/i);
  await expect(reader.getByTestId('late-nodes')).toContainText('node-03');
  await expect(reader.getByTestId('findings').locator('[data-code="LATE_NODE"]')).toContainText(
    'node-03 started 45 s after node-00',
  );
  await expect(reader.locator('[data-testid="timeline-row"][data-node="node-03"]')).toBeVisible();
  const text = await reader.locator('body').innerText();
  expect(text).not.toMatch(/\bnode[0-3]\b/);
  // Nor in what the page holds but does not show (titles, data attributes).
  expect(await reader.locator('main').innerHTML()).not.toMatch(/\bnode[0-3]\b/);

  // Exports of a shared diagnosis say what the link says.
  const json = reader.waitForEvent('download');
  await reader.getByTestId('export-json').click();
  const body = JSON.parse((await readDownload(await json)).toString('utf8'));
  expect(body.verdict).toBe('failed');
  expect(body.failure.lateNodes).toEqual(['node-03']);
  expect(foreign(requests)).toEqual([]);
  await context.close();
});

test('Markdown, JSON and PNG exports of a result', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: ORIGIN });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ORIGIN });
  const page = await context.newPage();
  await analyse(page);

  const md = page.waitForEvent('download');
  await page.getByTestId('export-markdown').click();
  const mdFile = await md;
  expect(mdFile.suggestedFilename()).toBe('skewscope-report.md');
  const report = (await readDownload(mdFile)).toString('utf8');
  expect(report).toMatch(/failed/i);
  expect(report).toContain('node3');
  await expect(page.getByTestId('export-status')).toContainText('copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(report);

  const json = page.waitForEvent('download');
  await page.getByTestId('export-json').click();
  const jsonFile = await json;
  expect(jsonFile.suggestedFilename()).toBe('skewscope-diagnosis.json');
  const body = JSON.parse((await readDownload(jsonFile)).toString('utf8'));
  expect(body.schemaVersion).toBe(SCHEMA_VERSION);
  expect(body.verdict).toBe('failed');
  expect(body.failure.lateNodes).toEqual(['node3']);
  expect(body.findings.some((f: { code: string }) => f.code === 'LATE_NODE')).toBe(true);

  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (const [button, name] of [
    ['export-timeline-png', 'skewscope-timeline.png'],
    ['export-skew-png', 'skewscope-skew.png'],
  ] as const) {
    const png = page.waitForEvent('download');
    await page.getByTestId(button).click();
    const file = await png;
    expect(file.suggestedFilename()).toBe(name);
    const bytes = await readDownload(file);
    expect(bytes.subarray(0, 8).equals(PNG)).toBe(true);
    expect(bytes.length).toBeGreaterThan(5000);
    // The IHDR chunk: a real image, not a 1×1 placeholder.
    expect(bytes.readUInt32BE(16)).toBeGreaterThan(300);
    expect(bytes.readUInt32BE(20)).toBeGreaterThan(100);
  }
  await context.close();
});
