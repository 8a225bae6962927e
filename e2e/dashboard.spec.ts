// The dashboard as a whole, on real logs: whole-page Chinese, layouts that hold at 1440/1024/390 px, readable
// timeline names, the error-first screen, the share address, the view in the address bar, a diagnosis kept for
// a reload, and the theme control.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { ORIGIN, dropFiles, type DropSpec } from './helpers';

const E2E = join(import.meta.dirname, 'fixtures');
const CORPUS = join(import.meta.dirname, '..', 'test', 'fixtures', 'corpus');
const WIDTHS = [1440, 1024, 390];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Every file of a fixture folder as dropped, named by its path inside the folder. */
function folderSpecs(dir: string, prefix = ''): DropSpec[] {
  return walk(dir)
    .filter((f) => !f.endsWith('truth.json'))
    .map((f) => ({ name: prefix + relative(dir, f), base64: readFileSync(f).toString('base64') }));
}

const s2 = () => folderSpecs(join(E2E, 's2'));
const corpus = (scenario: string) => folderSpecs(join(CORPUS, scenario));

/** A real PNG's first bytes (signature and IHDR), then 40 KB of image data: what a screenshot dropped by mistake is. */
function pngSpec(): DropSpec {
  const head = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];
  const bytes = Buffer.alloc(40_000);
  Buffer.from(head).copy(bytes);
  for (let i = head.length; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
  return { name: 'screenshot.png', base64: bytes.toString('base64') };
}

/**
 * A share link of format 1 (notes and reasons as English words), made by skewscope 0.1.0 — the same payload as
 * test/share.test.ts's golden link.
 */
const FORMAT_1_LINK =
  'xlNuONWauW7DMAyGX8XwEhswXB2UFRnIoxQdOhQFCrSou3Tou5ekfMi2fMRIhky5YIqiwo_SL8ayuhLKqS6r31B2oIweclvT8qAXZHElt52tnDOgNec2GGFtNMF9MpI3tYI6aX6bksKQfXyifMQ8Q6EEeZadGGeXS_g43Y-Qmo8noJfm9fv966ehr7pt0CnP8rwvrgE-eExiiIoxRDNCiBz0j70pNjCu6IIAUXBEJgzRPpnXqTCCa5QPFU6xpcAcEbZDBDHpqh8rip00-MkWxr_bQ5l4aZ_X5MXNxWwjcoxU6USv59WMivZzSyjj8yIfFfP9wyNFH2dxgJxgSk6kDX6qlp_7zpyL8gWGbZ-AMQg7XiHo3AzO2uyqVzR4OlFRg0LS8p9fxzLazeQmLCx3riwUOS-eraOZJvnoJSW9591UX6_6MpEWFt29vlVDy_VmDf0E034NylFPdz-whPPSyEd6OHDJhNho5OBpFwmXKg7H2CGkr5TKJfKMyVqDKI0ko4kEa5L2Hr-y5jl-l68Gg21oJQQWlauNKUEDWXSAAAvaBpLN5gUtgvYF8ZdisfgH';

let runs = 0;

/** A fresh page (nothing kept from an earlier analysis) with `specs` dropped on it. */
async function analyse(page: Page, specs: DropSpec[], lang: 'en' | 'zh' = 'en'): Promise<void> {
  await page.goto('/');
  await page.evaluate(() => localStorage.removeItem('skewscope.lastDiagnosis'));
  // A new query string: a full load, not a jump within the page.
  await page.goto(`/?run=${++runs}#lang=${lang}`);
  await expect(page.getByTestId('drop-zone')).toBeVisible();
  await dropFiles(page, specs);
  await expect(page.getByTestId('verdict').or(page.getByTestId('no-logs'))).toBeVisible({ timeout: 30_000 });
}

/**
 * English words left on the page: every text node and every aria-label, title, placeholder and alt, except
 * identifiers (code, file names, node names, numbers, config keys, ALL-CAPS names), the technical terms
 * Chinese-speaking PyTorch users write as they are, and code and log lines (the user's own text, a program's
 * own words). With `allowEnglish`, text marked lang="en" is left out too: only words that exist only in English
 * (a share link of format 1) are, and a page that shows them says so.
 */
