import { sentenceText, type Sentence } from '../i18n/sentence';
import type { FileProblem } from './model';

/** A file problem from its sentence, with the English words the JSON and older digest readers read. */
export function fileProblem(code: FileProblem['code'], sentence: Sentence): FileProblem {
  return { code, sentence, message: sentenceText('en', sentence) };
}
