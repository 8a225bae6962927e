import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { loadEnv, type Plugin } from 'vite';

// The built page may load only its own files: logs never leave the tab, even through a stray fetch.
// Build only, because the dev server injects inline scripts (React refresh) that this would block.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * The same policy as an HTTP header from the preview server (README, "Hosting the dashboard", for static hosts):
 * a meta tag governs the page only, not the Web Workers that hold the log bytes, and cannot say
 * `frame-ancestors`, so only a header keeps another site from framing the page.
 */
export const CSP_HEADER = `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`;
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CSP_HEADER,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

function contentSecurityPolicy(): Plugin {
  return {
    name: 'skewscope-csp',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY },
        injectTo: 'head-prepend',
      },
    ],
  };
}

// VITE_SHARE_BASE: the address share links open (where the team hosts the dashboard), baked in at build time.
// A typo would make every link a dead one, so the build stops on anything but an http(s) address.
function shareBase(): Plugin {
  return {
    name: 'skewscope-share-base',
    config(_config, { mode }) {
      const base = loadEnv(mode, process.cwd(), 'VITE_').VITE_SHARE_BASE?.trim();
      if (!base) return;
      let url: URL | null;
      try {
        url = new URL(base);
      } catch {
        url = null;
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
        throw new Error(
          `VITE_SHARE_BASE must be an http(s) address, e.g. https://tools.example.com/skewscope/ (got "${base}")`,
        );
    },
  };
}

export default defineConfig({
  plugins: [react(), contentSecurityPolicy(), shareBase()],
  // Relative asset URLs: the built app works from any folder or static host path.
  base: './',
  // The app chunk (React, the core, share links) is ~500 kB, 160 kB gzipped; Recharts loads on its own.
  build: { outDir: 'dist/web', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 600 },
  worker: { format: 'es' },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true, headers: SECURITY_HEADERS },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30000,
    // Two test files at a time even on a 2-core machine (vitest's default, one fewer than the cores, would be one).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
