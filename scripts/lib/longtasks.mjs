// What each long main-thread task was: the measurement scripts (bench-views, bench-digests, responsiveness) can
// record a Chromium trace while they measure (`--trace`), and this reads it back. For every task of the page's
// main thread over the bound it says when it ran, what the browser did in it (script, style, layout, paint,
// garbage collection, receiving a message) and where its JavaScript time went, by the CPU profiler's samples:
// the functions with the most self time and the app's own functions (React components and hooks included, named
// when the build is not minified: `--web-dist` a build made with `vite build --minify false`) with the most
// time under them.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** The trace categories: task boundaries, the timeline's own events, and the V8 sampling profiler. */
export const TRACE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink',
  'v8',
  'disabled-by-default-v8.cpu_profiler',
];

/** Starts a trace of the page's browser (Playwright's Chromium tracing). */
export async function startTrace(browser, page) {
  await browser.startTracing(page, { categories: TRACE_CATEGORIES, screenshots: false });
}

/** Events inside a task the summary names (the rest is folded into their parents). */
const KINDS = new Map([
  ['FunctionCall', 'script'],
  ['EvaluateScript', 'script'],
  ['v8.evaluateModule', 'script'],
  ['TimerFire', 'timer'],
  ['FireAnimationFrame', 'animation frame'],
  ['EventDispatch', 'event'],
  ['HandlePostMessage', 'message'],
  ['v8.deserializeMessage', 'message'],
  ['BlinkScheduler_HandleMessage', 'message'],
  ['UpdateLayoutTree', 'style'],
  ['Layout', 'layout'],
  ['PrePaint', 'pre-paint'],
  ['Paint', 'paint'],
  ['Layerize', 'layerize'],
  ['UpdateLayer', 'layerize'],
  ['HitTest', 'hit test'],
  ['MajorGC', 'gc'],
  ['MinorGC', 'gc'],
  ['V8.GC_SCAVENGER', 'gc'],
  ['V8.GC_MARK_COMPACTOR', 'gc'],
  ['ParseHTML', 'parse'],
  ['v8.compile', 'compile'],
]);

/**
 * Where each line of the built scripts comes from: an unminified build marks every module's start with a
 * `// src/ui/NodeTable.tsx` comment line. By script file name, the modules' first lines in order.
 */
function moduleMaps(webDist) {
  const maps = new Map();
  if (!webDist) return maps;
  const dir = path.join(webDist, 'assets');
  if (!existsSync(dir)) return maps;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.js')) continue;
    const lines = readFileSync(path.join(dir, name), 'utf8').split('\n');
    const starts = [];
    for (let i = 0; i < lines.length; i++) {
      const m = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(lines[i]);
      if (m) starts.push([i, m[1]]);
    }
    maps.set(name, starts);
  }
  return maps;
}

