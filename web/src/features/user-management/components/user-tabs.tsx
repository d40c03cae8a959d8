import { useRef, type KeyboardEvent } from 'react';

export type TabId = 'all' | 'pending' | 'activated';

export const TABS: readonly { id: TabId; label: string }[] = [
  { id: 'all', label: 'All Users' },
  { id: 'pending', label: 'Pending Invitations' },
  { id: 'activated', label: 'Activated' },
];

interface UserTabsProps {
  selected: TabId;
  counts: Record<TabId, number>;
  onSelect: (tab: TabId) => void;
}

export const tabId = (id: TabId) => `user-tab-${id}`;
export const PANEL_ID = 'user-tabpanel';

/** ARIA tabs: one tab stop, arrow keys, Home and End move between them. */
export function UserTabs({ selected, counts, onSelect }: UserTabsProps) {
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent) => {
    const index = TABS.findIndex((tab) => tab.id === selected);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = TABS[(next + TABS.length) % TABS.length];
    if (!tab) return;
    onSelect(tab.id);
    list.current?.querySelector<HTMLElement>(`#${tabId(tab.id)}`)?.focus();
  };
  return (
    <div ref={list} className="tabs" role="tablist" aria-label="Filter users" onKeyDown={onKeyDown}>
      {TABS.map((tab) => (
        <button
          key={tab.id}
          id={tabId(tab.id)}
          type="button"
          role="tab"
          className="tabs__tab"
          aria-selected={tab.id === selected}
          aria-controls={PANEL_ID}
          tabIndex={tab.id === selected ? 0 : -1}
          onClick={() => onSelect(tab.id)}
        >
          {tab.label} <span className="tabs__count">({counts[tab.id]})</span>
        </button>
      ))}
    </div>
  );
}
