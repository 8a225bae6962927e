// One i18n layer for every view: typed message catalogues per language (src/i18n/<lang>/<domain>.ts), `t(lang,
// key, values)` with {placeholders}, and the language's way of writing numbers, durations and lists. Pure
// TypeScript: no DOM, usable in workers, the CLI and tests.
export { LANGS, LANG_TAG } from './types';
export type { Lang, Messages, Params, Value } from './types';
export type { Catalogue, Key } from './catalogue';
export { DOMAINS } from './catalogue';
export { fill, placeholders, t } from './translate';
export { english, isEnglishOnly, isSentenceKey, saidOf, sentence, SentenceError, sentenceText } from './sentence';
export type { Sentence, SentenceKey, SentenceValue } from './sentence';
export type { ValuesOf } from './translate';
export {
  formatBytes,
  formatDuration,
  formatHours,
  formatLimit,
  formatNumber,
  formatOffset,
  formatSeconds,
  listSome,
  listText,
} from './format';
