// The address share links open: where teammates reach this team's skewscope. The user's own choice
// (remembered in this browser) wins; else the address baked in at build time (VITE_SHARE_BASE); else this
// page's own address. A loopback or file address only works on the sender's machine, which the dialog says.
import { storedShareBase } from './prefs';

/** The team's address, set when the dashboard was built (`VITE_SHARE_BASE=https://… npm run build`). */
export const BUILD_SHARE_BASE: string | null = (import.meta.env?.VITE_SHARE_BASE as string | undefined)?.trim() || null;

export type BaseCheck = { ok: true; base: string } | { ok: false; reason: 'empty' | 'not-a-url' | 'scheme' };

/** A typed address as a link base: an http(s) URL, without any `#…` or `?…` (a base path is kept). */
export function checkShareBase(input: string): BaseCheck {
  const text = input.trim();
  if (!text) return { ok: false, reason: 'empty' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'not-a-url' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'scheme' };
  url.hash = '';
  url.search = '';
  return { ok: true, base: url.href };
}

/** True for addresses only the sender's own machine can open. */
export function isLocalOnly(base: string): boolean {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return false;
  }
  if (url.protocol === 'file:') return true;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    host === '0.0.0.0' ||
    /^127(?:\.\d{1,3}){3}$/.test(host)
  );
}

export type BaseSource = 'yours' | 'build' | 'page';

/** The address links use now, and where it came from. */
export function currentShareBase(page: string): { base: string; source: BaseSource } {
  const stored = storedShareBase();
  if (stored && checkShareBase(stored).ok) return { base: stored, source: 'yours' };
  if (BUILD_SHARE_BASE && checkShareBase(BUILD_SHARE_BASE).ok) return { base: BUILD_SHARE_BASE, source: 'build' };
  return { base: page, source: 'page' };
}
