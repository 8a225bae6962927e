// Node names shortened in the middle, as trace viewers do: `trainjob-worker-12` and `trainjob-worker-13` stay
// apart as `trainj…orker-12` and `trainj…orker-13`, where cutting the end would make both `trainjob-wo…`.

let ctx: CanvasRenderingContext2D | null | undefined;
const cache = new Map<string, string>();
const FALLBACK_CHAR_PX = 7.4;

/** The width of `text` in `font`, px (an estimate where the page cannot measure). */
export function measure(text: string, font: string): number {
  if (ctx === undefined) {
    try {
      ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    } catch {
      ctx = null;
    }
  }
  if (!ctx) return text.length * FALLBACK_CHAR_PX;
  ctx.font = font;
  return ctx.measureText(text).width;
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
