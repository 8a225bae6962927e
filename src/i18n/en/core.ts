// The sentences the pure layers write (src/i18n/sentence.ts): core, ingest, share and the CLI give a key and its
// values; the views word them here. The CLI prints these English words, so changing one changes its output.
// A value in backticks is code (a command, a library's own message) and is shown as code.

export const core = {
  // Words only: a share link of format 1, a digest made before sentences. Shown as they are, in English.
  'said.english': '{text}',
  // A sentence that ends a message.
  'said.end': '{what}.',

  // Why a file yields nothing (src/core/extract/problems.ts)
  'file.packed': '{file} is {packed}-compressed or an archive; unpack it first (or drop it as .gz/.zip/.tar.gz)',
  'file.binary': '{file} is not text (binary content); it was skipped',
  'file.empty': '{file} is empty',
  'file.json': '{file} is a JSON file, not a log',
  'file.noTorch': '{file} holds no torchrun or torch.distributed lines ({lines} lines read)',
  'file.notErrorFile': '{file} is not a torchelastic error file (unreadable JSON)',
  // The browser or the file system would not give the bytes: its own words follow.
  'file.unreadable': 'Could not read this file: {reason}',
  'file.unreadableSaid': 'Could not read this file: {reason}',
  'file.unreadableNamed': '{file}: {reason}',
  'file.parserStopped': 'the parser stopped unexpectedly',
  'file.parserStoppedWhy': 'the parser stopped unexpectedly ({reason})',
  'file.workerHeap':
    '{file}: reading it needed more than the {mib} MiB a parse worker may use; it was left out, the other files were analysed',
  'file.workerStopped': '{file}: its parse worker stopped ({reason}); it was left out, the other files were analysed',
  'file.gone': 'the file can no longer be read (it was moved, changed or deleted since it was dropped)',

  // Archives (src/ingest/archive): sizes are written as `40.2 KiB` in every language.
  'archive.damaged': '{archive} is damaged: {what}',
  'archive.damagedRaw': '{archive} is damaged: {message} (after {bytes} of compressed data)',
  'archive.cutShort': '{archive} is cut short: its compressed data ends early (after {bytes})',
  'archive.notGzip': '{archive} is not gzip-compressed data (its header is wrong)',
  'archive.badZip': '{archive} is cut short or damaged (invalid zip data)',
  'archive.endsInMember': '{archive} is cut short: it ends in the middle of {member}',
  'archive.noFiles': '{archive} holds no files to read (only folders, links or metadata).',
  'archive.inflatesPast':
    '{archive} inflates past {max} (from {read} read), more than a log archive should hold; reading stopped there',
  'archive.bombRatio':
    '{archive} inflates {ratio}:1 ({inflated} from {read} read), far beyond what logs compress to: a decompression bomb; reading stopped',
  'archive.tooMany': '{archive} holds more than {max} files; reading stopped there',
  'archive.notAnalysed': 'Not analysed: {what}.',
  'archive.zipMethod':
    'Not analysed: this file is compressed with {method} (ZIP method {code}), which skewscope cannot read here; extract it first.',
  'archive.zipEncrypted':
    'Not analysed: this file is encrypted with AES (ZIP method {code}), which skewscope cannot read here; extract it first.',
  'archive.zipMethodOf': '{archive} uses ZIP compression method {code} for {member}, which skewscope cannot read',
  'archive.emptyZip': '{archive} is an empty zip archive',
  'archive.gzipNotZip': '{archive} is not a zip archive but gzip data; rename it to .gz (or .tar.gz)',
  'archive.notZip': '{archive} is not a zip archive (no file entries were found in it)',
  'tar.paxMalformed': 'a pax extended header is malformed',
  'tar.empty': 'the archive is empty',
  'tar.tooShort': 'this is not a tar archive ({bytes} bytes, shorter than one tar header)',
  'tar.endsInMember': 'the archive ends in the middle of {member} ({done} of {size} bytes)',
  'tar.endsInHeader': 'the archive ends in the middle of a header, at byte {at}',
  'tar.noFiles': 'the archive holds no files (it starts with an end-of-archive block)',
  'tar.headerDamaged': 'the header at byte {at} is damaged (its checksum does not match)',
  'tar.notTar': 'this is not a tar archive (its first header has no valid checksum)',
  'tar.badSize': 'the header at byte {at} has an invalid size',
  'tar.metaTooLarge': 'the {kind} header at byte {at} is too large',

  // Digests (src/core/digest): what is wrong with one, named by its file.
  'digest.cut': '{file} is a skewscope digest cut short (its JSON ends early): copy it again',
  'digest.damaged': '{file} is a damaged skewscope digest (its JSON does not parse)',
  'digest.notOne': '{file} starts like a skewscope digest but is not one',
  'digest.noVersion': '{file} is a skewscope digest without a valid format number',
  'digest.newer':
    '{file} is a digest of format {version}, made by {producer}; this skewscope reads digest format {reads}: update skewscope to analyse it',
  'digest.newerUnknown':
    '{file} is a digest of format {version}, made by an unknown skewscope; this skewscope reads digest format {reads}: update skewscope to analyse it',
  'digest.older':
    '{file} is a digest of format {version}, which this skewscope no longer reads (it reads {reads}); make it again',
  'digest.noCheck': '{file} is a skewscope digest without its checksum (it was cut or edited)',
  'digest.changed':
    '{file} was changed after skewscope made it (its checksum does not match its content); it was not analysed',
  'digest.invalid': '{file} is not a valid skewscope digest: {detail}',
  'digest.invalidShape': '{file} is not a valid skewscope digest: its content does not match the digest format',
  'digest.twice': '{file} is not a valid skewscope digest: it holds {member} twice',
  'digest.tooLarge': '{file} is larger than any skewscope digest (over {mib} MiB); it was not read',

  // The evidence viewer's line reader (src/ingest/lines.worker.ts)
  'lines.memberTooLarge': '{member} is larger than {mib} MiB unpacked; unpack the archive to browse it',
  'lines.memberMissing': '{member} was not found in {archive}',
  'lines.stopped': 'the line reader stopped unexpectedly',
  'lines.stoppedWhy': 'the line reader stopped unexpectedly ({reason})',

  // Why files are a node (src/core/identity.ts, src/core/extract): where a name, a host or a rank came from.
  'hint.logdir': "--log-dir layout {layout}/ (one agent's run folder)",
  'hint.logdirRun': "--log-dir layout {layout}/ (one agent's run folder, run_id {run})",
  'hint.logdirFolder': 'folder {folder} under {attempt}',
  'hint.kubeflowMaster': 'Kubeflow PyTorchJob name: master-0 is node_rank 0: {name}',
  'hint.kubeflowWorker': 'Kubeflow PyTorchJob name: worker-k is node_rank k+1: {name}',
  'hint.nodeRankInName': 'node rank in the name: {name}',
  'hint.nodeNumberInName': 'node number in the name: {name}',
  'hint.slurmNodeInName': 'Slurm output named <job name>-<job id>-<node> (%x-%j-%N): {name}',
  'hint.rankInName': 'rank number in the name: {name}',
  'hint.folderName': 'folder {folder} holding {file}',
  'hint.fileName': 'file name {file}',
  'hint.linePrefix': 'line prefix "{label}" in {file}',
  'hint.lineLabel': 'line label "{label}:" in {file}',
  'hint.nodeId': "line {line}: node id '{id}'",
  'hint.rdzvRank': 'line {line}: rdzv_configs {configs} (static --node_rank)',
  'hint.nodeRankFlag': 'line {line}: torchrun --node_rank={value}',
  'hint.field': 'line {line}: {field}={value} ({entry})',
  'hint.line': 'line {line}: {text}',
  'hint.ncclHost': '{n} NCCL lines name host {host}',
  'hint.byHand': 'set by hand for {file}',

  // The timeline (src/core/timeline.ts): why a node has no place, what the timeline could not do, and how an
  // instant without a time on its line was placed. Seconds as typed (`1800 s`), clock times as `10:22:33.123`.
  'tl.unplaced.labelled':
    'Its lines come from a Slurm/pdsh file whose lines carry no timestamps (srun -l adds only the task label).',
  'tl.unplaced.noLines': 'No torchrun line of this node was recognised, so there is nothing to place.',
  'tl.unplaced.noTime': 'None of its lines carries a time that could be read.',
  'tl.unplaced.oldTorch': 'Its torchrun lines carry no timestamps: torch ≤ 2.0 prints none at default settings.',
  'tl.note.noneUnplaced': 'No node can be placed on the time axis: no line carries a usable time.',
  'tl.note.someUnplaced': '{n} of {total} nodes cannot be placed on the time axis: their lines carry no usable time.',
  'tl.note.workerTimesOnly':
    'Some nodes have times only on worker lines, not on their torchrun lines: their phases cannot be drawn, only the timed events.',
  'tl.note.noLaunch':
    'No launch time is known, so the axis counts from the earliest time seen and the limits cannot be drawn.',
  'tl.note.clockAhead':
    "{node}'s clock reads ahead by {s} s (±{bound} s), not corrected: its row is shifted by that much.",
  'tl.note.clockBehind':
    "{node}'s clock reads behind by {s} s (±{bound} s), not corrected: its row is shifted by that much.",
  'tl.note.estimated':
    'Instants drawn with a dashed edge are estimated: their lines carry no time (see each tooltip for how).',
  'tl.base.rdzvBegan': 'the rendezvous began',
  'tl.base.launch': 'the launch',
  'tl.base.rdzvCompleted': 'the rendezvous completed',
  'tl.base.workersStarted': 'the workers started',
  'tl.base.workersFinished': 'the workers finished',
  'tl.at.stated': 'No time on this line; placed {s} s after {base} ({clock}), as its text states (“{phrase}”).',
  'tl.at.timeout': 'No time on this line; placed {s} s after {base} ({clock}): the timeout that fired.',
  'tl.at.hostStopped':
    'No time on this line; placed when the store host {host} stopped ({clock}), which closed this connection.',
  'tl.at.follows': 'No time on this line; it follows {where} ({clock}), so it happened then or later.',
  'tl.at.precedes': 'No time on this line; it precedes {where} ({clock}), so it happened then or earlier.',
  'tl.at.launchDerived': 'Launch time derived from a wait the text states (see the analysis notes).',
  'tl.prelaunch.work': 'Work before torchrun started: {text}',
  'tl.prelaunch.busy': 'The log starts before torchrun did: the job script was busy first.',
  'tl.gap.noLaunch': 'Its torchrun lines carry no time, so its phases cannot be drawn; only timed events are shown.',
  'tl.gap.pgUnknown': 'No timed line says when init_process_group finished: start-up and running are one bar.',

  // A LATE_NODE finding's list of the latest late nodes (src/core/diagnosisText.ts): each with its lag, the rest
  // counted. `{lag}` is the seconds as a finding writes them (`283 s`).
  'late.entry': '{node} ({lag})',
  'late.entryNoTime': '{node} (no time)',
  'late.list': '{count} nodes launched late; by lag: {list}.',
  'late.listMore': '{count} nodes launched late; by lag: {list} and {more} more.',
  // The labels skewscope gives a node whose log is missing (src/core/job/world.ts), in the reader's language.
  'node.missingByRank': '{name} (group_rank {rank})',
  'node.missingUnnamed': 'unnamed node {k} of {n}',

  // Share links (src/share/link.ts): what is wrong with one, or why one cannot be made.
  'link.diagnosisTooLarge':
    'This diagnosis ({nodes} nodes) does not fit in a share link even without per-node events; share the Markdown or JSON export instead.',
  'link.notALink': 'This is not a skewscope share link: it has no “#share=” part.',
  'link.badVersion': 'This share link is damaged: “#share=” should be followed by a format number and a dot.',
  'link.tooLarge': 'This link is longer than any share link skewscope makes (over 64 KB), so it was not opened.',
  'link.badBase64':
    'This share link is damaged: it contains characters a share link never has (was it edited, or re-encoded by a chat tool?).',
  'link.truncated':
    'This share link is incomplete: it was probably cut off when it was copied. Ask for the whole link.',
  'link.badDeflate': 'This share link is damaged: its content cannot be unpacked.',
  'link.tooLargeInflated':
    'This share link unpacks to more than {mb} MB, far more than any diagnosis; it was not opened.',
  'link.checksum':
    'This share link is damaged: its checksum does not match its content (it was changed after it was made).',
  'link.badJson': 'This share link is damaged: its content is not readable data.',
  'link.newer':
    'This link was made by a newer skewscope (share format {version}); this page reads formats up to {reads}. Open it with an up-to-date skewscope.',
  'link.older': 'This link uses share format {version}, which this skewscope no longer reads (it reads {reads}).',
  'link.invalid': "This share link's content is not a valid diagnosis: {detail}.",
  'link.invalidBare': "This share link's content is not a valid diagnosis.",
  'link.foreignAdvice':
    "This share link's content is not a valid diagnosis: the “{advice}” advice of {finding} is not one skewscope gives (the link was altered).",
  'link.unreadable': "This share link's content could not be read as a diagnosis.",
  'link.previewFailed': 'The link could not be made: {reason}',
} as const;
