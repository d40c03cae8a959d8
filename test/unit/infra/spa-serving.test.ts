/**
 * Issue 12: what CloudFront does with the SPA is what `npm start -- --prod` does locally
 * (infra/local/spa.ts, docs/decisions/057-lighthouse-and-serving.md): every path compressed by
 * CloudFront (gzip and brotli, both in the cache key of CachingOptimized), no behaviour overriding
 * the objects' own Cache-Control (bin/deploy.ts stores the same values the local server sends), and
 * client-side routes answered with index.html, never cached; GET and HEAD only.
 */
import { readFileSync } from 'node:fs';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CachePolicy } from 'aws-cdk-lib/aws-cloudfront';
import { describe, expect, it } from 'vitest';
import { CACHE_CONTROL } from '../../../bin/deploy';
import { SpaSite } from '../../../infra/constructs/spa-site';

/** The feature flags `cdk synth` gets from cdk.json. */
const CDK_JSON_CONTEXT = (
  JSON.parse(readFileSync(new URL('../../../cdk.json', import.meta.url), 'utf8')) as {
    context: Record<string, unknown>;
  }
).context;

const template = () => {
  const stack = new Stack(new App({ context: CDK_JSON_CONTEXT }), 'Spa', {
    env: { account: '123456789012', region: 'us-west-2' },
  });
  new SpaSite(stack, 'Site', { connectSources: ['https://api.example'] });
  return Template.fromStack(stack);
};

type Json = Record<string, unknown>;

describe('the SPA on CloudFront', () => {
  const [distribution] = Object.values(template().findResources('AWS::CloudFront::Distribution')) as {
    Properties: { DistributionConfig: Json };
  }[];
  const config = distribution?.Properties.DistributionConfig ?? {};
  const behavior = config.DefaultCacheBehavior as Json;

  it('compresses every answer, gzip and brotli, in one behaviour for every path', () => {
    expect(behavior.Compress).toBe(true);
    // CachingOptimized: EnableAcceptEncodingGzip and EnableAcceptEncodingBrotli, so both are served.
    expect(behavior.CachePolicyId).toBe(CachePolicy.CACHING_OPTIMIZED.cachePolicyId);
    expect(CachePolicy.CACHING_OPTIMIZED.cachePolicyId).toBe('658327ea-f89d-4fab-a63d-7e88639e58f6');
    expect(config.CacheBehaviors).toBeUndefined();
  });

  it("keeps the objects' Cache-Control, which deploy sets as the local server does", () => {
    // No response-headers policy field overrides Cache-Control; the values are the local server's.
    const policies = template().findResources('AWS::CloudFront::ResponseHeadersPolicy');
    expect(JSON.stringify(policies).toLowerCase()).not.toContain('cache-control');
    expect(CACHE_CONTROL).toEqual({
      hashed: 'public, max-age=31536000, immutable',
      entry: 'no-cache',
      other: 'public, max-age=300',
    });
  });

  it('allows GET and HEAD only, as the local server does (any other method: 403)', () => {
    expect(behavior.AllowedMethods).toEqual(['GET', 'HEAD']);
  });

  it('answers client-side routes with index.html and caches that answer for no time', () => {
    expect(config.CustomErrorResponses).toEqual(
      [403, 404].map((code) => ({
        ErrorCode: code,
        ResponseCode: 200,
        ResponsePagePath: '/index.html',
        ErrorCachingMinTTL: 0,
      })),
    );
  });
});
