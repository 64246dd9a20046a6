/** Silences the AWS SDK's one-time Node 20 support notice in test output (Lambda runs Node 22). */
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
const emit = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const text = typeof warning === 'string' ? warning : warning.message;
  if (/AWS SDK for JavaScript/.test(text) || (typeof rest[0] === 'string' && rest[0] === 'NodeVersionSupportWarning')) return;
  (emit as (...a: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;
