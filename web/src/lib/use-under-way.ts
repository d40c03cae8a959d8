import { useState } from 'react';

/**
 * The calls under way, by key (a row, an entry) and what each is doing. Several may run at once (one
 * row need not wait for another): each `run` marks its key until its call settles and hands the call
 * back, so its caller says that call's own outcome, where TanStack's `mutate` callbacks and
 * `variables` follow only the latest call.
 */
export const useUnderWay = <Kind>() => {
  const [underWay, setUnderWay] = useState<ReadonlyMap<string, Kind>>(new Map());
  const run = <Output>(key: string, kind: Kind, call: Promise<Output>): Promise<Output> => {
    setUnderWay((current) => new Map(current).set(key, kind));
    return call.finally(() =>
      setUnderWay((current) => {
        const next = new Map(current);
        next.delete(key);
        return next;
      }),
    );
  };
  return { underWay, run };
};
