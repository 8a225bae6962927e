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

// A second walk (issue 11): what the first left, and what it found on longer names and narrower screens.
const CAPTURED = join(import.meta.dirname, '..', 'test', 'fixtures', 'captured');
const EXCERPTS = join(import.meta.dirname, '..', 'test', 'fixtures', 'excerpts');
const logsOf = (dir: string): DropSpec[] =>
  readdirSync(dir)
    .filter((name) => !/\.(json|md)$/.test(name))
    .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
/** node0 is the store host and late, and prints no time (torch 1.13): its row has no place on the timeline. */
const hostLate113 = () => logsOf(join(CAPTURED, 'torch1.13-static-host-late-fail'));
/** Kubernetes pod names: llama-sft-master-0, llama-sft-worker-0 and -1, the last late. */
const longNames = () =>
  logsOf(join(EXCERPTS, 'pytorchjob-2.6-c10d-kubectl-timestamps-worker-1-image-pull-14min-master-join-timeout'));

type Box = { left: number; right: number; top: number; bottom: number };

test('node table: a node’s tags are whole and its name stays in its column, long names told apart', async ({
  page,
}) => {
  for (const [fixture, specs] of [
    ['s2', s2],
    ['torch1.13 host late', hostLate113],
    ['pod names', longNames],
  ] as const)
    for (const lang of ['en', 'zh'] as const) {
      await page.setViewportSize({ width: 1440, height: 900 });
      await analyse(page, specs(), lang);
      for (const width of [1440, 1024, 390]) {
        await page.setViewportSize({ width, height: 900 });
        const where = `${fixture}, ${lang} at ${width}`;
        const cells = await page.evaluate(() =>
          [...document.querySelectorAll('.node-table .node-row > th')].map((th) => {
            const box = (el: Element): Box => {
              const r = el.getBoundingClientRect();
              return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
            };
            const name = th.querySelector('.node-id')!;
            return {
              cell: box(th),
              overflows: th.scrollWidth > th.clientWidth + 1,
              name: box(name),
              nameCut: name.scrollWidth > name.clientWidth,
              shown: name.textContent ?? '',
              full: name.getAttribute('title') ?? '',
              tags: [...th.querySelectorAll('.tag')].map((tag) => ({
                text: tag.textContent,
                box: box(tag),
                cut: tag.scrollWidth > tag.clientWidth,
              })),
            };
          }),
        );
        expect(cells.length, where).toBeGreaterThanOrEqual(3);
        const tagCount = cells.reduce((n, c) => n + c.tags.length, 0);
        expect(tagCount, where).toBeGreaterThanOrEqual(2);
        for (const c of cells) {
          expect(c.overflows, `${where}: ${c.full}`).toBe(false);
          expect(c.name.right, `${where}: ${c.full}`).toBeLessThanOrEqual(c.cell.right);
          // Shortened (in the middle) rather than cut at its end by the box.
          expect(c.nameCut, `${where}: ${c.full}`).toBe(false);
          for (const tag of c.tags) {
            expect(tag.cut, `${where}: ${c.full} ${tag.text}`).toBe(false);
            expect(tag.box.right, `${where}: ${c.full} ${tag.text}`).toBeLessThanOrEqual(c.cell.right);
            expect(tag.box.bottom, `${where}: ${c.full} ${tag.text}`).toBeLessThanOrEqual(c.cell.bottom);
          }
        }
        // Names shortened to fit keep their ends: no two rows read alike.
        const shown = cells.map((c) => c.shown);
        expect(new Set(shown).size, `${where}: ${shown.join(', ')}`).toBe(cells.length);
      }
    }
});

