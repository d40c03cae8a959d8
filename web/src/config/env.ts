/**
 * Build-time configuration of the SPA, parsed with zod by `web/vite.config.ts`: `npm run build:web`
 * (and `dev:web`) stop naming every missing or malformed variable. The parsed result is baked into
 * the bundle (see web-config.ts), so zod itself never ships on the sign-in path.
 */
import { z } from 'zod';
import { DEFAULT_REGION } from '../../../shared/constants';

/** An empty variable counts as missing, so `VITE_X=` fails like an unset one. */
const required = (what: string) =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be ${what}`) }),
  );

/** An absolute http(s) URL, or a path starting with `/` (resolved against the page origin). */
const urlOrPath = (value: string) => /^https?:\/\/[^\s]+$/.test(value) || /^\/[^\s]*$/.test(value);

export const webEnvSchema = z
  .object({
    VITE_USER_POOL_ID: required('a Cognito user pool id').pipe(
      z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d_[0-9A-Za-z]+$/, {
        error: 'must look like us-west-2_xxxx (region, underscore, id)',
      }),
    ),
    VITE_USER_POOL_CLIENT_ID: required('an app client id'),
    VITE_AWS_REGION: z.preprocess(
      (value) => (value === '' || value === undefined ? DEFAULT_REGION : value),
      z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, { error: 'must be an AWS region such as us-west-2' }),
    ),
    VITE_API_BASE_URL: required('a URL').pipe(
      z.string().refine(urlOrPath, { error: 'must be an http(s) URL or a path starting with /' }),
    ),
    VITE_COGNITO_ENDPOINT: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.string().refine(urlOrPath, { error: 'must be an http(s) URL or a path starting with /' }).optional(),
    ),
  })
  .superRefine((env, ctx) => {
    if (!env.VITE_USER_POOL_ID.startsWith(`${env.VITE_AWS_REGION}_`)) {
      ctx.addIssue({
        code: 'custom',
        path: ['VITE_USER_POOL_ID'],
        message: `must belong to VITE_AWS_REGION (${env.VITE_AWS_REGION}_...)`,
      });
    }
  });

export interface WebEnv {
  userPoolId: string;
  userPoolClientId: string;
  region: string;
  /** API origin (or same-origin path prefix) without a trailing slash; '' means same origin. */
  apiBaseUrl: string;
  /** Cognito-compatible endpoint override (local mode); absent in the cloud. */
  cognitoEndpoint: string | undefined;
}

const withoutTrailingSlash = (value: string) => value.replace(/\/+$/, '');

export type WebEnvResult = { success: true; env: WebEnv } | { success: false; problems: string[] };

/** Parses raw `VITE_*` variables; on failure names every missing or invalid variable. */
export const parseWebEnv = (source: Record<string, unknown>): WebEnvResult => {
  const result = webEnvSchema.safeParse(source);
  if (!result.success) {
    return {
      success: false,
      problems: result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`),
    };
  }
  const raw = result.data;
  return {
    success: true,
    env: {
      userPoolId: raw.VITE_USER_POOL_ID,
      userPoolClientId: raw.VITE_USER_POOL_CLIENT_ID,
      region: raw.VITE_AWS_REGION,
      apiBaseUrl: withoutTrailingSlash(raw.VITE_API_BASE_URL),
      cognitoEndpoint: raw.VITE_COGNITO_ENDPOINT,
    },
  };
};

export const describeEnvProblems = (problems: readonly string[]): string =>
  [
    'Invalid web build configuration. Set these variables (see web/README.md):',
    ...problems.map((p) => `  - ${p}`),
  ].join('\n');
