// Digests made on the nodes (`skewscope digest`, the built CLI) dropped on the page: told from logs by their
// content, mixed with logs and in archives, and a damaged one listed with its reason while the rest is analysed.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { zipSync } from 'fflate';
import { type DropSpec, dropFiles, nodeIds, watchErrors } from './helpers';

const ROOT = join(import.meta.dirname, '..');
const S2 = join(import.meta.dirname, 'fixtures', 's2');
const CLI = join(ROOT, 'dist', 'cli', 'skewscope.mjs');

/** `skewscope digest <node>.log --node <node>`, as each node would run it. */
function digest(node: string, ...extra: string[]): string {
  const r = spawnSync(process.execPath, [CLI, 'digest', join(S2, `${node}.log`), '--node', node, ...extra], {
    encoding: 'utf8',
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`skewscope digest failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

const NODES = ['node0', 'node1', 'node2', 'node3'];

test('digests of the four nodes give the verdict of their logs; a digest with any name is read by its content', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto('/');
  // One named like a log: the name does not matter, the first bytes do.
  const specs: DropSpec[] = NODES.map((n, i) => ({
    name: i === 2 ? `${n}.log` : `${n}.skewscope.json`,
    text: digest(n),
  }));
  await dropFiles(page, specs);
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  await expect(page.getByTestId('late-nodes')).toContainText('node3');
  expect(await nodeIds(page)).toEqual(NODES);
  await expect(page.getByTestId('file-problems')).toHaveCount(0);

  // The same job from the logs themselves.
  await page.getByRole('button', { name: 'Start over', exact: true }).click();
  await dropFiles(
    page,
    NODES.map((n) => ({ name: `${n}.log`, text: readFileSync(join(S2, `${n}.log`), 'utf8') })),
  );
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  await expect(page.getByTestId('late-nodes')).toContainText('node3');
  expect(await nodeIds(page)).toEqual(NODES);
  expect(errors).toEqual([]);
});

test('digests mixed with logs and zipped; a changed digest is listed with its reason, the rest analysed', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto('/');
  const zip = zipSync({
    'digests/node0.skewscope.json': new TextEncoder().encode(digest('node0')),
    'digests/node1.skewscope.json': new TextEncoder().encode(digest('node1')),
  });
  const changed = digest('node2').replace('"line":1,', '"line":2,');
  await dropFiles(page, [
    { name: 'digests.zip', base64: Buffer.from(zip).toString('base64') },
    { name: 'node2.skewscope.json', text: changed },
    { name: 'node3.log', text: readFileSync(join(S2, 'node3.log'), 'utf8') },
  ]);
  await expect(page.getByTestId('verdict')).toContainText(/failed/i);
  expect(await nodeIds(page)).toEqual(['node0', 'node1', 'node3']);
  const problems = page.getByTestId('file-problems');
  const row = problems.getByRole('listitem').filter({ hasText: 'node2.skewscope.json' });
  await expect(row).toContainText('Unreadable');
  await expect(row).toContainText('was changed after skewscope made it (its checksum does not match its content)');
  await expect(problems.getByRole('listitem')).toHaveCount(1);
  expect(errors).toEqual([]);
});