test('evidence viewer on a phone: what a line was recognised as never covers the line', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await analyse(page, s2(), 'en');
  await page.locator('.evidence__open').first().click();
  const lines = page.getByTestId('evidence-lines');
  await expect(lines.locator('.ev-row--active')).toHaveAttribute('data-recognised', /.+/);
  const check = async (row: string) => {
    const { text, badge } = await page.evaluate((sel) => {
      const r = document.querySelector(sel)!;
      const box = (el: Element | null) => {
        if (!el || getComputedStyle(el).display === 'none') return null;
        const b = el.getBoundingClientRect();
        return { left: b.left, right: b.right };
      };
      return { text: box(r.querySelector('.ev-row__text')), badge: box(r.querySelector('.ev-row__id')) };
    }, row);
    expect(badge, row).not.toBeNull();
    // The line is wider than the phone: the badge comes after its end, not pinned over its visible part.
    expect(text!.right, row).toBeGreaterThan(390);
    expect(badge!.left, row).toBeGreaterThanOrEqual(text!.right - 0.5);
  };
  await check('.ev-row--active');
  // A hovered recognised line too.
  const other = lines.locator('.ev-row--recognised:not(.ev-row--active)').first();
  await other.hover();
  await check(`.ev-row[data-line="${await other.getAttribute('data-line')}"]`);
});

test('node tables that scroll sideways say so: a shade at each edge there is more towards', async ({ page }) => {
  await analyse(page, s2(), 'en');
  const edges = () =>
    page.evaluate(() => {
      const box = document.querySelector('.node-table-scroll')!;
      const r = box.getBoundingClientRect();
      const shade = (which: string) => {
        const el = box.parentElement!.querySelector(`[data-testid="scroll-shade-${which}"]`)!;
        const b = el.getBoundingClientRect();
        return {
          shown: Number(getComputedStyle(el).opacity) > 0.9,
          // It covers the box's edge, top to (near) bottom.
          atEdge: which === 'start' ? Math.abs(b.left - r.left) < 1 : Math.abs(b.right - r.right) < 1,
          tall: b.height >= r.height - 20 && b.width >= 12,
        };
      };
      return { scrolls: box.scrollWidth > box.clientWidth + 1, start: shade('start'), end: shade('end') };
    });
  const settle = () => page.waitForTimeout(250); // the shades fade in 150 ms
  await page.setViewportSize({ width: 1440, height: 900 });
  await settle();
  let e = await edges();
  expect(e.scrolls).toBe(false);
  expect([e.start.shown, e.end.shown]).toEqual([false, false]);
  for (const width of [1024, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => document.querySelector('.node-table-scroll')!.scrollTo({ left: 0 }));
    await settle();
    e = await edges();
    expect(e.scrolls, `at ${width}`).toBe(true);
    expect(e.end, `at ${width}`).toEqual({ shown: true, atEdge: true, tall: true });
    expect(e.start.shown, `at ${width}`).toBe(false);
    await page.evaluate(() => {
      const box = document.querySelector('.node-table-scroll')!;
      box.scrollTo({ left: box.scrollWidth });
    });
    await settle();
    e = await edges();
    expect(e.start, `at ${width}, scrolled to the end`).toEqual({ shown: true, atEdge: true, tall: true });
    expect(e.end.shown, `at ${width}, scrolled to the end`).toBe(false);
  }
});

