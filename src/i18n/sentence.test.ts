import { describe, expect, it } from 'vitest';
import { english, isSentenceKey, saidOf, sentence, SentenceError, sentenceText } from './sentence';

describe('sentences', () => {
  it('are worded in each language, sentences inside them too, numbers with the language’s grouping', () => {
    const tar = sentence('tar.endsInMember', { member: 'node1.log', done: '512', size: '11377' });
    const s = sentence('archive.notAnalysed', { what: sentence('archive.damaged', { archive: 'job.tar', what: tar }) });
    expect(sentenceText('en', s)).toBe(
      'Not analysed: job.tar is damaged: the archive ends in the middle of node1.log (512 of 11377 bytes).',
    );
    expect(sentenceText('zh', s)).toBe(
      '未分析：job.tar 已损坏：归档在 node1.log 的中间就结束了（11377 字节中只有 512 字节）。',
    );
    expect(sentenceText('en', sentence('file.noTorch', { file: 'a.log', lines: 12345 }))).toBe(
      'a.log holds no torchrun or torch.distributed lines (12,345 lines read)',
    );
  });

  it('words that exist only in English stay as they are', () => {
    expect(sentenceText('zh', english('Launch time derived from a wait.'))).toBe('Launch time derived from a wait.');
  });

  it('travel as plain data and know their keys', () => {
    const s = sentence('file.empty', { file: 'x.log' });
    expect(structuredClone(s)).toEqual(s);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(isSentenceKey('file.empty')).toBe(true);
    expect(isSentenceKey('toString')).toBe(false);
    expect(isSentenceKey(undefined)).toBe(false);
  });

  it('a sentence nested past any real depth is not followed (untrusted input)', () => {
    let s = sentence('file.empty', { file: 'x' });
    for (let i = 0; i < 50; i++) s = sentence('said.end', { what: s });
    expect(sentenceText('en', s)).toBe('.'.repeat(5));
  });

  it('an error says its sentence, in English as its message; other errors are their own words', () => {
    const e = new SentenceError(sentence('lines.memberMissing', { member: 'a.log', archive: 'b.zip' }));
    expect(e.message).toBe('a.log was not found in b.zip');
    expect(saidOf(e)).toBe(e.sentence);
    expect(saidOf(new TypeError('x is undefined'))).toBe('x is undefined');
    expect(saidOf('boom')).toBe('boom');
  });
});