function moduleOf(maps, frame) {
  const starts = maps.get((frame.url ?? '').split('/').pop());
  if (!starts) return null;
  let lo = 0;
  let hi = starts.length - 1;
  let found = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid][0] <= frame.lineNumber) {
      found = starts[mid][1];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Reads a trace (the buffer Playwright's `stopTracing` returns) and describes every task of the page's main
 * thread of `minMs` or more that ends after `fromUs` (a trace timestamp; 0 for all), longest first.
 */
export function longTasksOf(buffer, { minMs = 50, top = 6, webDist = null } = {}) {
  const maps = moduleMaps(webDist);
  // The app's own code: a module under src/ (every script of the page when the build is minified).
  const appOf = (f) => {
    if (!(f.url ?? '').includes('/assets/')) return null;
    const name = f.functionName || `(anonymous):${f.lineNumber + 1}`;
    if (maps.size === 0) return f.functionName ? `${name} ${f.url.split('/').pop()}:${f.lineNumber + 1}` : null;
    const mod = moduleOf(maps, f);
    return mod?.startsWith('src/') ? `${name} (${mod.replace(/^src\//, '')})` : null;
  };
  const trace = JSON.parse(buffer.toString('utf8'));
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  // The page's main thread: the renderer thread named CrRendererMain with the most events.
  const names = new Map();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      names.set(`${e.pid}:${e.tid}`, 0);
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (names.has(key)) names.set(key, names.get(key) + 1);
  }
  const main = [...names.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) return { tasks: [], note: 'no renderer main thread in the trace' };
  const [pid, tid] = main.split(':').map(Number);
  const mine = events.filter((e) => e.pid === pid && e.tid === tid);

  const tasks = mine
    .filter((e) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask'))
    .filter((e) => e.dur >= minMs * 1000)
    .sort((a, b) => a.ts - b.ts);
  // Nested RunTasks (both names for one task) count once.
  const outer = [];
  for (const t of tasks) {
    const last = outer.at(-1);
    if (last && t.ts < last.ts + last.dur) continue;
    outer.push(t);
  }

  // The CPU profile: samples (a node id, a time) of the main thread's profile.
  const nodes = new Map();
  const samples = [];
  const profiles = new Map();
  for (const e of events) {
    if (e.name === 'Profile' && e.pid === pid) profiles.set(e.id, { tid: e.tid, t: e.args.data.startTime });
  }
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.pid !== pid) continue;
    const p = profiles.get(e.id);
    if (!p || (p.tid !== undefined && p.tid !== tid)) continue;
    const data = e.args.data;
    for (const n of data.cpuProfile?.nodes ?? [])
      nodes.set(`${e.id}:${n.id}`, { frame: n.callFrame, parent: n.parent ? `${e.id}:${n.parent}` : null });
    const ids = data.cpuProfile?.samples ?? [];
    const deltas = data.timeDeltas ?? [];
    for (let i = 0; i < ids.length; i++) {
      p.t += deltas[i] ?? 0;
      samples.push([p.t, `${e.id}:${ids[i]}`]);
    }
  }
  samples.sort((a, b) => a[0] - b[0]);
  const stackOf = (id) => {
    const out = [];
    for (let n = nodes.get(id); n; n = n.parent ? nodes.get(n.parent) : null) out.push(n.frame);
    return out;
  };
  const nameOf = (f) => {
    const mod = maps.size ? moduleOf(maps, f) : null;
    const where = mod
      ? ` (${mod.replace(/^src\//, '').replace(/^node_modules\/([^/]+).*/, '$1')})`
      : f.url
        ? ` ${f.url.split('/').pop()}:${(f.lineNumber ?? 0) + 1}`
        : '';
    return `${f.functionName || '(anonymous)'}${where}`;
  };

  const first = mine.reduce((m, e) => (e.ts && e.ts < m ? e.ts : m), Infinity);
  const described = outer.map((t) => {
    const end = t.ts + t.dur;
    const kinds = new Map();
    for (const e of mine) {
      if (e.ph !== 'X' || e.ts < t.ts || e.ts >= end || !KINDS.has(e.name)) continue;
      const k = KINDS.get(e.name);
      kinds.set(k, (kinds.get(k) ?? 0) + e.dur);
    }
    const self = new Map();
    const under = new Map();
    let sampled = 0;
    let prev = null;
    for (const [ts, id] of samples) {
      if (ts < t.ts || ts >= end) continue;
      const dt = prev === null ? 0 : ts - prev;
      prev = ts;
      sampled += dt;
      const stack = stackOf(id);
      if (stack[0]) {
        // A leaf outside the app (a DOM call, React, a library) is named with the app's function that led to it.
        const caller = appOf(stack[0]) ? null : stack.map(appOf).find(Boolean);
        const key = caller ? `${nameOf(stack[0])} ← ${caller}` : nameOf(stack[0]);
        self.set(key, (self.get(key) ?? 0) + dt);
      }
      const seen = new Set();
      for (const f of stack) {
        const n = appOf(f);
        if (!n) continue;
        if (seen.has(n)) continue;
        seen.add(n);
        under.set(n, (under.get(n) ?? 0) + dt);
      }
    }
    const ms = (us) => Math.round(us / 100) / 10;
    const best = (m) =>
      [...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([n, us]) => [n, ms(us)]);
    return {
      atMs: ms(t.ts - first),
      ms: ms(t.dur),
      kinds: Object.fromEntries([...kinds.entries()].sort((a, b) => b[1] - a[1]).map(([k, us]) => [k, ms(us)])),
      sampledMs: ms(sampled),
      self: best(self),
      app: best(under),
    };
  });
  return { tasks: described };
}

/** The description as lines of text. */
export function formatLongTasks({ tasks, note }) {
  if (note) return [`  trace: ${note}`];
  if (tasks.length === 0) return ['  trace: no main-thread task over the bound'];
  const out = [];
  for (const t of tasks) {
    const kinds = Object.entries(t.kinds)
      .map(([k, ms]) => `${k} ${ms}`)
      .join(', ');
    out.push(`  task ${t.ms} ms at +${t.atMs} ms: ${kinds}`);
    if (t.self.length) out.push(`    self:  ${t.self.map(([n, ms]) => `${n} ${ms}`).join(' | ')}`);
    if (t.app.length) out.push(`    under: ${t.app.map(([n, ms]) => `${n} ${ms}`).join(' | ')}`);
  }
  return out;
}
