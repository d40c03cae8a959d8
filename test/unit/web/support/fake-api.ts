import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  path: string;
  /** The query string's parameters (routes are keyed without it). */
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;
/** A handler, a canned Response, or a JSON body answered with 200. */
type Route = Handler | Response | Record<string, unknown> | unknown[];

export const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export const failure = (status: number, message: string): Response => json({ message }, status);

/** A promise the test settles by hand, to hold the UI in its busy state. */
export const deferred = <T>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

/**
 * Replaces fetch with a tiny API server keyed by 'METHOD /path' (path without the base URL).
 * Unknown routes answer 404 so a forgotten stub fails loudly. Every call is recorded.
 */
export const fakeApi = (routes: Record<string, Route>) => {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = init?.method ?? 'GET';
    const call: RecordedCall = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}`];
    if (route === undefined) return failure(404, `No fake for ${method} ${url.pathname}`);
    if (typeof route === 'function') return route(call);
    if (route instanceof Response) return route.clone();
    return json(route);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
    /** Changes or adds a route after set-up. */
    set: (key: string, handler: Route) => {
      routes[key] = handler;
    },
  };
};
