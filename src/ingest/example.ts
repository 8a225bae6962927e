// The bundled example job: real logs shipped with the app as static files, fetched from the app's own
// origin and fed through the same pipeline as a drop.
import type { Collected } from './collect';

export const EXAMPLE = 'k8s-late-node';

interface ExampleIndex {
  title: string;
  files: string[];
}

export async function loadExample(name = EXAMPLE): Promise<Collected> {
  const base = `examples/${name}/`;
  const index = (await (await fetch(`${base}index.json`)).json()) as ExampleIndex;
  const failures: Collected['failures'] = [];
  const files = [];
  for (const f of index.files) {
    const res = await fetch(base + f);
    if (!res.ok) {
      failures.push({ path: `${name}/${f}`, reason: `HTTP ${res.status}` });
      continue;
    }
    const path = `${name}/${f}`;
    files.push({ path, file: new File([await res.blob()], f, { type: 'text/plain' }) });
  }
  return { files, failures };
}
