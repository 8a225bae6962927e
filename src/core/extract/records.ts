// Structured error records inside logs. torchelastic's error handler logs the child's error file as
// pretty-printed JSON over many lines (`"message": "ExcType: text"`, `"py_callstack": "Traceback …\n  File …"`),
// and JSON-ish reports quote whole tracebacks with `\n` escapes on one line; pastes often cut them mid-token.
// Both are read back into the lines they hold, so the catalogue sees the exception and the frames.

/** `"message": "RendezvousConnectionError: …"` (the closing quote may be cut off). */
const MESSAGE_FIELD = /^\s*"message"\s*:\s*"(?<v>(?:[^"\\]|\\.){0,20000})"?,?\s*$/;
const EXCEPTION_LIKE = /^(?:[\w.]{1,200}\.)?\w{1,100}(?:Error|Exception|Interrupt|Exit)\b/;

/** JSON string escapes, read leniently (a cut escape is dropped). */
export function unescapeJson(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, c: string) => {
    if (c.length === 5) return String.fromCharCode(parseInt(c.slice(1), 16));
    switch (c) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '';
      default:
        return c;
    }
  });
}

/** The lines a line quotes: an escaped traceback, or an error record's exception message; null for neither. */
export function quotedLines(text: string): string[] | null {
  const msg = text.includes('"message"') ? MESSAGE_FIELD.exec(text) : null;
  if (msg) {
    const v = unescapeJson(msg.groups!.v!);
    return EXCEPTION_LIKE.test(v) ? v.split('\n').filter((t) => t.trim() !== '') : null;
  }
  if (!text.includes('\\n') || !(text.includes('Traceback') || text.includes('File \\"'))) return null;
  const start = text.indexOf('Traceback');
  const found = start >= 0 ? start : text.indexOf('File \\"');
  // A report quoting a traceback begins with its own words (`{"error": "Traceback…`); output whose newlines were
  // all escaped (a CI log collapsed to one line) has lines before its first Traceback too, and they count.
  const from = found > 0 && text.slice(0, found).includes('\\n') ? 0 : found;
  return unescapeJson(text.slice(Math.max(0, from)))
    .split('\n')
    .map(dropClosingQuote)
    .filter((t) => t.trim() !== '');
}

/** The JSON string's closing `",` left at the end of the last quoted line. */
function dropClosingQuote(t: string): string {
  const s = t.trimEnd();
  if (s.endsWith('",')) return s.slice(0, -2);
  return s.endsWith('"') ? s.slice(0, -1) : s;
}
