import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ORIGIN, dropFiles, type DropSpec } from './helpers';

const FIXTURES = join(import.meta.dirname, 'fixtures', 's2');
const NODE_LOGS = ['node0.log', 'node1.log', 'node2.log', 'node3.log'];
const SCREENSHOTS = join(import.meta.dirname, '..', 'test-results', 'screenshots');

function nodeLogSpecs(): DropSpec[] {
  return NODE_LOGS.map((name) => ({ name, text: readFileSync(join(FIXTURES, name), 'utf8') }));
}

/** Every byte value, repeated: unmistakably not a text log. */
function binarySpec(name: string): DropSpec {
  return { name, bytes: Array.from({ length: 256 * 16 }, (_, i) => i % 256) };
}

test('the built app loads and shows its drop zone', async ({ page }) => {
  // Listening before anything happens: Playwright turns on file-chooser interception asynchronously,
  // and a key press sent right after subscribing can beat it.
  const chooser = page.waitForEvent('filechooser');
  await page.goto('/');
  const zone = page.getByTestId('drop-zone');
  await expect(zone).toBeVisible();
  await expect(zone).toHaveRole('button');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('torchrun');
  await expect(page.getByRole('button', { name: 'Choose folder' })).toBeVisible();

  // The drop zone is a keyboard-reachable control that opens the file picker.
  await zone.focus();
  await page.keyboard.press('Enter');
  expect((await chooser).isMultiple()).toBe(true);
});

test('no request leaves the app origin', async ({ page }) => {
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  // A blocked request (the page's Content-Security-Policy) shows up only as a console error.
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto('/');
  await dropFiles(page, nodeLogSpecs());
  await expect(page.getByTestId('verdict')).toBeVisible();

  // The parse worker's script was fetched too, so the check covers the workers' side.
  expect(requests.some((url) => /\/assets\/parse\.worker-[\w-]+\.js$/.test(url))).toBe(true);
  const foreign = requests.filter((url) => new URL(url).origin !== ORIGIN);
  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});

test('dropping the four node logs names node3 as the late node', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, nodeLogSpecs());

  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  await expect(page.getByTestId('late-nodes')).toContainText('node3');
  await expect(page.getByTestId('skew')).toBeVisible();
  await expect(page.getByTestId('node-table')).toContainText('node3');
  await expect(page.getByTestId('file-problems')).toHaveCount(0);
});

test('a binary file is listed as a problem while the logs are still analysed', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, [...nodeLogSpecs(), binarySpec('core.dump')]);

  await expect(page.getByTestId('verdict')).toBeVisible();
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  const problems = page.getByTestId('file-problems');
  await expect(problems).toContainText('core.dump');
  await expect(problems).not.toContainText('node0.log');
});

test('the file picker analyses the chosen files too', async ({ page }) => {
  const chooser = page.waitForEvent('filechooser');
  await page.goto('/');
  await page.getByRole('button', { name: 'Choose files', exact: true }).click();
  await (await chooser).setFiles(NODE_LOGS.map((name) => join(FIXTURES, name)));

  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  await expect(page.getByTestId('late-nodes')).toContainText('node3');
});

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme, viewport: { width: 1280, height: 900 } });

    test('screenshots of the empty state and of a verdict', async ({ page }) => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.goto('/');
      await expect(page.getByTestId('drop-zone')).toBeVisible();
      await page.screenshot({ path: join(SCREENSHOTS, `empty-${colorScheme}.png`), fullPage: true });

      await dropFiles(page, [...nodeLogSpecs(), binarySpec('core.dump')]);
      await expect(page.getByTestId('verdict')).toBeVisible();
      await page.screenshot({ path: join(SCREENSHOTS, `verdict-${colorScheme}.png`), fullPage: true });
    });
  });
}

test('the bundled example job opens from the empty state', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto('/');
  await page.getByTestId('open-example').click();
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  await expect(page.getByTestId('late-nodes')).toContainText('trainjob-worker-1');
  await expect(page.getByTestId('skew')).toContainText('5 min 45 s');
  // The example is the app's own static files.
  expect(requests.some((url) => url.endsWith('/examples/k8s-late-node/trainjob-worker-1.log'))).toBe(true);
  expect(requests.filter((url) => new URL(url).origin !== ORIGIN)).toEqual([]);
});

test('the findings name the limit that fired, the advice gives the command, and 中文 switches the words', async ({
  page,
}) => {
  await page.goto('/');
  await dropFiles(page, nodeLogSpecs());
  const findings = page.getByTestId('findings');
  await expect(findings.locator('[data-code="SKEW_EXCEEDS_RDZV_TIMEOUT"]')).toContainText('timeout = 30 s');
  await expect(findings.locator('[data-code="LATE_NODE"]')).toContainText('node3 started 45 s after node0');
  await expect(page.getByTestId('advice').locator('[data-advice="rdzv-conf"]')).toContainText(
    '--rdzv_conf="timeout=1800"',
  );
  // Where the line goes: the user typed no --rdzv_conf keys here, so the flag belongs in every torchrun command.
  await expect(page.locator('[data-advice="rdzv-conf"] [data-testid="advice-goes-in"]')).toHaveText(
    'In the torchrun command of every node',
  );
  await expect(page.getByTestId('what-if')).toContainText('every node would have made it');
  await page.getByRole('button', { name: '中文' }).click();
  await expect(findings.locator('[data-code="SKEW_EXCEEDS_RDZV_TIMEOUT"]')).toContainText('rendezvous 期限');
  await expect(page.getByTestId('what-if')).toContainText('所有节点都能赶上');
});
