// Runs before the page paints (loaded from <head>, not inline, so the Content-Security-Policy holds): the
// theme and language chosen before, so a dark page never flashes light. The app keeps both in step afterwards.
/* global document, location, window */
(function () {
  var root = document.documentElement;
  var stored = null;
  var lang = null;
  try {
    stored = localStorage.getItem('skewscope.theme');
    lang = localStorage.getItem('skewscope.lang');
  } catch {
    // Storage unavailable: the system's theme, the page's language.
  }
  var fromUrl = /(?:^#|&)lang=(en|zh)(?:&|$)/.exec(location.hash);
  if (fromUrl) lang = fromUrl[1];
  var dark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
  var theme = stored === 'light' || stored === 'dark' ? stored : dark ? 'dark' : 'light';
  root.setAttribute('data-theme', theme);
  root.setAttribute('data-theme-choice', stored === 'light' || stored === 'dark' ? stored : 'system');
  if (lang === 'zh') root.setAttribute('lang', 'zh-CN');
  else if (lang === 'en') root.setAttribute('lang', 'en');
})();
