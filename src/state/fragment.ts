// The analysed view's state in the address bar: `#lang=zh&node=node3&t=12.5,48.25`. Reloading or sending the
// address restores the language, the selected node and the timeline's range. A share link (`#share=…`) is
// left as it is: it carries its own view.
import { isLang } from './prefs';
import type { Lang } from '../i18n/index';
import type { Zoom } from './view';

export interface ViewFragment {
  lang: Lang | null;
  node: string | null;
  zoom: Zoom | null;
}

export const isShareFragment = (hash: string) => /^#(?:.*&)?share=/.test(hash);

const EMPTY: ViewFragment = { lang: null, node: null, zoom: null };

export function readViewFragment(hash: string): ViewFragment {
  if (!hash.startsWith('#') || isShareFragment(hash)) return EMPTY;
  const params = new URLSearchParams(hash.slice(1));
  const lang = params.get('lang');
  const node = params.get('node');
  const range = (params.get('t') ?? '').split(',').map(Number);
  const zoom: Zoom | null =
    range.length === 2 && range.every(Number.isFinite) && range[0]! < range[1]! ? [range[0]!, range[1]!] : null;
  return { lang: isLang(lang) ? lang : null, node: node || null, zoom };
}

const ms = (s: number) => String(Math.round(s * 1000) / 1000);

/** The fragment for a view state; '' when there is nothing to say. */
export function viewFragment(state: ViewFragment): string {
  const params = new URLSearchParams();
  if (state.lang) params.set('lang', state.lang);
  if (state.node) params.set('node', state.node);
  if (state.zoom) params.set('t', `${ms(state.zoom[0])},${ms(state.zoom[1])}`);
  const text = params.toString().replace(/%2C/g, ',');
  return text ? `#${text}` : '';
}
