// Wrappers learned per file. A paste may put any label before PyTorch's lines (a job runner's, a notebook
// cell's, a chat client's); once a line shows one in front of a known format, the same shape is stripped from
// that file's other lines — the continuation lines (launch-config fields, result blocks, traceback frames)
// that carry no format prefix of their own.

/** Shapes kept per file; a paste rarely has more than two or three. */
const MAX_SHAPES = 8;
/** Labels kept per file (a torchx app's replicas, a collector's hosts): one per node in the file. */
const MAX_LABELS = 4096;
/** A wrapper this long is probably message text, not a label. */
const MAX_WRAPPER_CHARS = 120;
/**
 * A line number in front: right-aligned digits, then `. ` (a paste site), a tab (`cat -n`, `nl`) or ` | `. Not
 * `N: `, which is Slurm's task label (tasks 0, 1, 2 on lines 1, 2, 3 would read as numbers), nor a bare blank.
 */
const LINE_NUMBER = /^ {0,8}(\d{1,7})(\. |\t| \| )/;
/** Lines of the head in which numbering is learned, and the lines that must agree. */
const NUMBERING_HEAD = 200;
const NUMBERING_VOTES = 3;

/** `trainer-7 | 2025-03-01 10:00:01 | ` → a regex where digit runs vary: `^trainer-\d+ \| \d+-\d+-\d+ …`. */
export function shapeOf(wrapper: string): string | null {
  if (wrapper.length === 0 || wrapper.length > MAX_WRAPPER_CHARS || wrapper.trim() === '') return null;
  const escaped = wrapper.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/\d+/g, '\\d{1,20}');
  return `^${escaped}`;
}

export class WrapperMemory {
  private readonly shapes: { src: string; re: RegExp }[] = [];

  learn(wrapper: string): void {
    if (this.shapes.length >= MAX_SHAPES) return;
    const src = shapeOf(wrapper);
    if (src === null || this.shapes.some((s) => s.src === src)) return;
    this.shapes.push({ src, re: new RegExp(src) });
  }

  /** The length of a learned wrapper at the start of `text`, or 0. */
  match(text: string): number {
    for (const s of this.shapes) {
      const m = s.re.exec(text);
      if (m) return m[0].length;
    }
    return 0;
  }

  get size(): number {
    return this.shapes.length;
  }

  /**
   * The indentation a paste put before every line (a Markdown code block indented by four spaces, a quoted
   * block in an issue form): learned from the first line whose known prefix stands behind it, then removed
   * from every line that has it, so labels and formats that only count at a line's start are read again.
   */
  indent = '';
  /** Indented lines with nothing known at their start looked at so far (learning stops after a few). */
  indentTries = 0;

  dedent(line: string): string {
    return this.indent !== '' && line.startsWith(this.indent) ? line.slice(this.indent.length) : line;
  }

  /**
   * A line number a viewer or `cat -n` put before every line (`  12. `, `    12\t`, `12 | `): learned once three
   * lines of the head carry a number that is their own line number plus one same offset, with one separator;
   * then removed wherever it is the line's own number, so labels and block fields count at the line's start
   * (the two lines it was learned from keep theirs: a launch command, a banner).
   */
  private numbering: { offset: number; sep: string } | null = null;
  private numberVotes: { offset: number; sep: string; n: number } | null = null;

  unnumber(text: string, line: number): string {
    const m = LINE_NUMBER.exec(text);
    if (m === null) return text;
    const offset = Number(m[1]) - line;
    const sep = m[2]!;
    const k = this.numbering;
    if (k !== null) return k.offset === offset && k.sep === sep ? text.slice(m[0].length) : text;
    if (line > NUMBERING_HEAD) return text;
    const v = this.numberVotes;
    if (v !== null && v.offset === offset && v.sep === sep) v.n++;
    else this.numberVotes = { offset, sep, n: 1 };
    if (this.numberVotes!.n < NUMBERING_VOTES) return text;
    this.numbering = { offset, sep };
    return text.slice(m[0].length);
  }

  // Labels of known rows seen in this file (outer.ts `continuation`), by row and key: `torchx\ntrainer/0`.
  private readonly labels = new Set<string>();
  private readonly labelRows = new Set<string>();

  seeLabel(row: string, key: string): void {
    if (this.labels.size >= MAX_LABELS) return;
    this.labels.add(`${row}\n${key}`);
    this.labelRows.add(row);
  }

  /** The file showed some label of this row (cheap: asked for every line no row matched). */
  showedRow(row: string): boolean {
    return this.labelRows.size > 0 && this.labelRows.has(row);
  }

  showedLabel(row: string, key: string): boolean {
    return this.labels.has(`${row}\n${key}`);
  }
}
