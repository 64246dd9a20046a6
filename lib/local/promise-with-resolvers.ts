/**
 * `Promise.withResolvers` (ES2024) for Node.js 20, which lacks it; aws-local-stepfunctions 3 calls it in every
 * Task state. Side-effect module: import it before `aws-local-stepfunctions` (lib/local/step-functions.ts does).
 * A no-op where the runtime already has it (Node.js 22+).
 */
type WithResolvers = <T>() => { promise: Promise<T>; resolve: (value: T | PromiseLike<T>) => void; reject: (reason?: unknown) => void };

const P = Promise as unknown as { withResolvers?: WithResolvers };
if (typeof P.withResolvers !== 'function') {
  P.withResolvers = <T>() => {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

export {};
