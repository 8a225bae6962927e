// PNG exports drawn on a <canvas> in the page (no screenshot, no network): the timeline from buildTimeline's
// model, and the skew chart from Recharts' own SVG with its computed colours written into it.
import type { PhaseKind, TimelineModel } from '../../core/timeline';
import { formatLimit, formatOffset } from '../../i18n/index';
import { WordedError, type T } from '../i18n';
import { limitLabel } from '../timeline/labels';

const PHASE_COLOUR: Record<PhaseKind, string> = {
  'pre-launch': '#adb5bd',
  rendezvous: '#4c6ef5',
  'rank-assignment': '#9c36b5',
  'workers-starting': '#1098ad',
  running: '#2b8a3e',
  workers: '#37b24d',
  finishing: '#868e96',
};
const LINE_COLOUR = { limit: '#c92a2a', recommended: '#2b8a3e', reference: '#868e96' } as const;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

const WIDTH = 1200;
const NAME_W = 200;
const RIGHT = 30;
const TOP = 80;
const AXIS_H = 34;
const MAX_HEIGHT = 16000;

/** The timeline model drawn as an image: one row per node, phase bars, failure markers, the limits as lines. */
export function drawTimeline(model: TimelineModel, t: T): HTMLCanvasElement {
  const title = t('png.title');
  const rows = model.rows;
  const rowH = Math.max(4, Math.min(26, Math.floor((MAX_HEIGHT - TOP - AXIS_H - 80) / Math.max(1, rows.length))));
  const height = TOP + rows.length * rowH + AXIS_H + 70;
  const scale = rows.length > 200 ? 1 : 2;
  const canvas = document.createElement('canvas');
  canvas.width = WIDTH * scale;
  canvas.height = height * scale;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new WordedError(t('png.noCanvas'));
  ctx.scale(scale, scale);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, WIDTH, height);
  ctx.fillStyle = '#1a1d23';
  ctx.font = `600 16px ${FONT}`;
  ctx.textBaseline = 'middle';
  ctx.fillText(title, 16, 22);
  ctx.font = `12px ${FONT}`;
  ctx.fillStyle = '#5d6673';
  const clock =
    model.originMs === null ? '' : `${new Date(model.originMs).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
  const originText =
    model.originMs === null
      ? t('png.noTime')
      : model.originWhat === 'launch'
        ? t('png.originLaunch', { node: model.originNode ?? t('skew.firstNode'), clock })
        : t('png.originFirst', { node: model.originNode ?? t('skew.firstNode'), clock });
  ctx.fillText(originText, 16, 44);

  const origin = model.originMs ?? 0;
  const plotW = WIDTH - NAME_W - RIGHT;
  let start = model.startMs ?? origin;
  let end = model.endMs ?? origin + 60_000;
  // Limits close to the job's extent are worth showing; a 1800 s mark on a 40 s job would squash it.
  const span0 = Math.max(1000, end - start);
  const lines = model.thresholds.filter((l) => l.anchor === 'job' && l.atMs !== null);
  const shown = lines.filter((l) => l.atMs! <= end + span0 * 1.5 && l.atMs! >= start - span0 * 0.5);
  for (const l of shown) {
    start = Math.min(start, l.atMs!);
    end = Math.max(end, l.atMs!);
  }
  const pad = (end - start) * 0.03 || 1000;
  start -= pad;
  end += pad;
  const x = (ms: number) => NAME_W + ((ms - start) / (end - start)) * plotW;
  const plotTop = TOP;
  const plotBottom = TOP + rows.length * rowH;

  // Rows.
  rows.forEach((row, i) => {
    const y = plotTop + i * rowH;
    if (i % 2 === 1) {
      ctx.fillStyle = '#f5f6f8';
      ctx.fillRect(0, y, WIDTH, rowH);
    }
    if (rowH >= 12) {
      ctx.fillStyle = row.isLate ? '#c92a2a' : '#1a1d23';
      ctx.font = `${row.isLate ? '600 ' : ''}${Math.min(13, rowH - 4)}px ${FONT}`;
      const lag = row.lagSeconds === null ? '' : `  +${formatLimit(t.lang, round(row.lagSeconds))}`;
      ctx.fillText(clip(ctx, `${row.node}${lag}`, NAME_W - 20), 12, y + rowH / 2);
    }
    const barH = Math.max(2, rowH - 8);
    const barY = y + (rowH - barH) / 2;
    if (!row.placed) {
      if (rowH >= 12) {
        ctx.fillStyle = '#9c5b00';
        ctx.font = `italic 12px ${FONT}`;
        ctx.fillText(clip(ctx, t('png.notPlaced'), plotW), NAME_W + 4, y + rowH / 2);
      }
      return;
    }
    for (const p of row.phases) {
      ctx.fillStyle = PHASE_COLOUR[p.kind];
      const x0 = x(p.startMs);
      ctx.fillRect(x0, barY, Math.max(1.5, x(p.endMs) - x0), barH);
    }
    for (const m of row.markers) {
      if (m.kind !== 'failure' && m.kind !== 'error' && m.kind !== 'launch') continue;
      const mx = x(m.atMs);
      const r = Math.max(2, Math.min(6, barH / 2));
      ctx.fillStyle = m.kind === 'launch' ? '#1a1d23' : m.kind === 'failure' ? '#c92a2a' : '#e8590c';
      ctx.beginPath();
      if (m.kind === 'launch') ctx.rect(mx - 1, barY, 2, barH);
      else {
        ctx.moveTo(mx, barY + barH / 2 - r);
        ctx.lineTo(mx + r, barY + barH / 2);
        ctx.lineTo(mx, barY + barH / 2 + r);
        ctx.lineTo(mx - r, barY + barH / 2);
        ctx.closePath();
      }
      ctx.fill();
    }
    for (const tick of row.ticks) {
      if (tick.atMs < start || tick.atMs > end) continue;
      ctx.strokeStyle = '#c92a2a';
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(x(tick.atMs), y + 1);
      ctx.lineTo(x(tick.atMs), y + rowH - 1);
      ctx.stroke();
    }
  });

  // Axis with ticks in seconds from the origin.
  ctx.strokeStyle = '#dde1e7';
  ctx.lineWidth = 1;
  ctx.fillStyle = '#5d6673';
  ctx.font = `11px ${FONT}`;
  ctx.textAlign = 'center';
  const step = niceStep((end - start) / 1000 / 8);
  const first = Math.ceil((start - origin) / 1000 / step) * step;
  for (let s = first; origin + s * 1000 <= end; s += step) {
    const px = x(origin + s * 1000);
    ctx.beginPath();
    ctx.moveTo(px, plotTop);
    ctx.lineTo(px, plotBottom);
    ctx.stroke();
    ctx.fillText(formatOffset(t.lang, s, step), px, plotBottom + 14);
  }
  ctx.textAlign = 'left';

  // The limits as vertical dashed lines, labelled above the plot.
  ctx.setLineDash([6, 4]);
  shown.forEach((line, i) => {
    const px = x(line.atMs!);
    ctx.strokeStyle = LINE_COLOUR[line.kind];
    ctx.lineWidth = line.kind === 'limit' ? 2 : 1;
    ctx.beginPath();
    ctx.moveTo(px, plotTop - 4);
    ctx.lineTo(px, plotBottom);
    ctx.stroke();
    ctx.fillStyle = LINE_COLOUR[line.kind];
    ctx.font = `11px ${FONT}`;
    const label = limitLabel(t, line);
    const w = ctx.measureText(label).width;
    ctx.fillText(label, Math.min(px + 3, WIDTH - w - 4), plotTop - 8 - (i % 2) * 13);
  });
  ctx.setLineDash([]);

  // Legend.
  let lx = 16;
  const ly = plotBottom + AXIS_H + 12;
  ctx.font = `12px ${FONT}`;
  const kinds = new Set(rows.flatMap((r) => (r.placed ? r.phases.map((p) => p.kind) : [])));
  for (const kind of Object.keys(PHASE_COLOUR) as PhaseKind[]) {
    if (!kinds.has(kind)) continue;
    ctx.fillStyle = PHASE_COLOUR[kind];
    ctx.fillRect(lx, ly - 5, 14, 10);
    ctx.fillStyle = '#1a1d23';
    const name = t(`phase.${kind}`);
    ctx.fillText(name, lx + 18, ly);
    lx += 26 + ctx.measureText(name).width;
  }
  ctx.fillStyle = '#c92a2a';
  ctx.fillText(`◆ ${t('marker.failure')}`, lx, ly);
  const hidden = lines.filter((l) => !shown.includes(l));
  if (hidden.length > 0) {
    ctx.fillStyle = '#5d6673';
    ctx.fillText(t('png.beyond', { lines: hidden.map((l) => limitLabel(t, l)).join(t('list.sep')) }), 16, ly + 22);
  }
  return canvas;
}

/** Recharts' SVG as a PNG: the colours and fonts the page's CSS gives it are written into a copy first. */
export async function drawSvg(svg: SVGSVGElement, background: string, t: T): Promise<HTMLCanvasElement> {
  const box = svg.getBoundingClientRect();
  const width = Math.max(1, Math.round(box.width));
  const height = Math.max(1, Math.round(box.height));
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...svg.querySelectorAll('*')];
  const to = [copy, ...copy.querySelectorAll('*')];
  const props = [
    'fill',
    'fill-opacity',
    'stroke',
    'stroke-width',
    'stroke-dasharray',
    'stroke-opacity',
    'opacity',
    'font-family',
    'font-size',
    'font-weight',
    'text-anchor',
    'dominant-baseline',
    'visibility',
  ];
  from.forEach((el, i) => {
    const target = to[i];
    if (!target) return;
    const style = getComputedStyle(el);
    for (const p of props) {
      const value = style.getPropertyValue(p);
      if (value) target.setAttribute(p, value);
    }
    if (style.display === 'none') target.setAttribute('display', 'none');
    target.removeAttribute('class');
  });
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  const text = new XMLSerializer().serializeToString(copy);
  // A data: URL: the page's Content-Security-Policy allows images from 'self' and data: only.
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  await image.decode();
  const scale = 2;
  const canvas = document.createElement('canvas');
  canvas.width = width * scale;
  canvas.height = height * scale;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new WordedError(t('png.noCanvas'));
  ctx.scale(scale, scale);
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(image, 0, 0, width, height);
  return canvas;
}

export function canvasPng(canvas: HTMLCanvasElement, t: T): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new WordedError(t('png.encodeFailed')))), 'image/png'),
  );
}

function niceStep(raw: number): number {
  const steps = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];
  return steps.find((s) => s >= raw) ?? Math.ceil(raw / 3600) * 3600;
}

const round = (s: number) => Math.round(s * 10) / 10;

function clip(ctx: CanvasRenderingContext2D, text: string, max: number): string {
  if (ctx.measureText(text).width <= max) return text;
  let t = text;
  while (t.length > 1 && ctx.measureText(`${t}…`).width > max) t = t.slice(0, -1);
  return `${t}…`;
}
