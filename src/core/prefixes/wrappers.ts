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