async function englishOn(page: Page, allowEnglish = false): Promise<string[]> {
  return page.evaluate((allowEnglish) => {
    const TERMS = new Set(
      [
        'torchrun rendezvous rank store tcpstore worker agent pytorch torch gloo nccl hccl static c10d debian',
        'skewscope markdown json png kubernetes slurm pod master group node watchdog flight recorder prolog init',
        'container task core dump checkpoint stdout stderr the dashboard hosting readme cli chrony ntp ts srun',
        'kubectl logs timestamps distributed site-packages synchronize en english ctrl shift enter esc home end',
        'pgup pgdn utc ip https http timeout analyze kib mib gib b tar zip gzip endpoint world kubeflow pytorchjob',
      ]
        .join(' ')
        .split(/\s+/),
    );
    // Code, file names, the lines of the user's own logs (the evidence viewer's rows) and what the user typed
    // (translate="no": a share link's title) are data, not words.
    const DATA = 'code, pre, kbd, samp, .mono, .ev-row, [translate="no"]';
    const SKIP = `script, style, noscript, ${DATA}${allowEnglish ? ', [lang="en"]' : ''}`;
    const left: string[] = [];
    const check = (text: string, where: string) => {
      for (const token of text.split(/[\s,;:()（）“”"'‘’`、，。：；！？·…→←↑↓−=|[\]{}<>]+/)) {
        if (!/[A-Za-z]/.test(token)) continue;
        // A single letter is a key (z, M).
        if (/^[A-Za-z]$/.test(token)) continue;
        // Identifiers: config keys, file and node names, versions, flags, paths, ALL-CAPS names.
        if (/[_.\d=@#$~*+/-]/.test(token) || /^[A-Z]{2,}$/.test(token)) continue;
        if (TERMS.has(token.toLowerCase())) continue;
        left.push(`${where}: ${token} (in “${text.trim().slice(0, 80)}”)`);
      }
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!parent || parent.closest(SKIP)) continue;
      check(n.textContent ?? '', parent.tagName.toLowerCase());
    }
    for (const el of document.body.querySelectorAll('*')) {
      if (el.closest(allowEnglish ? '.ev-row, [translate="no"], [lang="en"]' : '.ev-row, [translate="no"]')) continue;
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt', 'aria-valuetext']) {
        const v = el.getAttribute(attr);
        if (v) check(v, `${el.tagName.toLowerCase()}[${attr}]`);
      }
    }
    check(document.title, 'title');
    return left;
  }, allowEnglish);
}

test.describe('a Chinese result page has no English UI string', () => {
  test('the s2 job: verdict, findings, timeline, skew, what-if, nodes, evidence, notes, dialogs', async ({ page }) => {
    await analyse(page, s2(), 'zh');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByTestId('verdict')).toHaveText('失败');
    expect(await englishOn(page)).toEqual([]);

    // A node's details, a tooltip, the ? sheet, the share dialog and the evidence viewer.
    await page.getByTestId('node-table').locator('.nodes-toggle').last().click();
    await page.locator('[data-testid="timeline-bar"][data-node="node3"]').hover();
    await expect(page.getByTestId('timeline-tooltip')).toBeVisible();
    expect(await englishOn(page)).toEqual([]);
    await page.getByTestId('timeline-keys').click();
    await expect(page.getByTestId('timeline-shortcuts')).toBeVisible();
    expect(await englishOn(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('share-open').click();
    await expect(page.getByTestId('share-dialog')).toBeVisible();
    expect(await englishOn(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('evidence').locator('button').first().click();
    await expect(page.getByTestId('evidence-lines')).toBeVisible();
    expect(await englishOn(page)).toEqual([]);
  });

  for (const scenario of [
    'torch1.13-capture-k2b',
    'torch1.13-s1_healthy_static',
    'torch2.6-s8_static_healthy_default_loglevel',
    'torch2.6-s9_static_pg_init_timeout20',
  ])
    test(`the ${scenario} job`, async ({ page }) => {
      await analyse(page, corpus(scenario), 'zh');
      expect(await englishOn(page)).toEqual([]);
    });

  test('the empty page, the example job and the error-first screen', async ({ page }) => {
    await page.goto('/#lang=zh');
    await expect(page.getByTestId('drop-zone')).toBeVisible();
    expect(await englishOn(page)).toEqual([]);
    await page.getByTestId('open-example').click();
    await expect(page.getByTestId('verdict')).toBeVisible();
    expect(await englishOn(page)).toEqual([]);
    await page.getByTestId('start-over').click();
    await dropFiles(page, [pngSpec()]);
    await expect(page.getByTestId('no-logs')).toBeVisible();
    expect(await englishOn(page)).toEqual([]);
  });
});

/** Files that are no torchrun log, each for another reason the page must say in the reader's language. */
function badSpecs(): DropSpec[] {
  const b64 = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64');
  const cut = readFileSync(join(E2E, 's5.tar.gz')).subarray(0, 300);
  return [
    pngSpec(),
    { name: 'notes.txt', text: 'meeting notes\nnothing about torch here\n' },
    { name: 'empty.log', text: '' },
    { name: 'config.json', text: '{"lr": 0.1}\n' },
    // Five non-logs in one folder fold into one entry with a list.
    ...[1, 2, 3, 4, 5].map((i) => ({ name: `bundle/readme-${i}.txt`, text: `part ${i} of the readme\n` })),
    { name: 'other-job.tar.gz', base64: b64(cut) },
    { name: 'logs.zip', base64: b64(gzipSync('not a zip\n')) },
    { name: 'broken.tar', text: 'this is not a tar archive at all, just text that is long enough\n'.repeat(12) },
    { name: 'node9.log', base64: b64(gzipSync('INFO:torch.distributed.run:launched\n')) },
    { name: 'node7.skewscope.json', text: '{"format":"skewscope-digest","version":1,"producer":"skewscope 0.1.0",' },
  ];
}

test.describe('every page a Chinese reader reaches is Chinese', () => {
  test('the error-first screen with files of every kind of problem, the folded list opened', async ({ page }) => {
    await analyse(page, badSpecs(), 'zh');
    await expect(page.getByTestId('no-logs')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    const problems = page.getByTestId('file-problems');
    for (const code of ['binary', 'empty', 'not-a-log', 'archive-error', 'unreadable'])
      await expect(problems.locator(`[data-problem="${code}"]`).first()).toBeVisible();
    await expect(problems).toContainText('other-job.tar.gz 不完整：压缩数据提前结束');
    await expect(problems).toContainText('node7.skewscope.json 是一份不完整的 skewscope 摘要');
    await problems.getByTestId('problems-show-all').first().click();
    await expect(page.getByTestId('problems-files')).toBeVisible();
    expect(await englishOn(page)).toEqual([]);
  });

  test('a result page with files set aside, an estimated instant’s tooltip and a --log-dir node’s details', async ({
    page,
  }) => {
    await analyse(page, [...s2(), pngSpec(), { name: 'other.tar', text: 'not a tar\n'.repeat(80) }], 'zh');
    await expect(page.getByTestId('verdict')).toHaveText('失败');
    await expect(page.getByTestId('file-problems')).toContainText('other.tar 已损坏');
    // node3's own failure line carries no time: its marker was placed, and the tooltip says how.
    const estimated = page.locator('[data-testid="timeline-row"][data-node="node3"] .tl-marker.is-est').first();
    await estimated.hover();
    await expect(page.getByTestId('timeline-tooltip')).toContainText('这一行没有时间');
    expect(await englishOn(page)).toEqual([]);

    await analyse(page, folderSpecs(join(E2E, 's5'), 's5/'), 'zh');
    await page.getByTestId('node-table').locator('.nodes-toggle').first().click();
    await expect(page.getByTestId('identity')).toContainText('--log-dir 目录结构');
    expect(await englishOn(page)).toEqual([]);
  });

  test('a share link made in Chinese, and one that cannot be opened', async ({ page }) => {
    await analyse(page, s2(), 'zh');
    await page.getByTestId('share-open').click();
    const url = await page.getByTestId('share-url').inputValue();
    await page.keyboard.press('Escape');
    await page.goto(url);
    await expect(page.getByTestId('shared-banner')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByTestId('verdict')).toHaveText('失败');
    expect(await englishOn(page)).toEqual([]);

    await page.goto(url.replace(/#share=\d+\./, '#share=9.'));
    await expect(page.getByTestId('share-link-error-message')).toContainText('分享格式 9');
    expect(await englishOn(page)).toEqual([]);
    await page.goto(`${url.slice(0, url.indexOf('#share=') + 30)}`);
    await expect(page.getByTestId('share-link-error')).toBeVisible();
    expect(await englishOn(page)).toEqual([]);
  });

  test('a share link of format 1 still opens; its notes and reasons stay the English they were made in', async ({
    page,
  }) => {
    await page.goto('/');
    await page.goto(`/?v1#share=1.${FORMAT_1_LINK}`);
    await expect(page.getByTestId('shared-banner')).toBeVisible();
    await page.getByTestId('lang-zh').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    // Words that exist only in English are marked so (screen readers read them as English), nothing else is.
    await expect(page.locator('main [lang="en"]').first()).toBeVisible();
    expect(await englishOn(page, true)).toEqual([]);
  });
});

test('the language: remembered, in <html lang> and in the address bar; the pressed 中文 stays readable', async ({
  page,
}) => {
  await analyse(page, s2());
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // The walk the Chinese tests use does find English where there is some.
  expect((await englishOn(page)).length).toBeGreaterThan(100);
  const zh = page.getByTestId('lang-zh');
  await zh.click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByTestId('findings')).toContainText('诊断发现');
  expect(new URL(page.url()).hash).toContain('lang=zh');
  // Hovered while pressed: the label keeps its colour against the accent it sits on.
  await zh.hover();
  const [color, background] = await zh.evaluate((el) => {
    const s = getComputedStyle(el);
    return [s.color, s.backgroundColor];
  });
  expect(color).not.toBe(background);
  expect(color).toBe(await page.getByTestId('lang-zh').evaluate((el) => getComputedStyle(el).color));
  expect(background).not.toBe(await page.getByTestId('lang-en').evaluate((el) => getComputedStyle(el).backgroundColor));

  // A fresh page without #lang= opens in the language chosen before.
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByTestId('drop-zone')).toContainText('拖到这里');
});

test('no page scrolls sideways at 1440, 1024 and 390 px, in either language, for every fixture', async ({ page }) => {
  test.setTimeout(180_000);
  const fixtures: [string, () => DropSpec[]][] = [
    ['s2', s2],
    ['s5 (a --log-dir tree)', () => folderSpecs(join(E2E, 's5'), 's5/')],
    ['s5.tar.gz', () => [{ name: 's5.tar.gz', base64: readFileSync(join(E2E, 's5.tar.gz')).toString('base64') }]],
    ['a screenshot (error first)', () => [pngSpec()]],
  ];
  const overflow = async (label: string) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth - innerWidth), {
          message: `${label} at ${width}`,
        })
        .toBeLessThanOrEqual(0);
    }
  };
  for (const [name, specs] of fixtures)
    for (const lang of ['en', 'zh'] as const) {
      await page.setViewportSize({ width: 1440, height: 900 });
      await analyse(page, specs(), lang);
      await overflow(`${name} (${lang})`);
    }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/#lang=zh');
  await page.getByTestId('open-example').click();
  await expect(page.getByTestId('verdict')).toBeVisible();
  await overflow('the example job (zh)');
  // The copy buttons never wrap their word ("复/制").
  for (const copy of await page.getByTestId('advice').getByRole('button', { name: /复制/ }).all()) {
    const box = (await copy.boundingBox())!;
    expect(box.height).toBeLessThan(34);
  }
});

test('timeline names stay readable: shortened in the middle, whole on hover, whole when the column is widened', async ({
  page,
}) => {
  // The s2 logs under names that differ only at their end.
  const names = [
    'trainjob-gpu-worker-10',
    'trainjob-gpu-worker-11',
    'trainjob-gpu-worker-12',
    'trainjob-gpu-worker-13',
  ];
  const specs = s2().map((s, i) => ({ ...s, name: `${names[i]}.log` }));
  await analyse(page, specs);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const labels = page.getByTestId('timeline-name');
    await expect(labels).toHaveCount(4);
    const shown = await labels.allTextContents();
    // Four different labels, each keeping its distinguishing end.
    expect(new Set(shown).size).toBe(4);
    shown.forEach((text, i) => expect(text.endsWith(names[i]!.slice(-2))).toBe(true));
    for (const [i, name] of names.entries()) {
      await expect(labels.nth(i)).toHaveAttribute('data-full', name);
      await expect(page.getByTestId('timeline-row').nth(i).locator('.tl-row__name')).toHaveAttribute('title', name);
    }
  }
  // Widening the name column (its edge, with the keyboard) shows the names whole.
  await page.setViewportSize({ width: 1440, height: 900 });
  const edge = page.getByTestId('timeline-resize');
  await edge.focus();
  for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('timeline-name').first()).toHaveText(names[0]!);
});

