/** A file chosen or dropped by the user, with the path relative to what was dropped. */
export interface InputFile {
  path: string;
  file: File;
}
