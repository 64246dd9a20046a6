/**
 * Bundling alias for `@aws-sdk/credential-provider-node` in Lambda bundles. Lambda hands a function its
 * role's credentials in environment variables, so the SDK's default chain (SSO, INI files, IMDS, process,
 * web identity — about 100 KB minified, with their own clients) is dead weight there: this module gives the
 * clients the environment provider under the default chain's name. Used only by esbuild (lib/service-function.ts
 * and bench/bundles.ts); tests, the local runtime and the operator CLI keep the full chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

/** Same call shape as the default chain's `defaultProvider(init)`. */
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
