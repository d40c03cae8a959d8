/** The text to show for a failure: the error's own message, or the screen's fallback. */
export const errorMessage = (error: unknown, fallback: string): string =>
  error instanceof Error && error.message.trim() ? error.message : fallback;
