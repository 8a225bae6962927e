// Shared by the e2e specs: dropping files on the page the way a browser does.
import type { Page } from '@playwright/test';

/** The preview server's origin (playwright.config.ts picks the port; E2E_PORT moves it). */
export const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? 4178}`;

export interface DropSpec {
  name: string;
  text?: string;
  bytes?: number[];
  /** Binary content as base64 (archives made in the test). */
  base64?: string;
  /**
   * A large file built in the page, not sent over the wire: `text` repeated until the file holds about this many
   * bytes (the Blob's parts share one 1 MiB buffer).
   */
  repeatToBytes?: number;
}

/** Drops files the way a browser does: one real DataTransfer through dragenter, dragover and drop. */
export async function dropFiles(page: Page, specs: DropSpec[]): Promise<void> {
  const dataTransfer = await page.evaluateHandle((items: DropSpec[]) => {
    const transfer = new DataTransfer();
    for (const item of items) {
      let parts: BlobPart[];
      if (item.repeatToBytes) {
        const unit = item.text ?? '';
        let text = unit;
        while (text.length < 1 << 20) text += text;
        const chunk = new TextEncoder().encode(text);
        parts = Array.from({ length: Math.max(1, Math.round(item.repeatToBytes / chunk.length)) }, () => chunk);
      } else if (item.base64 !== undefined) {
        parts = [Uint8Array.from(atob(item.base64), (c) => c.charCodeAt(0))];
      } else {
        parts = [item.bytes ? new Uint8Array(item.bytes) : (item.text ?? '')];
      }
      const binary = item.bytes !== undefined || item.base64 !== undefined;
      transfer.items.add(new File(parts, item.name, { type: binary ? 'application/octet-stream' : 'text/plain' }));
    }
    return transfer;
  }, specs);
  const zone = page.getByTestId('drop-zone');
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
  await dataTransfer.dispose();
}

/** The node ids in the node table, in table order. */
export async function nodeIds(page: Page): Promise<string[]> {
  const rows = page.getByTestId('node-table').locator('tr[data-node]');
  return rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.node ?? ''));
}

/** Errors the page logs or throws, collected from now on (the specs expect none). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}
