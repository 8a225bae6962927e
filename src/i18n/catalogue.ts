// Every domain's messages, merged into one catalogue per language. A domain is one pair of files,
// `en/<domain>.ts` (the keys, as const) and `zh/<domain>.ts` (typed Messages<typeof en>); add a new one here.
import { ui as enUi } from './en/ui';
import { ui as zhUi } from './zh/ui';
import { views as enViews } from './en/views';
import { views as zhViews } from './zh/views';
import { core as enCore } from './en/core';
import { core as zhCore } from './zh/core';
import type { Lang, Messages } from './types';

/** Each domain's catalogues by language (the unit tests check keys and placeholders per domain). */
export const DOMAINS = {
  ui: { en: enUi, zh: zhUi },
  views: { en: enViews, zh: zhViews },
  core: { en: enCore, zh: zhCore },
} as const;

const en = { ...enUi, ...enViews, ...enCore } as const;

export type Catalogue = typeof en;
export type Key = keyof Catalogue;

const zh: Messages<Catalogue> = { ...zhUi, ...zhViews, ...zhCore };

export const CATALOGUES: Record<Lang, Messages<Catalogue>> = { en, zh };
export const EN: Catalogue = en;
