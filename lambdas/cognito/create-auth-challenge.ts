// Placeholder: replaced by the real handler in this change set.
export const handler = (): never => {
  throw new Error('not implemented');
};
