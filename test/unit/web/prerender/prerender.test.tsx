/**
 * Issue 12: the public screens painted before the application's JavaScript has run
 * (web/prerender, docs/decisions/057-lighthouse-and-serving.md): rendered at build time from the
 * app's own components, put into index.html hidden and inert, and shown by the hand-off script only
 * on their own path, until the app renders a screen of its own.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withPrerenderedScreens } from '../../../../web/prerender/plugin';
import { renderScreens } from '../../../../web/prerender/screens';

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <title>Metabolic Coaching</title>
    <script type="module" crossorigin src="/assets/index-A1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/brand-B2.js">
    <link rel="stylesheet" crossorigin href="/assets/index-C3.css">
  </head>
  <body>
    <div id="root"></div>
    <noscript>This app needs JavaScript to sign you in with a passkey.</noscript>
  </body>
</html>`;

describe('renderScreens', () => {
  it('renders the signed-out /signin and step 1 of /activate from the app components', () => {
    const screens = renderScreens();
    expect(screens.map((screen) => screen.path)).toEqual(['/signin', '/activate']);
    const [signin, activate] = screens.map((screen) => {
      const element = document.createElement('div');
      element.innerHTML = screen.html;
      return element;
    });
    expect(signin?.querySelector('h1')?.textContent).toBe('Welcome back');
    expect([...(signin?.querySelectorAll('button') ?? [])].map((button) => button.textContent)).toEqual([
      'Sign In with Passkey',
      'Activate Your Account',
    ]);
    expect(activate?.querySelector('h1')?.textContent).toBe('Activate Your Account');
    expect(activate?.querySelector('form button[type="submit"]')?.textContent).toBe('Verify Code');
    expect(activate?.querySelector<HTMLInputElement>('#activation-code')?.value).toBe('');
    // No inline style or script: the production CSP (style-src and script-src 'self') allows it as it is.
    for (const screen of screens) expect(screen.html).not.toMatch(/<script|<style|\sstyle=/i);
  });
});

describe('withPrerenderedScreens', () => {
  const screens = [
    { path: '/signin', html: '<main><h1>Welcome back</h1></main>' },
    { path: '/activate', html: '<main><h1>Activate Your Account</h1></main>' },
  ];
  const html = withPrerenderedScreens(INDEX, screens, '/assets/hand-off-D4.js');

  it('puts each screen after #root, hidden and inert, and the hand-off first among the scripts, classic', () => {
    expect(html).toContain(
      '<div id="root"></div><div data-prerendered="/signin" hidden inert><main><h1>Welcome back</h1></main></div>' +
        '<div data-prerendered="/activate" hidden inert><main><h1>Activate Your Account</h1></main></div>',
    );
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts[0]).toBe('<script src="/assets/hand-off-D4.js">');
    expect(scripts).toHaveLength(2);
  });

  it('fetches the application JavaScript after what the first paint needs', () => {
    expect(html).toContain(
      '<script type="module" fetchpriority="low" crossorigin src="/assets/index-A1.js">',
    );
    expect(html).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/brand-B2.js">',
    );
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-C3.css">');
  });

  it('refuses an index.html it cannot place them in', () => {
    expect(() =>
      withPrerenderedScreens(INDEX.replace('<div id="root"></div>', ''), screens, '/h.js'),
    ).toThrow(/#root|root/);
    expect(() =>
      withPrerenderedScreens(INDEX.replace(/<script[^]*?<\/script>/, ''), screens, '/h.js'),
    ).toThrow();
  });
});

describe('the hand-off script', () => {
  const SHELLS =
    '<div id="root"></div>' +
    '<div data-prerendered="/signin" hidden inert><h1>Welcome back</h1></div>' +
    '<div data-prerendered="/activate" hidden inert><h1>Activate Your Account</h1></div>';
  const tick = () => new Promise((done) => setTimeout(done, 0));
  const root = () => document.getElementById('root') as HTMLElement;
  const shells = () =>
    [...document.querySelectorAll<HTMLElement>('[data-prerendered]')].map(
      (shell) => `${shell.dataset.prerendered}${shell.hidden ? ' hidden' : ''}`,
    );

  /** Runs the script in <head> at `url`, then lets "the parser" add the body. */
  const load = async (url: string) => {
    window.history.replaceState(null, '', url);
    document.body.innerHTML = '';
    vi.resetModules();
    await import('../../../../web/prerender/hand-off');
    document.body.innerHTML = SHELLS;
    await tick();
  };
  const contentLoaded = () => document.dispatchEvent(new Event('DOMContentLoaded'));

  beforeEach(() => contentLoaded());
  afterEach(() => {
    contentLoaded();
    window.history.replaceState(null, '', '/');
  });

  it('shows the screen of /signin before the app runs and keeps it through the loading state', async () => {
    await load('/signin');
    expect(shells()).toEqual(['/signin', '/activate hidden']);
    expect(root().hidden).toBe(true);
    contentLoaded();
    expect(shells()).toEqual(['/signin']);

    root().innerHTML =
      '<div class="full-page-center"><div class="spinner" role="status">Loading...</div></div>';
    await tick();
    expect(shells()).toEqual(['/signin']);
    expect(root().hidden).toBe(true);
  });

  it('hands over to the first screen the app renders, in the same task', async () => {
    await load('/signin');
    contentLoaded();
    root().innerHTML = '<div class="full-page-center"><div role="status">Loading...</div></div>';
    await tick();
    root().innerHTML = '<div class="auth-layout"><main><h1>Welcome back</h1></main></div>';
    await Promise.resolve();
    expect(shells()).toEqual([]);
    expect(root().hidden).toBe(false);
  });

  it('hands over when the app reuses an element and changes only its class', async () => {
    await load('/activate');
    contentLoaded();
    root().innerHTML = '<div class="full-page-center"></div>';
    await tick();
    expect(shells()).toEqual(['/activate']);
    root().firstElementChild?.setAttribute('class', 'auth-layout');
    await tick();
    expect(shells()).toEqual([]);
  });

  it('waits until the parser is past the screen: half a screen would grow and shift', async () => {
    Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true });
    try {
      window.history.replaceState(null, '', '/signin');
      document.body.innerHTML = '';
      vi.resetModules();
      await import('../../../../web/prerender/hand-off');
      document.body.innerHTML =
        '<div id="root"></div><div data-prerendered="/signin" hidden inert><h1>Welcome';
      await tick();
      expect(shells()).toEqual(['/signin hidden']);
      expect(root().hidden).toBe(false);
      document.body.append(document.createTextNode('\n'));
      await tick();
      expect(shells()).toEqual(['/signin']);
      expect(root().hidden).toBe(true);
    } finally {
      Reflect.deleteProperty(document, 'readyState');
    }
  });

  it.each(['/signin/', '/activate?code=ABCD-EFGH-JKLM-NPQR'])('shows it on %s', async (url) => {
    await load(url);
    expect(shells().filter((shell) => !shell.endsWith('hidden'))).toHaveLength(1);
    expect(root().hidden).toBe(true);
  });

  it.each(['/dashboard', '/', '/activate?step=passkey', '/unauthorized', '/SIGNIN-not'])(
    'shows nothing on %s, and drops the screens once the page is parsed',
    async (url) => {
      await load(url);
      expect(shells()).toEqual(['/signin hidden', '/activate hidden']);
      expect(root().hidden).toBe(false);
      contentLoaded();
      expect(shells()).toEqual([]);
    },
  );
});
