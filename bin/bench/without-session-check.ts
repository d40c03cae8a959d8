// `node --import` hook for `npm run bench` only: the Lambdas' session check
// (lambdas/common/session.ts) resolves to a stand-in that lets every token through, so the same
// requests can be timed without it. Nothing in the product imports this file.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
const stub = ${JSON.stringify(new URL('./session-check-off.ts', import.meta.url).href)};
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  return /\\/lambdas\\/common\\/session\\.ts$/.test(resolved.url) ? { ...resolved, url: stub } : resolved;
}`),
  import.meta.url,
);
