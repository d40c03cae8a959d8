import type { RefObject } from 'react';
import { Alert } from '../../../components/alert';
import { errorMessage } from '../../../lib/errors';
import { useKeepFocusAfterMore } from '../../../lib/keep-focus';
import type { TabView } from '../use-user-directory';
import { busyButton } from '../../../lib/busy-button';

/** Not worded by the SPEC: the title of the page's own load failure. */
export const LOAD_FAILED = 'Could not load users';

interface LoadMoreProps {
  view: TabView;
  /** The table (or the empty state in its place), which takes the focus when the button leaves. */
  list: RefObject<HTMLElement | null>;
}

/** Under the table: 'Load more' while the tab has pages not read, and why reading on failed. */
export function LoadMore({ view, list }: LoadMoreProps) {
  // The last page read, the button leaves: focus goes on to the table rather than falling to the page.
  const button = useKeepFocusAfterMore(list, view.hasMore);
  if (!view.hasMore) return null;
  return (
    <div className="card__footer">
      {view.loadMoreError && (
        <Alert tone="error" title={LOAD_FAILED}>
          <p>{errorMessage(view.loadMoreError, 'Please try again.')}</p>
        </Alert>
      )}
      <button
        ref={button}
        type="button"
        className="button button--secondary"
        disabled={!view.loadingMore && !view.canLoadMore}
        {...busyButton(view.loadingMore, view.loadMore)}
        aria-busy={view.loadingMore}
      >
        {view.loadingMore ? 'Loading...' : 'Load more'}
      </button>
    </div>
  );
}
