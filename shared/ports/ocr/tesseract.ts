/**
 * tesseract.js (v7, LSTM engine, English) for image-only pages: a pool of worker threads, one per core by default
 * ({@link tesseractPoolSize}), each created lazily when a page needs it and reused; pages queue first in, first
 * out, and each worker reads one page at a time, so a contract's pages are read in parallel on the machine's
 * cores. Fully offline: the language data is read from `@tesseract.js-data/eng/4.0.0_best_int` (gzip,
 * `cacheMethod: 'none'`, nothing written to disk) and the worker script / wasm core come from the installed
 * `tesseract.js` / `tesseract.js-core` packages (their Node defaults).
 *
 * Worker threads are `unref`'d while idle, so a process that forgets {@link terminateTesseract} can still exit;
 * a thread is `ref`'d while its job runs. Every call settles: init failures, worker crashes, job rejections and a
 * per-job timeout all reject with `ExtractionError('ocr_failed')` (a timed-out or crashed worker is terminated and
 * its place in the pool starts a fresh one on its next job).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Worker as NodeWorker } from 'node:worker_threads';
import { ExtractionError } from '#domain/extraction/types';
import type { LineSpec, WordSpec } from '#ports/ocr';
import { config } from '#ports/config';

type TesseractModule = typeof import('tesseract.js');
type TesseractWorker = Awaited<ReturnType<TesseractModule['createWorker']>>;

/** An image for OCR: encoded bytes (PNG/JPEG/BMP/PNM…) and its pixel size (for normalizing boxes). */
export interface OcrImage {
  data: Uint8Array;
  width: number;
  height: number;
  /** Rendering resolution, dots per inch (passed to tesseract as `user_defined_dpi`). */
  dpi: number;
}

/** Default time limit of one recognition, milliseconds. */
export const DEFAULT_RECOGNIZE_TIMEOUT_MS = 120_000;
const INIT_TIMEOUT_MS = 60_000;

const require = createRequire(import.meta.url);

