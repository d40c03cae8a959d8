/**
 * The list calls of SPEC-2 section 1.3 answer `{items, nextCursor?}`. A period is read page by
 * page up to a bound: 10 pages of 200 (2,000 items) is far beyond what a person logs by hand in
 * 90 days, and keeps a runaway loop from hammering the API.
 */
export const MAX_PAGES = 10;

/** A period of records: since `from`, or up to `to` (both included, as the API takes them). */
export type RecordRange =
  { readonly from: string; readonly to?: never } | { readonly to: string; readonly from?: never };

export interface Collected<Item> {
  items: Item[];
  /** False when the bound stopped the reading before the last page. */
  complete: boolean;
}

export const collectPages = async <Item>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: Item[]; nextCursor?: string | undefined }>,
): Promise<Collected<Item>> => {
  const items: Item[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await fetchPage(cursor);
    items.push(...answer.items);
    cursor = answer.nextCursor;
    if (!cursor) return { items, complete: true };
  }
  return { items, complete: false };
};

/** `path?name=value&...` with the defined parameters only, in a stable order. */
export const listPath = (path: string, query: Record<string, string | number | undefined>): string => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
};
