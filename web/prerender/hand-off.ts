/**
 * Paints the prerendered screen of this path (./screens.tsx) before any of the application's
 * JavaScript has run, and removes it the moment the app renders its own
 * (docs/decisions/057-lighthouse-and-serving.md). A classic script in <head>, a few hundred bytes,
 * so it runs before <body> is parsed: it watches the parser add the screens, shows the one of this
 * path before the first paint and drops the others. While the app then shows only its loading
 * state, the screen stays and the loading state is hidden; when the app renders anything else, in
 * the same frame the screen goes, so the person sees one screen throughout. The screen is `inert`:
 * nothing in it can be pressed or typed into before the app's own takes over.
 */
(() => {
  const SHELL = 'data-prerendered';
  /** The app's loading state (web/src/components/spinner.tsx FullPageSpinner): not yet a screen. */
  const LOADING = '.full-page-center';

  const path = location.pathname.replace(/(.)\/+$/, '$1');
  // Step 2 of /activate (`?step=passkey`) is not the screen prerendered for /activate.
  const wanted = !new URLSearchParams(location.search).has('step');

  const loading = (root: HTMLElement) =>
    root.childElementCount === 0 ||
    (root.childElementCount === 1 && root.firstElementChild?.matches(LOADING) === true);

  const show = (root: HTMLElement, shell: HTMLElement) => {
    root.hidden = true;
    shell.hidden = false;
    const app = new MutationObserver(() => {
      if (loading(root)) return;
      app.disconnect();
      shell.remove();
      root.hidden = false;
    });
    app.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  };

  /**
   * Shown once parsed to its end (the parser has added what follows it): a screen painted half
   * parsed would grow, and its centred card move, when the rest arrived (a layout shift).
   */
  let shown = !wanted;
  const showWhenParsed = () => {
    if (shown) return;
    const root = document.getElementById('root');
    const shell = [...document.querySelectorAll(`[${SHELL}]`)].find(
      (element) => element.getAttribute(SHELL) === path,
    );
    if (!root || !(shell instanceof HTMLElement)) return;
    if (!shell.nextSibling && document.readyState === 'loading') return;
    shown = true;
    parser.disconnect();
    show(root, shell);
  };
  const parser = new MutationObserver(showWhenParsed);
  if (wanted) parser.observe(document.documentElement, { childList: true, subtree: true });

  // Once the whole document is parsed, a screen that is the body's last node needs no sibling.
  document.addEventListener('readystatechange', showWhenParsed, { once: true });
  document.addEventListener(
    'DOMContentLoaded',
    () => {
      parser.disconnect();
      for (const shell of document.querySelectorAll<HTMLElement>(`[${SHELL}]`))
        if (shell.hidden) shell.remove();
    },
    { once: true },
  );
})();

// A module to TypeScript; the build emits it as a plain script (no import, no export), which
// index.html loads as a classic one.
export {};