test('timeline: why a node has no place reads whole — two lines in its row, opened over rows of its own', async ({
  page,
}) => {
  for (const lang of ['en', 'zh'] as const) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await analyse(page, hostLate113(), lang);
    const timeline = page.getByTestId('timeline');
    const reason = timeline.getByTestId('timeline-reason');
    const toggle = timeline.getByTestId('timeline-reason-toggle');
    const rows = () =>
      timeline.locator('.tl-row').evaluateAll((els) =>
        els.map((el) => {
          const b = el.getBoundingClientRect();
          return { node: (el as HTMLElement).dataset.node, top: b.top, height: b.height };
        }),
      );
    const text = () =>
      reason.evaluate((el) => {
        const b = el.getBoundingClientRect();
        return { top: b.top, bottom: b.top + el.scrollHeight, cut: el.scrollHeight > el.clientHeight + 1 };
      });
    // Wide: the whole reason in its row's two lines, nothing to open.
    await expect(reason).toBeVisible();
    expect((await text()).cut, lang).toBe(false);
    await expect(toggle).toHaveCount(0);
    // A phone: two lines, and a control that opens the rest.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect((await text()).cut, lang).toBe(true);
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(timeline.getByTestId('timeline-reason-row').first()).toBeVisible();
    const t = await text();
    expect(t.cut, lang).toBe(false);
    // Every row keeps its height, one under the other; the next node's row starts below the reason's end.
    const after = await rows();
    for (const [i, r] of after.entries()) {
      expect(r.height, `${lang}: row ${i}`).toBe(32);
      if (i > 0) expect(r.top - after[i - 1]!.top, `${lang}: row ${i}`).toBe(32);
    }
    const next = after.find((r, i) => i > 0 && r.node !== 'node0')!;
    expect(next.top, lang).toBeGreaterThanOrEqual(t.bottom);
    // Folded again: back to its one row.
    await page.keyboard.press('Enter');
    await expect(timeline.getByTestId('timeline-reason-row')).toHaveCount(0);
    // Chinese runs its sentences on: no space after the full-width colon.
    if (lang === 'zh') expect(await reason.textContent()).not.toMatch(/：\s/);
  }
});

test('timeline: no limit line, measurement or cursor is drawn over why a node has no place', async ({ page }) => {
  for (const lang of ['en', 'zh'] as const) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await analyse(page, hostLate113(), lang);
    const timeline = page.getByTestId('timeline');
    const boxes = () =>
      timeline.evaluate((el) => {
        const box = (x: Element) => {
          const b = x.getBoundingClientRect();
          return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
        };
        const all = (sel: string) => [...el.querySelectorAll(sel)].map(box);
        return {
          lines: all('[data-testid="timeline-limit"]'),
          cursors: all('.tl-cursor, .tl-measure'),
          // Why node0 has no place: its words, and the plot of its row and of the rows they run on over.
          words: all('[data-testid="timeline-reason"]'),
          unplaced: all('.tl-row.is-unplaced .tl-row__plot'),
          placed: all('.tl-row:not(.is-unplaced) .tl-row__plot'),
        };
      });
    const meets = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      if (width === 390) {
        // Opened on a phone, the words run on over rows of their own: those too stay clear.
        await timeline.getByTestId('timeline-reason-toggle').click();
        await expect(timeline.getByTestId('timeline-reason-row').first()).toBeVisible();
      }
      await timeline.getByTestId('timeline-reason').scrollIntoViewIfNeeded();
      const b = await boxes();
      const where = `${lang} at ${width}`;
      expect(b.words.length, where).toBe(1);
      expect(b.unplaced.length, where).toBeGreaterThan(0);
      // The 30 s timeout falls inside node0's row: drawn across the whole grid it would cross it (and, in English,
      // its words).
      expect(b.lines.length, where).toBeGreaterThan(0);
      const row = b.unplaced[0]!;
      expect(
        b.lines.some((l) => l.left >= row.left && l.right <= row.right),
        where,
      ).toBe(true);
      for (const l of b.lines) {
        for (const u of [...b.words, ...b.unplaced])
          expect(meets(l, u), `${where}: a limit over ${JSON.stringify(u)}`).toBe(false);
      }
      // Over the rows that have a place, each line still runs from top to bottom.
      for (const r of b.placed)
        expect(
          b.lines.some((l) => l.top <= r.top + 0.5 && l.bottom >= r.bottom - 0.5),
          `${where}: a limit across ${JSON.stringify(r)}`,
        ).toBe(true);
      // The cursor follows the pointer over the placed rows, not over the words.
      const w = b.words[0]!;
      await page.mouse.move((w.left + w.right) / 2, (w.top + w.bottom) / 2);
      const over = await boxes();
      for (const c of over.cursors) expect(meets(c, w), `${where}: the cursor over the words`).toBe(false);
      const r = b.placed[0]!;
      await page.mouse.move((r.left + r.right) / 2, (r.top + r.bottom) / 2);
      await expect(timeline.locator('.tl-cursor').first(), where).toBeVisible();
    }
  }
});

