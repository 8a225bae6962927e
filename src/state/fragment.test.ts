import { describe, expect, it } from 'vitest';
import { readViewFragment, viewFragment } from './fragment';

describe('the view in the address bar', () => {
  it('round-trips the language, the node and the zoom', () => {
    const hash = viewFragment({ lang: 'zh', node: 'trainjob-worker-1', zoom: [-1.5, 48.1234567] });
    expect(hash).toBe('#lang=zh&node=trainjob-worker-1&t=-1.5,48.123');
    expect(readViewFragment(hash)).toEqual({ lang: 'zh', node: 'trainjob-worker-1', zoom: [-1.5, 48.123] });
  });

  it('leaves share links alone and ignores what it cannot read', () => {
    expect(readViewFragment('#share=1.abc&lang=zh')).toEqual({ lang: null, node: null, zoom: null });
    expect(readViewFragment('#lang=fr&t=9,3')).toEqual({ lang: null, node: null, zoom: null });
    expect(readViewFragment('')).toEqual({ lang: null, node: null, zoom: null });
    expect(viewFragment({ lang: null, node: null, zoom: null })).toBe('');
  });

  it('keeps node names with any characters', () => {
    const hash = viewFragment({ lang: 'en', node: 'gpu host #3&4', zoom: null });
    expect(readViewFragment(hash).node).toBe('gpu host #3&4');
  });
});
