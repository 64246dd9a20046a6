// The assembly runtime's stand-in for Lambda's Node.js runtime bootstrap, run as a child process per sandbox
// (lib/local/assembly/function-pool.ts): it imports the function's bundled asset (`index.mjs` of its cdk.out
// asset directory, the file Lambda runs) once, then answers one invocation at a time over IPC, as a Lambda
// sandbox does. Plain JavaScript on bare Node.js, like Lambda's own bootstrap: no tsx, no project sources.
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [assetDir, handlerSpec, functionName, functionArn, memory] = process.argv.slice(2);
const [file, exportName] = handlerSpec.split('.');
const loading = import(pathToFileURL(path.join(assetDir, `${file}.mjs`)).href);

process.on('message', async (msg) => {
  if (msg?.type !== 'invoke') return;
  const deadline = Date.now() + msg.timeoutMs;
  const context = {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: functionArn,
    memoryLimitInMB: memory,
    awsRequestId: msg.requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'assembly',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
  try {
    const mod = await loading;
    const result = await mod[exportName](msg.event, context);
    process.send({ type: 'result', id: msg.id, ok: true, result: result === undefined ? null : result });
  } catch (err) {
    process.send({ type: 'result', id: msg.id, ok: false, error: { errorType: err?.name ?? 'Error', errorMessage: String(err?.message ?? err), stack: String(err?.stack ?? '') } });
  }
});
process.send({ type: 'ready' });
