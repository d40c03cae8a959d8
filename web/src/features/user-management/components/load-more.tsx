import { Alert } from '../../../components/alert';
import { errorMessage } from '../../../lib/errors';
import type { TabView } from '../use-user-directory';

/** Not worded by the SPEC: the title of the page's own load failure. */
export const LOAD_FAILED = 'Could not load users';

/** Under the table: 'Load more' while the tab has pages not read, and why reading on failed. */
export function LoadMore({ view }: { view: TabView }) {
  if (!view.hasMore) return null;
  return (
    <div className="card__footer">
      {view.loadMoreError && (
        <Alert tone="error" title={LOAD_FAILED}>
          <p>{errorMessage(view.loadMoreError, 'Please try again.')}</p>
        </Alert>
      )}
      <button
        type="button"
        className="button button--secondary"
        onClick={view.loadMore}
        disabled={view.loadingMore || !view.canLoadMore}
        aria-busy={view.loadingMore}
      >
        {view.loadingMore ? 'Loading...' : 'Load more'}
      </button>
    </div>
  );
}
