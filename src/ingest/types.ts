/** A file chosen, dropped or pasted by the user, with the path relative to what was dropped. */
export interface InputFile {
  path: string;
  file: File;
  /** The year hint for the file's year-less timestamps; default: the file's own modification time. */
  mtimeMs?: number | null;
}
