import type { ParsedLine } from '../prefixes';

// Several torchrun agents in one unlabelled file: an sbatch output without `srun -l` holds every node's
// output, and two agents started on one host may share a log. From torch 2.5 glog prints the process id, so
// the agent that printed a line is known; lines without one (C++ socket lines, tracebacks, the scheduler's
// own lines) belong to the agent that printed last. Splitting them makes each agent a node of its own, with
// its own launch time, instead of one node that "launched" twice.

/** Linux pids stay below 2^22; torch 2.3–2.4 printed a thread id (far larger) in the same glog field. */
const PID_MAX = 4_194_304;
/** Only the agent process prints from these modules (workers log from distributed_c10d and their own code). */
const AGENT_ORIGIN = /torch[\\/]distributed[\\/](?:run\.py|launcher[\\/]api\.py|elastic[\\/](?:agent|rendezvous)[\\/])/;
/** Slurm's default job output (`slurm-%j.out`, arrays `slurm-%A_%a.out`): every task of the job writes to it. */
const SLURM_OUTPUT = /(?:^|[\\/])slurm-\d{1,12}(?:_\d{1,9})?\.out$/;
/** Agents told apart per file; past this, later agents stay with the last one (a file of noise). */
const MAX_AGENTS = 4096;

/** The stream key of a later agent told apart by its pid (not a label a wrapper printed). */
const AGENT_KEY = 'pid ';
/** A stream key the agents' own signs made (a pid here, a turn in agentTurns.ts), not a label a wrapper printed. */
export const isAgentKey = (key: string): boolean => key.startsWith(AGENT_KEY) || key.startsWith('agent ');

export class AgentRoute {
  /** The stream key of each agent's pid: the first agent keeps the unlabelled stream (''). */
  private readonly pids = new Map<number, string>();
  private current = '';
  /** The file holds several tasks' output by its nature (a Slurm job's output, srun's reports seen). */
  private scheduler: boolean;

  constructor(file: string) {
    this.scheduler = SLURM_OUTPUT.test(file);
  }

  /** The file holds a scheduler's output of several tasks (its name, or srun's own lines in it). */
  get schedulerOutput(): boolean {
    return this.scheduler;
  }

  /**
   * The stream of an unlabelled line. `ended(key)`: that agent's stream has ended (exit or failure) — a new
   * agent after an ended one in an ordinary log is a rerun of the same node, so only a scheduler's output of
   * several tasks, or an agent that starts while another is still running, makes a new stream.
   */
  route(p: ParsedLine, ended: (key: string) => boolean): string {
    if (!this.scheduler && p.msg.startsWith('srun: ')) this.scheduler = true;
    const pid = p.format === 'glog' && p.glogId !== null && p.glogId <= PID_MAX ? p.glogId : null;
    if (pid === null) return this.current;
    const known = this.pids.get(pid);
    if (known !== undefined) return (this.current = known);
    if (p.origin === null || !AGENT_ORIGIN.test(p.origin)) return this.current;
    if (this.pids.size === 0) {
      this.pids.set(pid, '');
      return (this.current = '');
    }
    const another = this.pids.size < MAX_AGENTS && (this.scheduler || !ended(this.current));
    const key = another ? `${AGENT_KEY}${pid}` : this.current;
    this.pids.set(pid, key);
    return (this.current = key);
  }
}
