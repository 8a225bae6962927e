// Every domain's messages, merged into one catalogue per language. A domain is one pair of files,
// `en/<domain>.ts` (the keys, as const) and `zh/<domain>.ts` (typed Messages<typeof en>); add a new one here.
import { ui as enUi } from './en/ui';
import { ui as zhUi } from './zh/ui';
import { views as enViews } from './en/views';
import { views as zhViews } from './zh/views';
import type { Lang, Messages } from './types';

/** Each domain's catalogues by language (the unit tests check keys and placeholders per domain). */
export const DOMAINS = {
  ui: { en: enUi, zh: zhUi },
  views: { en: enViews, zh: zhViews },
} as const;

const en = { ...enUi, ...enViews } as const;

export type Catalogue = typeof en;
export type Key = keyof Catalogue;

const zh: Messages<Catalogue> = { ...zhUi, ...zhViews };

export const CATALOGUES: Record<Lang, Messages<Catalogue>> = { en, zh };
export const EN: Catalogue = en;
