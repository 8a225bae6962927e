// Before the e2e tests: make sure a Chromium is there. Debian's (/usr/bin/chromium) is used when present —
// browser downloads do not work on every machine — else Playwright's own; as root on Debian/Ubuntu the
// distribution package is installed, otherwise the message says what to run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

const SYSTEM = '/usr/bin/chromium';

function ownBrowser() {
  try {
    return existsSync(chromium.executablePath());
  } catch {
    return false;
  }
}

if (existsSync(SYSTEM) || ownBrowser()) process.exit(0);

const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
if (canApt) {
  console.log("ensure-browser: no Chromium found; installing Debian's chromium package");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit', env });
  if (existsSync(SYSTEM)) process.exit(0);
}
console.error(
  'ensure-browser: the e2e tests need Chromium. Install it with `sudo apt-get install chromium` (Debian/Ubuntu) ' +
    'or `npx playwright install chromium`, then run `npm test` again.',
);
process.exit(1);