test('skew chart on a phone: the limit the late node crossed keeps its label when labels clash', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await analyse(page, longNames(), 'en');
  const chart = page.getByTestId('skew-chart');
  const crossed = chart.locator('text.skew-ref__label.is-crossed');
  await expect(crossed).toHaveText('join_timeout 600 s');
  // Laid out once painted: wait for the pass that hides what clashes.
  await expect(chart.locator('text.skew-ref__label[style*="hidden"]').first()).toBeAttached();
  await expect(crossed).not.toHaveAttribute('style', /hidden/);
  // And no two labels still shown overlap.
  const shown = await chart.locator('text.skew-ref__label').evaluateAll((els) =>
    els
      .filter((el) => (el as SVGTextElement).style.visibility !== 'hidden')
      .map((el) => el.getBoundingClientRect())
      .map((r) => [r.left, r.right]),
  );
  for (const [i, a] of shown.entries())
    for (const b of shown.slice(i + 1)) expect(a[1]! <= b[0]! || b[1]! <= a[0]!, JSON.stringify(shown)).toBe(true);
});

test('timeline on a phone: the whole job’s view draws the markers at either end whole', async ({ page }) => {
  for (const [fixture, specs] of [
    ['pod names', longNames],
    ['s2', s2],
  ] as const) {
    await page.setViewportSize({ width: 390, height: 844 });
    await analyse(page, specs(), 'en');
    const timeline = page.getByTestId('timeline');
    await expect(timeline.locator('.tl-marker').first()).toBeVisible();
    const out = await timeline.locator('.tl-row__plot').evaluateAll((plots) =>
      plots.flatMap((plot) => {
        const p = plot.getBoundingClientRect();
        return [...plot.querySelectorAll('.tl-marker, .tl-marker *')]
          .map((m) => m.getBoundingClientRect())
          .filter((m) => m.width > 0 && (m.left < p.left - 0.5 || m.right > p.right + 0.5))
          .map(
            (m) =>
              `${plot.closest('[data-node]')?.getAttribute('data-node')}: ${m.left}–${m.right} of ${p.left}–${p.right}`,
          );
      }),
    );
    expect(out, fixture).toEqual([]);
  }
});

