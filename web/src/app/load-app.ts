/** The app (router, query client, every route but their pages), fetched when first needed. */
export const loadApp = () => import('./app');

/** Fetches the app ahead (intent to leave /signin); a failure shows when it is really needed. */
export const preloadApp = (): void => {
  loadApp().catch(() => undefined);
};
