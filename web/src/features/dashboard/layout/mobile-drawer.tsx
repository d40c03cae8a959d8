import { useRef, type RefObject } from 'react';
import { Icon } from '../../../components/icon';
import { useFocusTrap } from '../../../components/overlay/use-focus-trap';
import { useScrollLock } from '../../../components/overlay/use-scroll-lock';
import { SidebarContent } from './sidebar-content';

export const DRAWER_ID = 'mobile-navigation';

interface MobileDrawerProps {
  onClose: () => void;
  menuButton: RefObject<HTMLButtonElement | null>;
}

/**
 * The sidebar as a modal drawer on small screens. Mounted only while open: closes on Escape and
 * on the backdrop (route changes unmount it from the layout), locks page scroll, keeps focus
 * inside and gives it back to the menu button.
 */
export function MobileDrawer({ onClose, menuButton }: MobileDrawerProps) {
  const panel = useRef<HTMLDivElement>(null);
  useFocusTrap(panel, true, { onEscape: onClose, returnFocusTo: menuButton });
  useScrollLock(true);
  return (
    <div className="drawer">
      <div className="drawer__backdrop" data-testid="drawer-backdrop" aria-hidden="true" onClick={onClose} />
      <div
        ref={panel}
        id={DRAWER_ID}
        className="drawer__panel"
        role="dialog"
        aria-modal="true"
        aria-label="Navigation menu"
        tabIndex={-1}
      >
        <button type="button" className="icon-button drawer__close" onClick={onClose} aria-label="Close menu">
          <Icon name="close" />
        </button>
        <SidebarContent />
      </div>
    </div>
  );
}
