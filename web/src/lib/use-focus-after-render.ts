import { useEffect, useState } from 'react';

/**
 * Moves focus to a control once the render in progress is on screen. After a refused submit, the
 * field's message and `aria-invalid` are there when focus lands, so a screen reader reads them with
 * the field; focused at once, the field would be announced as it was before the messages.
 */
export const useFocusAfterRender = (): ((id: string) => void) => {
  // A new object per call: the same field refused twice is focused twice.
  const [target, setTarget] = useState<{ id: string } | null>(null);
  useEffect(() => {
    if (target) document.getElementById(target.id)?.focus();
  }, [target]);
  return (id) => setTarget({ id });
};
