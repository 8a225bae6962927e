import type { ReactNode } from 'react';

interface Props {
  dropZone: ReactNode;
  onExample: () => void;
}

export function EmptyState({ dropZone, onExample }: Props) {
  return (
    <section className="empty" aria-labelledby="empty-title">
      <h1 id="empty-title" className="empty__title">
        Why did the torchrun job die before its first step?
      </h1>
      <p className="empty__lead">
        Give skewscope the startup logs of <strong>every node</strong> of one multi-node PyTorch run. It lines them up,
        tells you which node was late and by how much, and which timeout fired.
      </p>
      {dropZone}
      <p className="empty__example">
        No logs at hand?{' '}
        <button type="button" className="button button--link" onClick={onExample} data-testid="open-example">
          Open an example job
        </button>{' '}
        — real logs of three Kubernetes pods where one started almost six minutes late.
      </p>
      <div className="empty__grid">
        <div className="card">
          <h2>What to drop</h2>
          <ul>
            <li>
              <strong>One log per node</strong> — what each <code>torchrun</code> printed, e.g. <code>node0.log</code>,{' '}
              <code>trainjob-worker-1.log</code>, a Slurm <code>slurm-1234.out</code>.
            </li>
            <li>
              <strong>Whole folders</strong> — every file inside is read and the folder names are kept, so{' '}
              <code>node3/…</code> still names the node.
            </li>
            <li>
              <strong>
                <code>--log-dir</code> trees
              </strong>{' '}
              — e.g. <code>attempt_0/0/stdout.log</code> for each node.
            </li>
            <li>
              <strong>Archives</strong> — <code>.gz</code>, <code>.zip</code>, <code>.tar</code>, <code>.tar.gz</code>{' '}
              are unpacked here in the page; or <strong>paste</strong> log text.
            </li>
          </ul>
        </div>
        <div className="card">
          <h2>Good to know</h2>
          <ul>
            <li>Logs from all nodes of the same attempt are needed to see who was late.</li>
            <li>Files that are not logs are listed with the reason; the rest are still analysed.</li>
            <li>
              Everything happens in this tab: files are read locally and <strong>nothing is uploaded</strong>.
            </li>
          </ul>
        </div>
      </div>
    </section>
  );
}
