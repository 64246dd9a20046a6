/**
 * The configuration module (shared/ports/config.ts): typed reads at call time (the local runtime and tests set the
 * environment after import), a clear error naming a missing required variable, and — read from the sources — no
 * other file under shared/ or functions/ reading `process.env`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_VARIABLES, ConfigurationError, config, scheduleTargetVariable } from '#ports/config';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG_FILE = 'shared/ports/config.ts';
/**
 * Files allowed to read `process.env` besides the config module, and why. Powertools reads its own variables
 * (`POWERTOOLS_*`) and Lambda's (`AWS_EXECUTION_ENV`) itself; powertools.ts reads them the same way to decide
 * before the Tracer loads.
 */
const EXCEPTIONS: Record<string, string> = {
  'shared/observability/powertools.ts': "Powertools' and Lambda's own variables (POWERTOOLS_SERVICE_NAME, POWERTOOLS_TRACE_ENABLED, AWS_EXECUTION_ENV)",
};

const sources = ['shared', 'functions'].flatMap((dir) =>
  readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f).split(path.sep).join('/')),
);

/** Lines of a source where code (not a comment) reads `process.env`. */
function envReads(file: string, source = readFileSync(path.join(ROOT, file), 'utf8')): number[] {
  if (!source.includes('process')) return [];
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'env' && ts.isIdentifier(node.expression) && node.expression.text === 'process') {
      lines.push(sf.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return lines;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('config', () => {
  it('throws naming a missing required variable and who sets it', () => {
    vi.stubEnv('TABLE_NAME', undefined);
    expect(() => config.tableName).toThrow(ConfigurationError);
    expect(() => config.tableName).toThrow("TABLE_NAME is not set (set by the stack's bindTable; locally by the runtime)");
    vi.stubEnv('TABLE_NAME', '');
    expect(() => config.tableName).toThrow('TABLE_NAME is not set');
  });

  it('reads at call time, so the environment may change after import', () => {
    vi.stubEnv('TABLE_NAME', 'first');
    expect(config.tableName).toBe('first');
    vi.stubEnv('TABLE_NAME', 'second');
    expect(config.tableName).toBe('second');
  });

  it('treats an empty optional variable as unset', () => {
    vi.stubEnv('SES_CONFIGURATION_SET', '');
    expect(config.sesConfigurationSet).toBeUndefined();
    vi.stubEnv('SES_CONFIGURATION_SET', 'tcs-mail');
    expect(config.sesConfigurationSet).toBe('tcs-mail');
  });

  it('types numbers and switches', () => {
    vi.stubEnv('WEBHOOK_BREAKER_THRESHOLD', undefined);
    expect(config.webhookBreakerThreshold).toBe(20);
    vi.stubEnv('WEBHOOK_BREAKER_THRESHOLD', '5');
    expect(config.webhookBreakerThreshold).toBe(5);
    vi.stubEnv('TESSERACT_WORKERS', 'two');
    expect(config.tesseractWorkers).toBeUndefined();
    vi.stubEnv('TESSERACT_WORKERS', '3');
    expect(config.tesseractWorkers).toBe(3);
    vi.stubEnv('MAIL_TRANSPORT', 'ses');
    expect(config.localMail).toBe(false);
    vi.stubEnv('MAIL_TRANSPORT', 'local');
    expect(config.localMail).toBe(true);
    vi.stubEnv('LOCAL_MODE', 'true');
    expect(config.localMode).toBe(true);
  });

  it('names a schedule target variable as the stack sets it', () => {
    expect(scheduleTargetVariable('scheduled-send')).toBe('SCHEDULE_TARGET_SCHEDULED_SEND_ARN');
    vi.stubEnv('SCHEDULE_TARGET_SCHEDULED_SEND_ARN', undefined);
    expect(() => config.scheduleTargetArn('scheduled-send')).toThrow('SCHEDULE_TARGET_SCHEDULED_SEND_ARN is not set');
    vi.stubEnv('SCHEDULE_TARGET_SCHEDULED_SEND_ARN', 'arn:aws:lambda:us-east-1:123456789012:function:send');
    expect(config.scheduleTargetArn('scheduled-send')).toBe('arn:aws:lambda:us-east-1:123456789012:function:send');
  });

  it('lists exactly the variables it reads', () => {
    const text = readFileSync(path.join(ROOT, CONFIG_FILE), 'utf8');
    const read = [...text.matchAll(/(?:read|required|isLocal)\('([A-Z0-9_]+)'/g)].map((m) => m[1]);
    expect(new Set([...read, 'SCHEDULE_TARGET_<TARGET>_ARN'])).toEqual(new Set(CONFIG_VARIABLES));
  });
});

describe('only the config module reads process.env', () => {
  it('finds a read in code, not in a comment', () => {
    expect(envReads('snippet.ts', '// process.env.X\nconst a = process.env.TABLE_NAME;\nconst { B } = process.env;')).toEqual([2, 3]);
  });

  it('finds none under shared/ or functions/ outside the config module and the documented exceptions', () => {
    const offenders = sources.filter((f) => f !== CONFIG_FILE && !(f in EXCEPTIONS)).flatMap((f) => envReads(f).map((line) => `${f}:${line}`));
    expect(offenders).toEqual([]);
    expect(envReads(CONFIG_FILE).length).toBeGreaterThan(0);
  });

  it('keeps every exception a file that still reads process.env', () => {
    for (const file of Object.keys(EXCEPTIONS)) expect(envReads(file).length, file).toBeGreaterThan(0);
  });
});