/** Directory holding `eng.traineddata.gz` (LSTM "best_int" model). */
export function tesseractLangPath(): string {
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

interface Live {
  worker: TesseractWorker;
  thread: NodeWorker | undefined;
  /** Rejects when the thread dies; never resolves. */
  died: Promise<never>;
  /** The `user_defined_dpi` last set. */
  dpi?: number;
}

/** One place in the pool: its worker (started on first use) and whether a job is running on it. */
interface Slot {
  live?: Promise<Live>;
  /** The worker `live` resolved to (to tell whether a dying thread is still this slot's current one). */
  current?: TesseractWorker;
  busy: boolean;
}

let slots: Slot[] = [];
const queue: { image: OcrImage; timeoutMs: number; resolve: (l: LineSpec[]) => void; reject: (e: unknown) => void }[] = [];

/**
 * Workers in the pool: `TESSERACT_WORKERS` when set (1–16), else the machine's available parallelism (cores),
 * at most 4 (each worker holds the language model, ~100 MB).
 */
export function tesseractPoolSize(): number {
  const workers = config.tesseractWorkers;
  if (workers !== undefined) return Math.min(16, workers);
  return Math.max(1, Math.min(4, availableParallelism()));
}

function threadOf(worker: TesseractWorker): NodeWorker | undefined {
  const t = (worker as unknown as { worker?: NodeWorker }).worker;
  return t && typeof t.ref === 'function' ? t : undefined;
}

function message(e: unknown): string {
  if (e instanceof Error) return e.message;
  return typeof e === 'string' ? e : JSON.stringify(e);
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ExtractionError('ocr_failed', `${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

async function start(slot: Slot): Promise<Live> {
  const langPath = tesseractLangPath();
  if (!existsSync(join(langPath, 'eng.traineddata.gz'))) {
    throw new ExtractionError('ocr_failed', `tesseract language data not found at ${langPath}/eng.traineddata.gz`);
  }
  const mod = (await import('tesseract.js')) as TesseractModule & { default?: TesseractModule };
  const { createWorker, OEM } = mod.default ?? mod;
  let initialized = false;
  let failInit: (e: unknown) => void = () => {};
  const initFailed = new Promise<never>((_, reject) => {
    failInit = reject;
  });
  // Without an errorHandler tesseract.js throws job rejections from its message listener (an uncaught
  // exception); and a failed language load never settles createWorker, so surface it here.
  const created = createWorker('eng', OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: 'none',
    errorHandler: (e: unknown) => {
      if (!initialized) failInit(e);
    },
  });
  let worker: TesseractWorker;
  try {
    worker = await withTimeout(Promise.race([created, initFailed]), INIT_TIMEOUT_MS, 'tesseract worker start');
  } catch (e) {
    created.then((w) => w.terminate()).catch(() => {});
    throw e instanceof ExtractionError ? e : new ExtractionError('ocr_failed', `tesseract worker failed to start: ${message(e)}`);
  }
  initialized = true;
  const thread = threadOf(worker);
  const died = new Promise<never>((_, reject) => {
    thread?.on('error', (e) => reject(new ExtractionError('ocr_failed', `tesseract worker crashed: ${message(e)}`)));
    thread?.once('exit', (code) => reject(new ExtractionError('ocr_failed', `tesseract worker exited (code ${code})`)));
  });
  died.catch(() => {
    // A dead worker is replaced on the slot's next job.
    if (slot.live && slot.current === worker) slot.live = undefined;
  });
  slot.current = worker;
  thread?.unref();
  return { worker, thread, died };
}

function getLive(slot: Slot): Promise<Live> {
  if (!slot.live) {
    const p = start(slot);
    slot.live = p;
    p.catch(() => {
      if (slot.live === p) slot.live = undefined;
    });
  }
  return slot.live;
}

/**
 * Recognizes one page image: lines and words with tesseract's confidences (0–100) and boxes normalized to the
 * image (0–1, top-left origin). Pages wait first in, first out for a free worker of the pool
 * ({@link tesseractPoolSize}); the timeout counts from the job's start on its worker.
 * @throws ExtractionError `ocr_failed`
 */
export function recognizeImage(image: OcrImage, timeoutMs: number = DEFAULT_RECOGNIZE_TIMEOUT_MS): Promise<LineSpec[]> {
  return new Promise<LineSpec[]>((resolve, reject) => {
    queue.push({ image, timeoutMs, resolve, reject });
    pump();
  });
}

/** Starts queued jobs on free slots: a started idle worker first, else a new slot while the pool has room. */
function pump(): void {
  while (queue.length) {
    // The pool size is read each time (TESSERACT_WORKERS may change between documents, e.g. in the bench).
    if (slots.filter((s) => s.busy).length >= tesseractPoolSize()) return;
    const idle = slots.filter((s) => !s.busy);
    let slot = idle.find((s) => s.live) ?? idle[0];
    if (!slot && slots.length < tesseractPoolSize()) {
      slot = { busy: false };
      slots.push(slot);
    }
    if (!slot) return;
    const job = queue.shift()!;
    const taken = slot;
    taken.busy = true;
    runJob(taken, job.image, job.timeoutMs)
      .then(job.resolve, job.reject)
      .finally(() => {
        taken.busy = false;
        pump();
      });
  }
}

async function runJob(slot: Slot, image: OcrImage, timeoutMs: number): Promise<LineSpec[]> {
  const handle = await getLive(slot);
  const { worker, thread, died } = handle;
  const work = async () => {
    if (handle.dpi !== image.dpi) {
      await worker.setParameters({ user_defined_dpi: String(image.dpi) });
      handle.dpi = image.dpi;
    }
    if (timedOut) throw new ExtractionError('ocr_failed', 'tesseract recognition cancelled');
    const bytes = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
    return worker.recognize(bytes, {}, { blocks: true, text: false });
  };
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new ExtractionError('ocr_failed', `tesseract recognition timed out after ${timeoutMs} ms`));
    }, timeoutMs);
  });
  thread?.ref();
  try {
    const job = work();
    job.catch(() => {}); // settles after a timeout or crash too; nobody is waiting then
    const result = await Promise.race([job, died, timeout]);
    return linesOf(result.data, image);
  } catch (e) {
    // A timed-out job may still be running inside the worker: end it, so the slot's next job gets a fresh one.
    if (timedOut) await terminateSlot(slot);
    throw e instanceof ExtractionError ? e : new ExtractionError('ocr_failed', `tesseract failed: ${message(e)}`);
  } finally {
    clearTimeout(timer);
    thread?.unref();
  }
}

interface TBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface TWord {
  text: string;
  confidence: number;
  bbox: TBox;
}
interface TLine {
  text: string;
  confidence: number;
  bbox: TBox;
  words: TWord[];
}
interface TPage {
  blocks: { paragraphs: { lines: TLine[] }[] }[] | null;
}

const norm = (b: TBox, w: number, h: number) => ({
  left: b.x0 / w,
  top: b.y0 / h,
  width: (b.x1 - b.x0) / w,
  height: (b.y1 - b.y0) / h,
});

/** tesseract.js `blocks` output → {@link LineSpec}s normalized to the image size. */
export function linesOf(page: TPage, image: Pick<OcrImage, 'width' | 'height'>): LineSpec[] {
  const lines: LineSpec[] = [];
  for (const block of page.blocks ?? []) {
    for (const para of block.paragraphs ?? []) {
      for (const line of para.lines ?? []) {
        const words: WordSpec[] = (line.words ?? [])
          .filter((w) => w.text.trim().length > 0)
          .map((w) => ({ text: w.text.trim(), confidence: w.confidence, box: norm(w.bbox, image.width, image.height) }));
        if (words.length) lines.push({ words, confidence: line.confidence, box: norm(line.bbox, image.width, image.height) });
      }
    }
  }
  return lines;
}

/** Workers of the pool started and not terminated (0 before the first image page). */
export const tesseractWorkersStarted = (): number => slots.filter((s) => s.live).length;

/** Ends one slot's worker (if started); the slot starts a new one on its next job. */
async function terminateSlot(slot: Slot): Promise<void> {
  const p = slot.live;
  slot.live = undefined;
  slot.current = undefined;
  if (!p) return;
  try {
    const { worker } = await p;
    await worker.terminate();
  } catch {
    // Never started, or already gone.
  }
}

/** Ends every worker thread of the pool. Safe to call repeatedly; the next recognition starts new ones. */
export async function terminateTesseract(): Promise<void> {
  const all = slots;
  slots = [];
  await Promise.all(all.map(terminateSlot));
}
