import type { ReactNode, Ref } from 'react';

/**
 * Where a stacked table (`.table--stack`) shows each row as a card (app.css, decision 045): wherever its
 * wrapper is too narrow for its columns, or on a phone only, for a table whose columns fit any wider
 * screen.
 */
const STACK_CLASSES = {
  'where-narrow': 'table-scroll--stack',
  'on-phone': 'table-scroll--stack-phone',
} as const;

interface TableRegionProps {
  /** The region's name: screen readers say it, and the journeys find the table by it. */
  label: string;
  /** When the table inside becomes cards; without it, a table that scrolls sideways if it must. */
  stack?: keyof typeof STACK_CLASSES;
  ref?: Ref<HTMLDivElement>;
  children: ReactNode;
}

/** A table's wrapper, which scrolls it sideways when it is wider: focusable and named, so a keyboard can too. */
export function TableRegion({ label, stack, ref, children }: TableRegionProps) {
  return (
    <div
      className={stack ? `table-scroll ${STACK_CLASSES[stack]}` : 'table-scroll'}
      role="region"
      aria-label={label}
      tabIndex={0}
      ref={ref}
    >
      {children}
    </div>
  );
}
