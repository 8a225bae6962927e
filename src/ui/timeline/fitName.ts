// Node names shortened in the middle, as trace viewers do: `trainjob-worker-12` and `trainjob-worker-13` stay
// apart as `trainj…orker-12` and `trainj…orker-13`, where cutting the end would make both `trainjob-wo…`.

/**
 * One canvas context per font: setting a context's font parses it again, which costs more than measuring, and
 * the rows measure in two fonts by turns.
 */
const contexts = new Map<string, CanvasRenderingContext2D | null>();
const cache = new Map<string, string>();
const widths = new Map<string, number>();
const FALLBACK_CHAR_PX = 7.4;
/** Short texts repeat (lag labels, tags): their widths are kept, up to this many. */
const MAX_WIDTHS = 20_000;
const CACHED_CHARS = 24;

function context(font: string): CanvasRenderingContext2D | null {
  let c = contexts.get(font);
  if (c === undefined) {
    try {
      c = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    } catch {
      c = null;
    }
    if (c) c.font = font;
    contexts.set(font, c);
  }
  return c;
}

/** The width of `text` in `font`, px (an estimate where the page cannot measure). */
export function measure(text: string, font: string): number {
  const c = context(font);
  if (!c) return text.length * FALLBACK_CHAR_PX;
  const key = text.length <= CACHED_CHARS ? `${font}|${text}` : null;
  const known = key === null ? undefined : widths.get(key);
  if (known !== undefined) return known;
  const w = c.measureText(text).width;
  if (key !== null) {
    if (widths.size >= MAX_WIDTHS) widths.clear();
    widths.set(key, w);
  }
  return w;
}

/** `name` if it fits in `px`, else its start and end around an ellipsis, as long as will fit. */
export function fitName(name: string, px: number, font: string): string {
  const key = `${font}|${Math.round(px)}|${name}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let out = name;
  if (measure(name, font) > px) {
    // Keep a little more of the end: the distinguishing part of node names is usually their number.
    let lo = 1;
    let hi = name.length - 1;
    out = `${name[0]}…`;
    while (lo <= hi) {
      const keep = (lo + hi) >> 1;
      const tail = Math.ceil(keep * 0.55);
      const candidate = `${name.slice(0, keep - tail)}…${name.slice(name.length - tail)}`;
      if (measure(candidate, font) <= px) {
        out = candidate;
        lo = keep + 1;
      } else hi = keep - 1;
    }
  }
  if (cache.size > 5000) cache.clear();
  cache.set(key, out);
  return out;
}
