import { describe, expect, it } from 'vitest';
import { DOMAINS } from './catalogue';
import {
  formatBytes,
  formatDuration,
  formatOffset,
  formatSeconds,
  LANGS,
  listSome,
  listText,
  placeholders,
  t,
} from './index';

const TAGS = /<\/?(b|c|k|em)>/g;

describe('the message catalogues', () => {
  for (const [domain, byLang] of Object.entries(DOMAINS)) {
    const en = byLang.en as Record<string, string>;
    for (const lang of LANGS) {
      const other = byLang[lang] as Record<string, string>;
      it(`${domain}: ${lang} has every key of en and no other`, () => {
        expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
      });
      it(`${domain}: ${lang} uses the same placeholders and markup as en`, () => {
        const wrong = Object.keys(en).filter((key) => {
          const a = placeholders(en[key]!).sort().join(',');
          const b = placeholders(other[key]!).sort().join(',');
          const ta = (en[key]!.match(TAGS) ?? []).sort().join('');
          const tb = (other[key]!.match(TAGS) ?? []).sort().join('');
          return a !== b || ta !== tb;
        });
        expect(wrong).toEqual([]);
      });
      it(`${domain}: ${lang} has no empty message`, () => {
        expect(Object.entries(other).filter(([, v]) => v.trim() === '')).toEqual([]);
      });
    }
  }

  it('domains do not share keys (they are merged into one catalogue)', () => {
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const [domain, byLang] of Object.entries(DOMAINS))
      for (const key of Object.keys(byLang.en)) {
        if (seen.has(key)) clashes.push(`${key}: ${seen.get(key)} and ${domain}`);
        seen.set(key, domain);
      }
    expect(clashes).toEqual([]);
  });

  for (const [domain, byLang] of Object.entries(DOMAINS))
    it(`${domain}: Chinese messages do not fall back to English sentences`, () => {
      const en = byLang.en as Record<string, string>;
      const zh = byLang.zh as Record<string, string>;
      // Identical text is fine for identifiers and formats (`{n}`, `JSON`, `join_timeout`), never for a sentence.
      const same = Object.keys(en).filter(
        (k) => en[k] === zh[k] && /[a-z]{3,} [a-z]{3,}/i.test(en[k]!.replace(/\{\w+\}/g, '')),
      );
      expect(same).toEqual([]);
    });
});

describe('t()', () => {
  it('fills placeholders, numbers with the language’s grouping', () => {
    expect(t('en', 'timeline.countOf', { shown: 35, total: 1024 })).toBe('35 of 1,024 nodes');
    expect(t('zh', 'timeline.countOf', { shown: 35, total: 1024 })).toBe('1,024 个节点中的 35 个');
    expect(t('en', 'viewer.line', { n: '1024' })).toBe('line 1024');
  });

  it('gives the message itself when it has no placeholders', () => {
    expect(t('en', 'advice.copy')).toBe('Copy');
    expect(t('zh', 'advice.copy')).toBe('复制');
  });
});

describe('formatting', () => {
  it('writes durations with the language’s units', () => {
    expect(formatSeconds('en', 45.077)).toBe('45.1 s');
    expect(formatSeconds('zh', 45.077)).toBe('45.1 秒');
    expect(formatSeconds('en', 345)).toBe('5 min 45 s');
    expect(formatSeconds('zh', 345)).toBe('5 分 45 秒');
    expect(formatDuration('en', 0.12)).toBe('120 ms');
    expect(formatDuration('en', 0)).toBe('0 s');
    expect(formatDuration('zh', 0)).toBe('0 秒');
    expect(formatDuration('zh', 0.12)).toBe('120 毫秒');
    expect(formatOffset('en', 300)).toBe('+5 min');
    expect(formatOffset('zh', -6)).toBe('−6 秒');
  });

  it('writes true sizes', () => {
    expect(formatBytes('en', 0)).toBe('0 B');
    expect(formatBytes('en', 40 * 1024 + 200)).toBe('40 KiB');
    expect(formatBytes('en', 1536)).toBe('1.5 KiB');
  });

  it('joins lists the way each language does', () => {
    expect(listText('en', ['node0', 'node1', 'node2'])).toBe('node0, node1 and node2');
    expect(listText('zh', ['node0', 'node1', 'node2'])).toBe('node0、node1 和 node2');
    expect(listSome('en', ['a', 'b', 'c', 'd', 'e', 'f'], 4)).toBe('a, b, c and 3 more');
    // A list cut to its first few by the analysis counts the rest it does not carry.
    expect(listSome('en', ['node4', 'node5'], 8, 4000)).toBe('node4, node5 and 3,998 more');
    expect(listSome('zh', ['a', 'b'], 8, 2)).toBe('a 和 b');
  });
});
