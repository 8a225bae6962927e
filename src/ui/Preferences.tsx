import { useAppStore, usePrefsStore, type Theme } from '../state/index';
import { useT } from './i18n';

const THEMES: Theme[] = ['system', 'light', 'dark'];

/** The language and the theme, both remembered in this browser. */
export function Preferences() {
  const t = useT();
  const lang = useAppStore((s) => s.lang);
  const chooseLang = useAppStore((s) => s.chooseLang);
  const theme = usePrefsStore((s) => s.theme);
  const setTheme = usePrefsStore((s) => s.setTheme);
  return (
    <div className="prefs">
      <div className="lang-switch" role="group" aria-label={t('prefs.language')}>
        <button
          type="button"
          className="button button--small"
          aria-pressed={lang === 'en'}
          onClick={() => chooseLang('en')}
          lang="en"
          title="English"
          data-testid="lang-en"
        >
          EN
        </button>
        <button
          type="button"
          className="button button--small"
          aria-pressed={lang === 'zh'}
          onClick={() => chooseLang('zh')}
          lang="zh-CN"
          title="简体中文"
          data-testid="lang-zh"
        >
          中文
        </button>
      </div>
      <label className="theme-switch">
        <span className="visually-hidden">{t('prefs.theme')}</span>
        <svg className="theme-switch__icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <path d="M8 1.5a6.5 6.5 0 1 0 0 13z" />
          <circle cx="8" cy="8" r="6.5" fill="none" />
        </svg>
        <select
          className="theme-switch__select"
          value={theme}
          onChange={(e) => setTheme(e.target.value as Theme)}
          data-testid="theme"
          title={t('prefs.theme')}
        >
          {THEMES.map((th) => (
            <option key={th} value={th}>
              {t(`prefs.theme.${th}`)}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
