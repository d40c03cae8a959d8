/**
 * aws-jwt-verify's Node fetcher speaks HTTPS only, but the local issuer is plain HTTP on this
 * machine. Give this fetcher to a `SimpleJwksCache` to verify local tokens with the real library.
 */
import type { Fetcher } from 'aws-jwt-verify/https';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export const localJwksFetcher: Fetcher = {
  fetch: async (uri) => {
    const url = new URL(uri);
    // Plain HTTP only to this machine: a verifier must never trust keys fetched in clear text from elsewhere.
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
      throw new Error(`Refusing to fetch a JWKS over ${url.protocol} from ${url.host}`);
    }
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`JWKS request to ${url.href} answered ${response.status}`);
    return response.arrayBuffer();
  },
};
