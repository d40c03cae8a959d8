/** The benchmark's stand-in for `lambdas/common/session.ts`: no account read, every token valid. */
export const sessionIsValid = async (): Promise<boolean> => true;
