// Text that went through a typographer (Discourse and Markdown renderers outside code blocks, word processors,
// chat apps) has its quotes curled: `File “/opt/app/train.py”, line 12` for `File "/opt/app/train.py", line 12`.
// The scanner maps curled quotes back to ASCII before a line is read (scan/clean.ts), but it finds the lines
// worth reading by searching the raw bytes for the anchors, so an anchor with a quote in it is also searched
// in the form a typographer gives it: a quote after the start, a blank or an opening bracket opens, any other
// closes (as SmartyPants decides).

const OPENS_AFTER = /[\s([{]/;

function curled(anchor: string): string {
  let out = '';
  for (let i = 0; i < anchor.length; i++) {
    const c = anchor[i]!;
    if (c !== "'" && c !== '"') {
      out += c;
      continue;
    }
    const prev = anchor[i - 1];
    const next = anchor[i + 1];
    const opens =
      (prev === undefined && next !== undefined && next !== ' ') || (prev !== undefined && OPENS_AFTER.test(prev));
    if (c === "'") out += opens ? '\u2018' : '\u2019';
    else out += opens ? '\u201c' : '\u201d';
  }
  return out;
}

/** The anchors, each followed by its curled form when it holds a quote. */
export function withCurledQuotes(anchors: string[]): string[] {
  const out: string[] = [];
  for (const a of anchors) {
    out.push(a);
    if (a.includes("'") || a.includes('"')) out.push(curled(a));
  }
  return out;
}
