import type { AppError } from '../state/index';
import { RawText, useT } from './i18n';

/**
 * A problem outside any one file: what was dropped could not be listed, or the analysis itself failed. The
 * detail is the browser's or the program's own message (an exception), shown as it is.
 */
export function ErrorBanner({ error }: { error: AppError }) {
  const t = useT();
  return (
    <p className="banner banner--error" role="alert" data-testid="app-error" data-code={error.code}>
      {t(`error.${error.code}`)}
      {error.detail && (
        <>
          {' '}
          <RawText>{error.detail}</RawText>
        </>
      )}
    </p>
  );
}
