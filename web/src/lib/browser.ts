/** Browser navigation the app triggers itself, in one place so screens stay testable. */
export const reloadPage = (): void => {
  window.location.reload();
};
