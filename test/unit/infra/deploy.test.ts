import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  concurrencyCheck,
  CACHE_CONTROL,
  distKeys,
  parseDeployArgs,
  readStackOutputs,
  staleObjects,
  uploadCommands,
  viteEnvironment,
  type StackOutputs,
} from '../../../bin/deploy';
import { STACK_OUTPUTS } from '../../../infra/stacks/outputs';

const OUTPUTS: StackOutputs = {
  appUrl: 'https://d111.cloudfront.net',
  apiUrl: 'https://abc.execute-api.us-west-2.amazonaws.com/dev',
  userPoolId: 'us-west-2_AbCdEf',
  userPoolClientId: 'client123',
  region: 'us-west-2',
  siteBucketName: 'site-bucket',
  distributionId: 'E123',
  tableNames: '{"invitations":"MetabolicCoaching-dev-invitations"}',
  alarmTopicArn: 'arn:aws:sns:us-west-2:111111111111:alarms',
};

describe('deploy arguments', () => {
  it('needs a stage', () => {
    expect(() => parseDeployArgs([])).toThrow(/--stage/);
  });

  it('defaults to us-west-2, deploying the infrastructure, with approval prompts', () => {
    expect(parseDeployArgs(['--stage', 'dev'])).toEqual({
      stage: 'dev',
      region: 'us-west-2',
      skipInfra: false,
      approve: false,
      dryRun: false,
      context: [],
    });
  });

  it('passes custom-domain context through and refuses stage or region as context', () => {
    expect(parseDeployArgs(['--stage', 'prod', '-c', 'domainName=app.example.com']).context).toEqual([
      'domainName=app.example.com',
    ]);
    expect(() => parseDeployArgs(['--stage', 'prod', '-c', 'stage=dev'])).toThrow(/--stage/);
    expect(() => parseDeployArgs(['--stage', 'prod', '-c', 'novalue'])).toThrow(/key=value/);
  });

  it('rejects unknown options', () => {
    expect(() => parseDeployArgs(['--stage', 'dev', '--force'])).toThrow();
  });
});

describe('stack outputs to SPA build', () => {
  it('reads every output the stack declares', () => {
    const raw = Object.entries(STACK_OUTPUTS).map(([key, name]) => ({
      OutputKey: name,
      OutputValue: OUTPUTS[key as keyof StackOutputs],
    }));
    expect(readStackOutputs(raw)).toEqual(OUTPUTS);
  });

  it('names the outputs a stack lacks', () => {
    expect(() => readStackOutputs([{ OutputKey: 'AppUrl', OutputValue: 'x' }])).toThrow(/ApiUrl.*UserPoolId/);
  });

  it('builds the SPA with the pool, client, region and API base URL without a trailing slash', () => {
    expect(viteEnvironment({ ...OUTPUTS, apiUrl: `${OUTPUTS.apiUrl}/` })).toEqual({
      VITE_USER_POOL_ID: 'us-west-2_AbCdEf',
      VITE_USER_POOL_CLIENT_ID: 'client123',
      VITE_AWS_REGION: 'us-west-2',
      VITE_API_BASE_URL: 'https://abc.execute-api.us-west-2.amazonaws.com/dev',
    });
  });
});

describe('upload', () => {
  it('uploads hashed assets first, immutable, and index.html last, uncached', () => {
    const commands = uploadCommands('site-bucket', '/repo/web/dist');
    expect(commands[0]).toEqual(expect.arrayContaining(['--include', 'assets/*', CACHE_CONTROL.hashed]));
    expect(commands.at(-1)).toEqual(
      expect.arrayContaining(['s3://site-bucket/index.html', CACHE_CONTROL.entry]),
    );
    expect(CACHE_CONTROL.entry).toBe('no-cache');
    for (const command of commands.slice(0, -1)) expect(command).not.toContain('/repo/web/dist/index.html');
  });

  it('prunes files the build no longer has, but keeps recent hashed assets for open tabs', () => {
    const now = new Date('2025-06-10T00:00:00Z');
    const stale = staleObjects(
      [
        { Key: 'index.html', LastModified: '2025-01-01T00:00:00Z' },
        { Key: 'assets/index-NEW12345.js', LastModified: '2025-06-10T00:00:00Z' },
        { Key: 'assets/index-OLD12345.js', LastModified: '2025-06-08T00:00:00Z' },
        { Key: 'assets/index-ANCIENT1.js', LastModified: '2025-05-01T00:00:00Z' },
        { Key: 'favicon-old.ico', LastModified: '2025-06-09T00:00:00Z' },
      ],
      new Set(['index.html', 'assets/index-NEW12345.js']),
      now,
    );
    expect(stale).toEqual(['assets/index-ANCIENT1.js', 'favicon-old.ico']);
  });

  it("neither uploads nor counts Vite's .vite/ manifest as part of the site", () => {
    const dist = mkdtempSync(join(tmpdir(), 'dist-'));
    try {
      mkdirSync(join(dist, 'assets'));
      mkdirSync(join(dist, '.vite'));
      writeFileSync(join(dist, 'index.html'), '<!doctype html>');
      writeFileSync(join(dist, 'assets', 'index-AbCd1234.js'), '');
      writeFileSync(join(dist, '.vite', 'manifest.json'), '{}');
      expect([...distKeys(dist)].sort()).toEqual(['assets/index-AbCd1234.js', 'index.html']);
      expect(uploadCommands('b', dist)[1]).toEqual(expect.arrayContaining(['--exclude', '.vite/*']));
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('the Lambda concurrency check before cdk deploy', () => {
  const at = (limit: number, unreserved = limit, newReservations = 1) =>
    concurrencyCheck(
      { AccountLimit: { ConcurrentExecutions: limit, UnreservedConcurrentExecutions: unreserved } },
      'us-west-2',
      newReservations,
    );

  it("refuses an account where FinishErases' reservation would roll the first deploy back, and says what to raise", () => {
    for (const limit of [10, 50, 100]) {
      const { refused } = at(limit);
      expect(refused, String(limit)).toContain(
        `concurrency in us-west-2 is ${limit}, ${limit} of it unreserved`,
      );
      expect(refused).toContain('Service Quotas (us-west-2) to 2,000');
    }
    expect(at(10).refused).toContain('Lambda keeps 10 unreserved');
    expect(at(100).refused).toContain('Lambda keeps 100 unreserved');
  });

  it('counts what other stages and workloads reserved already, and nothing more for a stack that exists', () => {
    // A limit of 1,000 with 900 reserved elsewhere: 100 left, one more would go under Lambda's minimum.
    expect(at(1_000, 100).refused).toContain('is 1000, 100 of it unreserved');
    expect(at(1_000, 101).refused).toBeUndefined();
    // The stack holds its reservation already: a redeploy adds none.
    expect(at(1_000, 100, 0).refused).toBeUndefined();
  });

  it('deploys with a warning below the 2,000 of decision 054, and quietly from 2,000', () => {
    expect(at(101)).toEqual({
      warning: expect.stringContaining('the stage works, below the peak') as string,
    });
    expect(at(1_000).warning).toContain('is 1000');
    expect(at(2_000)).toEqual({});
    expect(concurrencyCheck({}, 'eu-west-1', 1)).toEqual({
      warning: 'Could not read the Lambda concurrency of eu-west-1.',
    });
  });
});
