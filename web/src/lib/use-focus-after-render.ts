import { useEffect, useState } from 'react';

/**
 * Moves focus to a control once the render in progress is on screen. After a refused submit, the
 * field's message and `aria-invalid` are there when focus lands, so a screen reader reads them with
 * the field; focused at once, the field would be announced as it was before the messages.
 */
export const useFocusAfterRender = (): ((id: string, options?: { ifLost?: boolean }) => void) => {
  // A new object per call: the same field refused twice is focused twice.
  const [target, setTarget] = useState<{ id: string; ifLost: boolean } | null>(null);
  useEffect(() => {
    if (!target) return;
    // `ifLost`: only if focus fell to the page (the control that had it left), not where the person
    // has moved it meanwhile (a save that ends while they type elsewhere).
    const active = document.activeElement;
    if (target.ifLost && active !== null && active !== document.body) return;
    document.getElementById(target.id)?.focus();
  }, [target]);
  return (id, options) => setTarget({ id, ifLost: options?.ifLost ?? false });
};
