/**
 * `npm run preflight`: checks an AWS account and region before the first `cdk deploy` (lib/preflight/runner.ts).
 *
 *   npm run preflight                                    # region and credentials as the AWS CLI and cdk find them
 *   npm run preflight -- --region us-east-1 --profile brokerage-prod -c mailDomain=hillcountry.example
 *
 * Reads context as `cdk deploy` does (cdk.json, cdk.context.json, then `-c key=value`), so pass the same `-c`
 * values you will deploy with. Read-only: it only calls Describe/Get/List APIs. Prints one line per check
 * (OK / WARN / FAIL, the finding, → what to do). Exit code 1 when a check FAILs, 2 on a usage or context error.
 */
import { parseArgs } from 'node:util';
import { createClients, resolvedRegion } from '#lib/preflight/clients';
import { PREFLIGHT_CHECKS, runPreflight } from '#lib/preflight/runner';
import { preflightSettings, readCdkContext } from '#lib/preflight/settings';

const USAGE = 'usage: npm run preflight -- [--region REGION] [--profile PROFILE] [-c key=value …]';

async function main(): Promise<number> {
  let settings;
  let region: string;
  let clients;
  try {
    const { values } = parseArgs({
      options: { region: { type: 'string' }, profile: { type: 'string' }, context: { type: 'string', short: 'c', multiple: true }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    settings = preflightSettings(readCdkContext(process.cwd(), values.context ?? []));
    clients = createClients(values.region, values.profile);
    region = await resolvedRegion(clients).catch(() => {
      throw new Error('no AWS region: pass --region, or set AWS_REGION or the profile\'s region');
    });
  } catch (err) {
    console.error(`preflight: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  return runPreflight(PREFLIGHT_CHECKS, { region, settings, clients }, (line) => console.log(line));
}

process.exitCode = await main();
