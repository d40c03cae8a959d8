import { useEffect } from 'react';

/** Stops the page behind an overlay from scrolling while `active`. */
export const useScrollLock = (active: boolean): void => {
  useEffect(() => {
    if (!active) return undefined;
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
    };
  }, [active]);
};
