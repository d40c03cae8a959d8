/** Browser navigation the app triggers itself, in one place so screens stay testable. */
export const reloadPage = (): void => {
  window.location.reload();
};

/** A full page load of a path of this origin (replacing the current history entry when asked). */
export const loadPage = (path: string, { replace }: { replace: boolean }): void => {
  if (replace) window.location.replace(path);
  else window.location.assign(path);
};
