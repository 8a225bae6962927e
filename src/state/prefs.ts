// Preferences kept in this browser (localStorage): the language, the theme and the address share links use.
// Storage can be unavailable (private modes, a sandboxed frame) or full: every read falls back, every write
// may fail silently, and nothing else depends on it.
import { create } from 'zustand';
import type { Lang } from '../i18n/index';

export type Theme = 'system' | 'light' | 'dark';

const KEY = {
  lang: 'skewscope.lang',
  theme: 'skewscope.theme',
  shareBase: 'skewscope.shareBase',
} as const;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readItem(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: string | null): void {
  try {
    const s = storage();
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // Full or forbidden: the preference lasts for this page only.
  }
}

const isLang = (v: unknown): v is Lang => v === 'en' || v === 'zh';
const isTheme = (v: unknown): v is Theme => v === 'system' || v === 'light' || v === 'dark';

export function storedLang(): Lang | null {
  const v = readItem(KEY.lang);
  return isLang(v) ? v : null;
}

export function storeLang(lang: Lang): void {
  writeItem(KEY.lang, lang);
}

export function storedShareBase(): string | null {
  const v = readItem(KEY.shareBase)?.trim();
  return v ? v : null;
}

export function storeShareBase(base: string | null): void {
  writeItem(KEY.shareBase, base && base.trim() ? base.trim() : null);
}

export interface PrefsState {
  theme: Theme;
  setTheme(theme: Theme): void;
}

export const usePrefsStore = create<PrefsState>()((set) => {
  const stored = readItem(KEY.theme);
  return {
    theme: isTheme(stored) ? stored : 'system',
    setTheme: (theme) => {
      writeItem(KEY.theme, theme === 'system' ? null : theme);
      set({ theme });
    },
  };
});

export { isLang };