test('the timeline: the limit that fired, open waiting bars, no chips for limits a job never reached, measure, zoom, ?', async ({
  page,
}) => {
  await analyse(page, s2());
  const fired = page.locator('[data-testid="timeline-limit-label"][data-fired]');
  await expect(fired).toHaveCount(1);
  await expect(fired).toHaveAttribute('data-seconds', '30');
  await expect(page.locator('[data-testid="timeline-chip"][data-fired]')).toContainText('rendezvous timeout 30 s');

  // Shift + drag measures between two instants (snapped to what is under the pointer), across nodes.
  const plot = page.locator('[data-testid="timeline-row"][data-node="node1"] .tl-row__plot');
  await plot.scrollIntoViewIfNeeded();
  const b = (await plot.boundingBox())!;
  await page.mouse.move(b.x + b.width * 0.1, b.y + b.height / 2);
  await expect(page.getByTestId('timeline-cursor')).toBeVisible();
  await page.keyboard.down('Shift');
  await page.mouse.down();
  await page.mouse.move(b.x + b.width * 0.6, b.y + b.height * 2.5, { steps: 8 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  const measure = page.getByTestId('timeline-measure');
  await expect(measure).toBeVisible();
  expect(Number(await measure.getAttribute('data-seconds'))).toBeGreaterThan(5);
  await expect(measure).toContainText('node1 → node3');
  await page.keyboard.press('Escape');
  await expect(measure).toHaveCount(0);

  // Zoom to a node: its bars fill the plot.
  const bar = page.locator('[data-testid="timeline-bar"][data-node="node3"]');
  const before = (await bar.boundingBox())!.width;
  await page.locator('[data-testid="timeline-row"][data-node="node3"]').hover();
  await page.locator('[data-testid="timeline-row"][data-node="node3"]').getByTestId('timeline-zoom-node').click();
  await expect.poll(async () => (await bar.boundingBox())!.width).toBeGreaterThan(before * 1.5);

  // Touch: two fingers spread apart zoom in around them (the range shows in the address bar as t=from,to).
  await page.getByRole('button', { name: 'Fit all (0)' }).click();
  await expect.poll(() => new URL(page.url()).hash).not.toContain('t=');
  await page.locator('[data-testid="timeline-row"][data-node="node1"] .tl-row__plot').evaluate((plot) => {
    const r = plot.getBoundingClientRect();
    const y = r.top + r.height / 2;
    const send = (type: string, id: number, x: number) =>
      plot.dispatchEvent(
        new PointerEvent(type, {
          pointerId: id,
          pointerType: 'touch',
          isPrimary: id === 1,
          clientX: x,
          clientY: y,
          bubbles: true,
        }),
      );
    const mid = r.left + r.width / 2;
    send('pointerdown', 1, mid - 20);
    send('pointerdown', 2, mid + 20);
    for (let step = 1; step <= 5; step++) {
      send('pointermove', 1, mid - 20 - step * 12);
      send('pointermove', 2, mid + 20 + step * 12);
    }
    send('pointerup', 1, mid - 80);
    send('pointerup', 2, mid + 80);
  });
  const span = async () => {
    const m = /t=(-?[\d.]+),(-?[\d.]+)/.exec(new URL(page.url()).hash);
    return m ? Number(m[2]) - Number(m[1]) : Infinity;
  };
  // Fingers 40 px apart end 160 px apart: a quarter of the ~100 s job is on screen.
  await expect.poll(span).toBeLessThan(40);
  expect(await span()).toBeGreaterThan(15);

  // The ? sheet lists the keys.
  await page.getByTestId('timeline-keys').click();
  await expect(page.getByTestId('timeline-shortcuts')).toContainText('Shift + drag');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('timeline-shortcuts')).toHaveCount(0);

  // Nodes that waited silently until their log ended: open bars, not slivers.
  await analyse(page, corpus('torch2.6-s8_static_healthy_default_loglevel'));
  await expect(page.getByTestId('timeline-open')).toHaveCount(3);
  for (const node of ['node0', 'node1', 'node2'])
    expect(
      (await page.locator(`[data-testid="timeline-open"][data-node="${node}"]`).boundingBox())!.width,
    ).toBeGreaterThan(100);

  // A job that died at startup has no chip for limits whose clock never started (exit barrier, per-node waits).
  await analyse(page, corpus('torch2.6-s0_debian_nolibuv_static_crash'));
  await expect(page.getByTestId('timeline-limits')).toBeVisible();
  await expect(page.getByTestId('timeline-limits')).not.toContainText('exit barrier');
  await expect(page.getByTestId('timeline-limits')).not.toContainText('per node');
  // Rows whose lines all carry times say nothing about "only timed events".
  await expect(page.getByTestId('timeline')).not.toContainText('only timed events');
});

test('error first: when no file is a torchrun log, the reasons lead, empty cards are gone, exports are off', async ({
  page,
}) => {
  await analyse(page, [pngSpec(), { name: 'notes.txt', text: 'meeting notes\nnothing about torch here\n' }]);
  const noLogs = page.getByTestId('no-logs');
  await expect(noLogs).toBeVisible();
  await expect(noLogs.getByRole('heading', { level: 1 })).toHaveText('None of these files is a torchrun log');
  // The reasons come first on the page, per file, then what to drop instead.
  const problems = noLogs.getByTestId('file-problems');
  await expect(problems.locator('[data-problem="binary"]')).toContainText('screenshot.png');
  await expect(problems.locator('[data-problem="not-a-log"]')).toContainText('notes.txt');
  await expect(noLogs.getByTestId('no-logs-instead').locator('[data-problem="binary"]')).toBeVisible();
  await expect(noLogs.getByTestId('no-logs-instead').locator('[data-problem="not-a-log"]')).toBeVisible();
  const top = (await noLogs.boundingBox())!.y;
  expect(top).toBeLessThan(150);
  for (const id of ['verdict', 'timeline', 'skew-chart', 'what-if-slider', 'node-table', 'findings', 'evidence'])
    await expect(page.getByTestId(id)).toHaveCount(0);
  for (const id of ['share-open', 'export-markdown', 'export-timeline-png', 'export-skew-png'])
    await expect(page.getByTestId(id)).toBeDisabled();
  await expect(page.getByTestId('export-json')).toBeEnabled();
  // True sizes: the 40 KB screenshot is not "0 B".
  await expect(page.getByTestId('files-summary')).toContainText('All 2 files · 39 KiB');
  await page.getByTestId('files-summary').locator('summary').click();
  await expect(
    page.getByTestId('files-summary').getByRole('listitem').filter({ hasText: 'screenshot.png' }),
  ).toContainText('39 KiB');
  await expect(page.getByTestId('files-summary')).not.toContainText(' 0 B');
});

test('the what-if needs a backend the logs name and a node with a launch time', async ({ page }) => {
  await analyse(page, corpus('torch2.6-s8_static_healthy_default_loglevel'));
  // These logs print no rendezvous backend: nothing is claimed about one.
  await expect(page.getByTestId('verdict')).toBeVisible();
  await expect(page.getByTestId('what-if-slider')).toHaveCount(0);
  await analyse(page, s2());
  await expect(page.getByTestId('what-if-slider')).toContainText('static backend');
});

test('share links use the address teammates open: set, remembered, warned about when only this machine has it', async ({
  page,
}) => {
  await analyse(page, s2());
  await page.getByTestId('share-open').click();
  const dialog = page.getByTestId('share-dialog');
  // The preview server is loopback: said plainly, and the link uses it until told otherwise.
  await expect(dialog.getByTestId('share-base')).toHaveValue(`${ORIGIN}/`);
  await expect(dialog.getByTestId('share-base-warning')).toContainText('only opens on your own machine');
  await expect(dialog.getByTestId('share-url')).toHaveValue(
    new RegExp(`^${ORIGIN.replace(/\./g, '\\.')}/#share=\\d+\\.`),
  );

  await dialog.getByTestId('share-base').fill('https://tools.example.com/skewscope/');
  await expect(dialog.getByTestId('share-base-warning')).toHaveCount(0);
  await expect(dialog.getByTestId('share-url')).toHaveValue(/^https:\/\/tools\.example\.com\/skewscope\/#share=\d+\./);
  await expect(dialog.getByTestId('share-base-note')).toContainText('remembered');
  await dialog.getByTestId('share-base').fill('not an address');
  await expect(dialog.getByTestId('share-base-note')).toContainText('not a web address');
  // An address that does not parse changes nothing: the link keeps the last good one.
  await expect(dialog.getByTestId('share-url')).toHaveValue(/^https:\/\/tools\.example\.com\/skewscope\//);
  await page.keyboard.press('Escape');

  // Remembered in this browser: another analysis, another dialog, the same address. The reload waits for the
  // diagnosis to be kept (saved a moment after it settles), so that it comes back with its Start over button.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('skewscope.lastDiagnosis') !== null)).toBe(true);
  await page.reload();
  await page.getByTestId('start-over').click();
  await analyse(page, s2());
  await page.getByTestId('share-open').click();
  await expect(dialog.getByTestId('share-base')).toHaveValue('https://tools.example.com/skewscope/');
  await expect(dialog.getByTestId('share-url')).toHaveValue(/^https:\/\/tools\.example\.com\/skewscope\/#share=\d+\./);
  await dialog.getByTestId('share-base-reset').click();
  await expect(dialog.getByTestId('share-base')).toHaveValue(`${ORIGIN}/`);
});

test('a reload keeps the diagnosis (not the logs) and the view in the address bar; "Forget it" clears it', async ({
  page,
}) => {
  await analyse(page, s2());
  await page.locator('[data-testid="timeline-row"][data-node="node3"] .tl-row__name').click();
  await page.getByRole('button', { name: 'Zoom in (+)' }).click();
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#lang=en&node=node3&t=-?[\d.]+,[\d.]+$/);
  const hash = new URL(page.url()).hash;
  await expect(page.getByTestId('kept-note')).toHaveAttribute('data-kept', 'true');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('skewscope.lastDiagnosis') !== null)).toBe(true);
  // What is kept is the diagnosis: no log line beyond the evidence the page showed.
  const kept = await page.evaluate(() => localStorage.getItem('skewscope.lastDiagnosis')!);
  expect(kept).not.toContain('launch_agent');

  await page.reload();
  await expect(page.getByTestId('saved-banner')).toBeVisible();
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  await expect(page.getByTestId('late-nodes')).toContainText('node3');
  await expect(page.locator('[data-testid="timeline-row"][data-node="node3"]')).toHaveAttribute(
    'aria-selected',
    'true',
  );
  expect(new URL(page.url()).hash).toBe(hash);
  // The logs are not: evidence is the text kept, with nothing to open.
  await expect(page.getByTestId('evidence').getByRole('button')).toHaveCount(0);

  await page.getByTestId('forget-diagnosis').click();
  await expect(page.getByTestId('open-example')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('skewscope.lastDiagnosis'))).toBeNull();
  await page.reload();
  await expect(page.getByTestId('open-example')).toBeVisible();
  await expect(page.getByTestId('verdict')).toHaveCount(0);

  // "Forget it" under a live analysis keeps it on screen and nothing for a reload.
  await analyse(page, s2());
  await page.getByTestId('forget-diagnosis').click();
  await expect(page.getByTestId('kept-note')).toHaveAttribute('data-kept', 'false');
  await page.reload();
  await expect(page.getByTestId('open-example')).toBeVisible();
});

test('the theme control: system, light or dark, remembered', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('theme').selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.getByTestId('theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(light);
  await page.getByTestId('theme').selectOption('system');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});
