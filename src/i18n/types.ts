// The shape every message catalogue shares. English defines the keys; every other language is typed
// `Messages<typeof en>`, so a key missing from (or added only to) a translation fails the type check.

export type Lang = 'en' | 'zh';

export const LANGS: readonly Lang[] = ['en', 'zh'];

/** The tag `<html lang>` and `Intl` use for each language. */
export const LANG_TAG: Record<Lang, string> = { en: 'en', zh: 'zh-CN' };

/** The same keys as the English catalogue `T`, each any string. */
export type Messages<T> = { readonly [K in keyof T]: string };

/** The `{name}` placeholders of a message, as a union of their names. */
export type Params<S> = S extends `${string}{${infer P}}${infer Rest}` ? P | Params<Rest> : never;

/** What a placeholder takes: text as is, or a number (formatted for the language). */
export type Value = string | number;
