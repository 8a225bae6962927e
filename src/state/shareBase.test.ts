import { afterEach, describe, expect, it, vi } from 'vitest';

// Which address share links open: the user's own (remembered), else the build's VITE_SHARE_BASE, else the page's.

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, String(v)),
  };
}

async function load(buildBase: string | undefined) {
  vi.resetModules();
  vi.stubEnv('VITE_SHARE_BASE', buildBase ?? '');
  vi.stubGlobal('localStorage', memoryStorage());
  const base = await import('./shareBase');
  const prefs = await import('./prefs');
  return { ...base, ...prefs };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

const PAGE = 'http://127.0.0.1:4173/';

describe('the share address', () => {
  it('is the page’s own address when nothing else is set', async () => {
    const { currentShareBase, BUILD_SHARE_BASE } = await load(undefined);
    expect(BUILD_SHARE_BASE).toBeNull();
    expect(currentShareBase(PAGE)).toEqual({ base: PAGE, source: 'page' });
  });

  it('is the address baked in at build time, over the page’s', async () => {
    const { currentShareBase } = await load('https://tools.example.com/skewscope/');
    expect(currentShareBase(PAGE)).toEqual({ base: 'https://tools.example.com/skewscope/', source: 'build' });
  });

  it('is the user’s own, once they set one, over the build’s; forgetting it goes back', async () => {
    const { currentShareBase, storeShareBase } = await load('https://tools.example.com/skewscope/');
    storeShareBase('https://gpu-team.example.org/tools/skewscope/');
    expect(currentShareBase(PAGE)).toEqual({ base: 'https://gpu-team.example.org/tools/skewscope/', source: 'yours' });
    storeShareBase(null);
    expect(currentShareBase(PAGE).source).toBe('build');
  });

  it('checks what is typed: an http(s) URL, fragment and query dropped, the base path kept', async () => {
    const { checkShareBase } = await load(undefined);
    expect(checkShareBase(' https://h.example/a/b/?x=1#share=1.abc ')).toEqual({
      ok: true,
      base: 'https://h.example/a/b/',
    });
    expect(checkShareBase('')).toEqual({ ok: false, reason: 'empty' });
    expect(checkShareBase('tools/skewscope')).toEqual({ ok: false, reason: 'not-a-url' });
    expect(checkShareBase('ftp://h.example/')).toEqual({ ok: false, reason: 'scheme' });
  });

  it('knows which addresses only the sender’s machine opens', async () => {
    const { isLocalOnly } = await load(undefined);
    for (const local of [
      'http://127.0.0.1:4173/',
      'http://localhost/',
      'http://[::1]:8080/',
      'http://app.localhost/',
      'file:///tmp/index.html',
      'http://0.0.0.0/',
    ])
      expect(isLocalOnly(local)).toBe(true);
    for (const shared of ['https://tools.example.com/skewscope/', 'http://10.0.0.5:8080/', 'http://gpu-login01/'])
      expect(isLocalOnly(shared)).toBe(false);
  });
});
