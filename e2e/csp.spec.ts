// The Content-Security-Policy everywhere (issue 13, item 8): sent as an HTTP header by the preview server, so it
// governs the Web Workers that hold the log bytes (a meta tag governs the page only), and with
// `frame-ancestors 'none'`, which only a header can carry. A second loopback server on a free port stands for
// "another origin": it counts every request that reaches it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';

let other: Server;
let otherOrigin = '';
/** The app's origin (the test's baseURL), which the other origin's page frames. */
let appOrigin = '';
const hits: string[] = [];

test.beforeAll(async () => {
  other = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/frame.html') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!doctype html><title>framer</title><iframe id="f" src="${appOrigin}/"></iframe>`);
      return;
    }
    // Anyone may read this: only the page's own policy can stop the request.
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain' });
    res.end('leaked');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => other.close(() => resolve()));
});

test('the page is served with the policy as a header, frame-ancestors included', async ({ page }) => {
  const response = await page.goto('/');
  const csp = response!.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("connect-src 'self'");
  expect(csp).toContain("worker-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(response!.headers()['x-frame-options']).toBe('DENY');
  // The meta tag stays for static hosts that send no header.
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveCount(1);
});

test('a Web Worker of the page cannot fetch another origin', async ({ page }) => {
  await page.goto('/');
  // The page's own parse worker, started the way the pool starts it (same-origin script, module worker).
  const asset = readdirSync(path.join(import.meta.dirname, '..', 'dist', 'web', 'assets')).find((f) =>
    /^parse\.worker.*\.js$/.test(f),
  );
  expect(asset, 'the build has a parse worker').toBeTruthy();
  const started = page.waitForEvent('worker');
  await page.evaluate((url) => {
    (window as unknown as { probe: Worker }).probe = new Worker(url, { type: 'module', name: 'csp-probe' });
  }, `./assets/${asset}`);
  const worker = await started;
  const before = hits.length;
  const result = await worker.evaluate(async (url) => {
    try {
      const r = await fetch(url);
      return `fetched: ${await r.text()}`;
    } catch (e) {
      return `refused: ${String(e)}`;
    }
  }, `${otherOrigin}/from-worker`);
  expect(result).toMatch(/^refused/);
  expect(hits.slice(before)).toEqual([]);

  // And the page itself, for completeness.
  const fromPage = await page.evaluate(async (url) => {
    try {
      await fetch(url);
      return 'fetched';
    } catch {
      return 'refused';
    }
  }, `${otherOrigin}/from-page`);
  expect(fromPage).toBe('refused');
  expect(hits.filter((h) => h.startsWith('/from-'))).toEqual([]);
});

test('the page refuses to be framed by another origin', async ({ page, baseURL }) => {
  appOrigin = baseURL!.replace(/\/$/, '');
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/frame-ancestors|Refused to (display|frame)/i.test(m.text())) refused.push(m.text());
  });
  await page.goto(`${otherOrigin}/frame.html`);
  const frame = page.frameLocator('#f');
  // The app never renders inside the frame: Chromium replaces a refused document with an error page.
  await expect.poll(() => refused.length, { timeout: 10_000 }).toBeGreaterThan(0);
  await expect(frame.getByTestId('drop-zone')).toHaveCount(0);
});