test('timeline on a phone: a limit chip that wraps reads on line by line, not in columns', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'skewscope-polish-'));
  try {
    const job = generateJob(join(dir, 'job'), { nodes: 12, ranks: 1, late: 3, seed: 5 });
    const specs = readdirSync(job.dir).map((name) => ({ name, text: readFileSync(join(job.dir, name), 'utf8') }));
    for (const lang of ['en', 'zh'] as const) {
      await page.setViewportSize({ width: 390, height: 844 });
      await analyse(page, specs, lang);
      const chips = page.getByTestId('timeline-chip');
      await expect(chips.filter({ hasText: 'init_process_group' })).toBeVisible();
      const order = await chips.evaluateAll((els) =>
        els.map((chip) => {
          // Every piece of its text in the order it is written, as laid out: each piece right of the one
          // before on the same line, or on a line below.
          const rects: { top: number; left: number }[] = [];
          const walker = document.createTreeWalker(chip, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(n);
            for (const r of range.getClientRects()) if (r.width > 0) rects.push({ top: r.top, left: r.left });
          }
          const backwards = rects.some(
            (r, i) =>
              i > 0 &&
              (r.top < rects[i - 1]!.top - 2 ||
                (Math.abs(r.top - rects[i - 1]!.top) <= 2 && r.left < rects[i - 1]!.left)),
          );
          return { text: chip.textContent, lines: new Set(rects.map((r) => Math.round(r.top))).size, backwards };
        }),
      );
      // The English labels are the longer: one of them wraps on a phone.
      if (lang === 'en')
        expect(
          order.some((c) => c.lines > 1),
          JSON.stringify(order),
        ).toBe(true);
      for (const c of order) expect(c.backwards, `${lang}: ${c.text}`).toBe(false);
      // Chinese puts no space before its full-width bracket.
      if (lang === 'zh') for (const c of order) expect(c.text ?? '').not.toMatch(/\s（/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('what-if on a phone: a long column header wraps instead of squeezing what each node has to spare', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await analyse(page, s2(), 'en');
  const spare = await page
    .getByTestId('what-if-nodes')
    .locator('.whatif__spare')
    .evaluateAll((els) =>
      // An inline run of text: one box per line it takes.
      els.map((el) => ({ text: el.textContent, lines: el.getClientRects().length })),
    );
  expect(spare.length).toBe(4);
  for (const s of spare) expect(s.lines, s.text ?? '').toBeLessThanOrEqual(2);
});

test('what-if with a node’s log missing says whose, in either language (not "{nodes} have no launch time" empty)', async ({
  page,
}) => {
  const six = () => logsOf(join(EXCERPTS, 'static-2.6-six-nodes-node4-log-missing-4-of-5-clients'));
  await analyse(page, six(), 'en');
  const verdict = page.getByTestId('what-if-verdict');
  await expect(verdict).toHaveText(
    'This cannot be answered: there is no log of node4 (group_rank 4), and a node without a log may be the late one.',
  );
  await analyse(page, six(), 'zh');
  // The label skewscope gives the missing node is Chinese too: full-width brackets, no space against them.
  await expect(verdict).toHaveText('无法回答：没有 node4（group_rank 4）的日志，而没有日志的节点可能正是迟到的那个。');
});

test('keyboard: nothing hidden from a screen reader takes focus, and everything that takes focus shows a ring', async ({
  page,
}) => {
  await analyse(page, s2(), 'en');
  await expect(page.getByTestId('skew-chart').locator('svg').first()).toBeVisible();
  const hiddenStops = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement | SVGElement>('[aria-hidden="true"] *, [aria-hidden="true"]')]
      .filter(
        (el) =>
          el.tabIndex >= 0 && (el.matches('a[href], button, input, select, textarea') || el.hasAttribute('tabindex')),
      )
      .map((el) => `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}`),
  );
  expect(hiddenStops).toEqual([]);
  // Tab through the page: each stop draws a focus ring (an outline or a ring shadow).
  const noRing: string[] = [];
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  for (let i = 0; i < 90; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const s = getComputedStyle(el);
      const ring = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
      return ring ? null : `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}`;
    });
    if (stop) noRing.push(stop);
  }
  expect(noRing).toEqual([]);
});

test('node details: the node a file belongs to reads whole in its menu, at 1440 and on a phone', async ({ page }) => {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await analyse(page, longNames(), 'en');
    await page.getByTestId('node-table').locator('.nodes-toggle').first().click();
    const menus = await page.locator('.node-detail .file-fix__field select').evaluateAll((els) =>
      (els as HTMLSelectElement[]).map((el) => {
        const s = getComputedStyle(el);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
        const text = el.selectedOptions[0]?.text ?? '';
        // The text, the padding and the arrow (about 20 px).
        const need = ctx.measureText(text).width + parseFloat(s.paddingLeft) + parseFloat(s.paddingRight) + 20;
        return { text, need, width: el.getBoundingClientRect().width };
      }),
    );
    expect(menus.length).toBeGreaterThanOrEqual(2);
    for (const m of menus) expect(m.width, `${m.text} at ${width}`).toBeGreaterThanOrEqual(m.need);
  }
});
