import { describe, expect, it } from 'vitest';
import { findingText } from '../src/core/diagnosisText';
import { nodeLabels } from '../src/core/i18n';
import { reasonText } from '../src/core/notesText';

// A node with no log and no name gets a label of skewscope's own (job/world.ts); a Chinese reader reads it in
// Chinese wherever it stands: findings, reasons, the verdict header, the CLI and Markdown reports.

describe('labels of missing nodes', () => {
  it('are Chinese in Chinese text, and names from the logs stay as they are', () => {
    expect(nodeLabels('zh', 'unnamed node 1 of 2, unnamed node 2 of 2')).toBe('未命名节点 1/2, 未命名节点 2/2');
    // A label of skewscope's own around a name from the logs: the name stays, the label is Chinese.
    expect(nodeLabels('zh', 'node4 (group_rank 4)')).toBe('node4（group_rank 4）');
    expect(nodeLabels('zh', 'group_rank 4')).toBe('group_rank 4');
    expect(nodeLabels('zh', 'node4')).toBe('node4');
    expect(nodeLabels('en', 'node4 (group_rank 4)')).toBe('node4 (group_rank 4)');
    expect(nodeLabels('en', 'unnamed node 1 of 2')).toBe('unnamed node 1 of 2');
  });

  it('in a finding and a reason', () => {
    const f = findingText('zh', 'NODE_LOG_MISSING', {
      missing: 'unnamed node 1 of 2, unnamed node 2 of 2',
      count: 2,
      expected: 4,
      present: 2,
      likely: 1,
      formed: null,
    });
    expect(f.title + f.detail).toContain('未命名节点 1/2');
    expect(f.title + f.detail).not.toContain('unnamed');
    const r = reasonText('zh', { code: 'missing-likely', values: { missing: ['unnamed node 1 of 2'] } });
    expect(r).toContain('未命名节点 1/2');
    expect(reasonText('en', { code: 'missing-likely', values: { missing: ['unnamed node 1 of 2'] } })).toContain(
      'unnamed node 1 of 2',
    );
  });
});

describe('the late-node list of a LATE_NODE finding', () => {
  it('is written in Chinese units and separators on a Chinese page, unchanged in English', () => {
    const p = {
      count: 3,
      node: 'node467',
      first: 'node0',
      lag: 283,
      worst: 'node467 (283 s), node2 (4.5 s), n-9 (no time)',
    };
    const late = [
      { node: 'node467', lagSeconds: 283.2 },
      { node: 'node2', lagSeconds: 4.46 },
      { node: 'n-9', lagSeconds: null },
    ];
    expect(findingText('zh', 'LATE_NODE', p, late).detail).toContain(
      'node467（283 秒）、node2（4.5 秒）、n-9（无时间）',
    );
    expect(findingText('zh', 'LATE_NODE', p, late).detail).not.toMatch(/\d s\b|no time/);
    expect(findingText('en', 'LATE_NODE', p, late).detail).toContain('node467 (283 s), node2 (4.5 s), n-9 (no time)');
  });
});
