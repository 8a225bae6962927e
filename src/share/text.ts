// Plain-text hygiene for everything that goes into (or comes out of) a share link: no control characters, no
// bidirectional overrides (they can make a line read differently from what it holds), bounded lengths.

/** ANSI colour/cursor sequences some loggers leave in lines. */
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
/** C0/C1 controls (tab and newlines are turned into spaces first), and the bidi embedding/isolate marks. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const HAS_CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** One line of plain text: controls removed, whitespace runs kept as they were printed. */
export function clean(text: string): string {
  return text
    .replace(ANSI, '')
    .replace(/[\t\r\n]/g, ' ')
    .replace(CONTROL, '');
}

/** Cut to `max` characters (the cut marked with …), never splitting a surrogate pair. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end) + '…';
}

export const cleanCut = (text: string, max: number): string => cut(clean(text), max);

export function hasControl(text: string): boolean {
  return HAS_CONTROL.test(text);
}
