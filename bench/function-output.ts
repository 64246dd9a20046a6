/**
 * The functions' stdout (Powertools JSON log lines and EMF documents, one access line and one EMF document per
 * request) diverted to a file while the bench runs, so the report stays readable. Logging keeps its real cost:
 * every line is still formatted and written, to the file instead of the terminal.
 */
import { createWriteStream } from 'node:fs';

/**
 * Diverts `process.stdout` to `file` (JSON lines) until the returned function is called.
 * @returns restores stdout; resolves once the file is flushed
 */
export function divertStdout(file: string): () => Promise<void> {
  const out = createWriteStream(file, { flags: 'w' });
  const original = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const callback = rest.find((r) => typeof r === 'function') as ((err?: Error | null) => void) | undefined;
    return out.write(chunk, callback);
  }) as typeof process.stdout.write;
  return () => {
    process.stdout.write = original;
    return new Promise((resolve) => out.end(resolve));
  };
}
