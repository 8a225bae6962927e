import { describe, expect, it } from 'vitest';
import type { NodeView } from '../ingest/index';
import { nodeRows, prepareNodes } from './nodeRows';

const node = (id: string, lag: number | null, rank: number | null = null): NodeView => ({
  id,
  hostname: null,
  groupRank: rank,
  globalRanks: [],
  files: [`logs/${id}.log`],
  identity: [],
  launchTime: lag === null ? null : new Date(Date.UTC(2026, 10, 29, 18, 0, lag)).toISOString(),
  launchFrom: lag === null ? null : 'line',
  firstLine: null,
  lastLine: null,
  lagSeconds: lag,
  isStoreHost: id === 'node0',
  runId: null,
  failureStage: null,
  agents: 1,
  attempts: [],
});

const ids = (rows: { node: NodeView }[]) => rows.map((r) => r.node.id);

describe('node table rows', () => {
  const nodes = [node('node10', 5, 10), node('node9', 30, 9), node('node0', 0, 0), node('node2', null, null)];
  const prepared = prepareNodes(nodes, new Set(['node9']));

  it('sorts names as numbers (node9 before node10), either way', () => {
    expect(ids(nodeRows(prepared, '', { key: 'node', desc: false }))).toEqual(['node0', 'node2', 'node9', 'node10']);
    expect(ids(nodeRows(prepared, '', { key: 'node', desc: true }))).toEqual(['node10', 'node9', 'node2', 'node0']);
  });

  it('sorts by lag with nodes without a launch time last in both directions', () => {
    expect(ids(nodeRows(prepared, '', { key: 'lag', desc: true }))).toEqual(['node9', 'node10', 'node0', 'node2']);
    expect(ids(nodeRows(prepared, '', { key: 'lag', desc: false }))).toEqual(['node0', 'node10', 'node9', 'node2']);
    expect(ids(nodeRows(prepared, '', { key: 'rank', desc: false }))).toEqual(['node0', 'node9', 'node10', 'node2']);
  });

  it('keeps the job order without a sort, and filters on every word', () => {
    expect(ids(nodeRows(prepared, '', null))).toEqual(['node10', 'node9', 'node0', 'node2']);
    expect(ids(nodeRows(prepared, 'late', null))).toEqual(['node9']);
    expect(ids(nodeRows(prepared, 'HOST', null))).toEqual(['node0']);
    expect(ids(nodeRows(prepared, 'logs/node1', null))).toEqual(['node10']);
    expect(ids(nodeRows(prepared, 'rank 9', null))).toEqual(['node9']);
  });
});
