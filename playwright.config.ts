import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';

// E2E_PORT lets two checkouts on one machine run their suites at once (each its own preview server).
const PORT = Number(process.env.E2E_PORT ?? 4178);
const ORIGIN = `http://127.0.0.1:${PORT}`;

// The distribution's Chromium when there is one (CI installs it with apt); Playwright's own otherwise.
const systemChromium = '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  retries: 0,
  // Two workers even on a 2-core machine (Playwright's default, half the cores, would be one): a test spends much of
  // its time waiting on the page, so two at once take about two thirds of the time. The responsiveness test of
  // e2e/scale.spec.ts still runs alone (its `-exclusive-` lock), as its longest-task bound was measured that way.
  workers: Math.max(2, Math.floor(availableParallelism() / 2)),
  reporter: 'list',
  forbidOnly: !!process.env.CI,
  use: {
    baseURL: ORIGIN,
    headless: true,
    launchOptions: {
      executablePath: existsSync(systemChromium) ? systemChromium : undefined,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `${ORIGIN}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
