import type { JobModel, JobNode } from '../core/model';
import { formatInstant, formatSeconds } from './format';
import { STAGE_SHORT } from './words';

interface Props {
  job: JobModel;
}

const SHOWN_FILES = 3;

function FileList({ files }: { files: string[] }) {
  const shown = files.slice(0, SHOWN_FILES);
  return (
    <ul className="node-files">
      {shown.map((f) => (
        <li key={f} className="mono ellipsis" title={f}>
          {f}
        </li>
      ))}
      {files.length > SHOWN_FILES && <li className="muted">+{files.length - SHOWN_FILES} more</li>}
    </ul>
  );
}

function LagCell({ node, maxLag }: { node: JobNode; maxLag: number }) {
  if (node.lagSeconds === null) return <span className="muted">—</span>;
  const width = maxLag > 0 ? Math.max(2, (node.lagSeconds / maxLag) * 100) : 0;
  return (
    <div className="lag">
      <span className="lag__value">{node.lagSeconds === 0 ? '0 s' : `+${formatSeconds(node.lagSeconds)}`}</span>
      <span className="lag__track" aria-hidden="true">
        <span className="lag__bar" style={{ width: `${width}%` }} />
      </span>
    </div>
  );
}

export function NodeTable({ job }: Props) {
  const late = new Set(job.failure?.lateNodes ?? []);
  const maxLag = Math.max(0, ...job.nodes.map((n) => n.lagSeconds ?? 0));

  return (
    <section className="card" aria-labelledby="nodes-title">
      <h2 id="nodes-title">Nodes</h2>
      {job.nodes.length === 0 ? (
        <p className="muted">No node could be identified in these files.</p>
      ) : (
        <div className="table-scroll">
          <table className="node-table" data-testid="node-table">
            <thead>
              <tr>
                <th scope="col">Node</th>
                <th scope="col">Hostname</th>
                <th scope="col">Group rank</th>
                <th scope="col">Files</th>
                <th scope="col">Launch time</th>
                <th scope="col">Lag</th>
                <th scope="col">Own failure</th>
              </tr>
            </thead>
            <tbody>
              {job.nodes.map((node) => (
                <tr key={node.id} className={late.has(node.id) ? 'is-late' : undefined}>
                  <th scope="row">
                    <span className="node-id">{node.id}</span>
                    {late.has(node.id) && <span className="tag tag--danger">late</span>}
                    {node.isStoreHost && <span className="tag">store host</span>}
                  </th>
                  <td>{node.hostname ?? <span className="muted">—</span>}</td>
                  <td className="num">{node.groupRank ?? <span className="muted">—</span>}</td>
                  <td>
                    <FileList files={node.files} />
                  </td>
                  <td className="mono nowrap">
                    {node.launchTime ? formatInstant(node.launchTime) : <span className="muted">unknown</span>}
                  </td>
                  <td>
                    <LagCell node={node} maxLag={maxLag} />
                  </td>
                  <td>{node.failureStage ? STAGE_SHORT[node.failureStage] : <span className="muted">none</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
