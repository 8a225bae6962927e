// What a walk of every screen (1440/1024/390 px, light and dark, English and 中文) found left after issue 11:
// node-table cells cut at any width, a node's details running off a phone's screen, small coloured text below
// AA contrast in the light theme, "(283 s)" inside a Chinese sentence, and "0 ms" in a column of seconds.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { generateJob } from '../scripts/bench-job.mjs';
import { dropFiles, type DropSpec } from './helpers';

const S2 = join(import.meta.dirname, 'fixtures', 's2');
const s2 = (): DropSpec[] => readdirSync(S2).map((name) => ({ name, text: readFileSync(join(S2, name), 'utf8') }));

async function analyse(page: Page, specs: DropSpec[], lang: 'en' | 'zh'): Promise<void> {
  await page.goto('/');
  await page.evaluate(() => localStorage.clear());
  await page.goto(`/?polish=${Date.now()}#lang=${lang}`);
  await dropFiles(page, specs);
  await expect(page.getByTestId('verdict')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('progress')).toHaveCount(0);
}

test('node table: no cell of a row is cut at 1440, 1024 or 390 px, and a node’s details stay on screen', async ({
  page,
}) => {
  for (const lang of ['en', 'zh'] as const) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await analyse(page, s2(), lang);
    await page.getByTestId('node-table').locator('.nodes-toggle').last().click();
    for (const width of [1440, 1024, 390]) {
      await page.setViewportSize({ width, height: 900 });
      // Launch instants, lags, names and own failures: what a row says is all there (a tag may give way).
      const cut = await page.evaluate(() =>
        [
          ...document.querySelectorAll(
            '.node-table .node-row > td, .node-table .node-row .node-id, .node-table .node-row .node-failure',
          ),
        ]
          .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
          .map((el) => el.textContent?.trim()),
      );
      expect(cut, `${lang} at ${width}`).toEqual([]);
      // The open details fit the box the table scrolls in, however wide the table is.
      const [box, detail] = await page.evaluate(() =>
        ['.node-table-scroll', '.node-detail__box'].map((s) => {
          const r = document.querySelector(s)!.getBoundingClientRect();
          return [r.left, r.right];
        }),
      );
      expect(detail![0]!, `${lang} at ${width}`).toBeGreaterThanOrEqual(box![0]!);
      expect(detail![1]!, `${lang} at ${width}`).toBeLessThanOrEqual(box![1]!);
    }
  }
});

test('light theme: small coloured text (limit labels, what-if verdict, badges) is at AA contrast', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await analyse(page, s2(), 'en');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  const ratios = await page.evaluate(() => {
    const rgb = (c: string): number[] => {
      const v = (c.match(/[\d.]+/g) ?? []).map(Number);
      return c.startsWith('color(') ? v.map((x, i) => (i < 3 ? x * 255 : x)) : v;
    };
    const lum = (c: number[]) => {
      const f = (x: number) => ((x /= 255) <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(c[0]!) + 0.7152 * f(c[1]!) + 0.0722 * f(c[2]!);
    };
    const out: Record<string, number> = {};
    for (const sel of [
      '[data-testid="timeline-limit-label"][data-fired]',
      '[data-testid="timeline-limit-label"]:not([data-fired])',
      '[data-testid="what-if-verdict"]',
      '.tag--danger',
    ]) {
      const el = document.querySelector(sel);
      if (!el) continue;
      const s = getComputedStyle(el);
      let bg = [255, 255, 255];
      for (let p: Element | null = el; p; p = p.parentElement) {
        const c = rgb(getComputedStyle(p).backgroundColor);
        if ((c[3] ?? 1) > 0.5) {
          bg = c;
          break;
        }
      }
      const fg = rgb(s.color);
      const a = (fg[3] ?? 1) * Number(s.opacity);
      const mixed = [0, 1, 2].map((i) => fg[i]! * a + bg[i]! * (1 - a));
      const [l1, l2] = [lum(mixed), lum(bg)];
      out[sel] = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    }
    return out;
  });
  expect(Object.keys(ratios).length).toBeGreaterThanOrEqual(3);
  for (const [sel, ratio] of Object.entries(ratios)) expect(ratio, sel).toBeGreaterThanOrEqual(4.5);
});

test('a Chinese page says the late nodes in 秒 and 、, and a zero lag is 0 秒 beside the seconds', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'skewscope-polish-'));
  try {
    const job = generateJob(join(dir, 'job'), { nodes: 12, ranks: 1, late: 3, seed: 5 });
    const specs = readdirSync(job.dir).map((name) => ({ name, text: readFileSync(join(job.dir, name), 'utf8') }));
    await analyse(page, specs, 'zh');
    const findings = page.getByTestId('findings');
    await expect(findings).toContainText('按落后时间');
    const text = (await findings.textContent()) ?? '';
    expect(text).not.toMatch(/\(\d+(\.\d+)? s\)/);
    expect(text).toMatch(/node\d+（\d+(\.\d+)? 秒）、node\d+/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await analyse(page, s2(), 'zh');
  const first = page.getByTestId('what-if-nodes').locator('tr').filter({ hasText: 'node0' });
  await expect(first).toContainText('0 秒');
  await expect(first).not.toContainText('毫秒');
});
