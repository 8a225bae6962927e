import type { ShareError } from '../../share/index';
import type { T } from '../i18n';

/**
 * Why a link cannot be made or opened. src/share writes its reasons in English with the specifics (the format
 * number, the field that failed); other languages get the catalogue's sentence for the error's code.
 */
export function shareErrorText(t: T, error: ShareError): string {
  return t.lang === 'en' ? error.message : t(`shareError.${error.code}`);
}
