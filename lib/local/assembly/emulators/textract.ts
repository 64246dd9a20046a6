/**
 * Textract stand-in for asynchronous document analysis: `StartDocumentAnalysis` reads the S3 object (through
 * `readObject`) and analyses it with the local OCR adapter (shared/ports/ocr-local.ts: pdf.js text layer,
 * tesseract.js for image-only pages), which emits Textract-shaped `Block`s; `GetDocumentAnalysis` answers
 * `IN_PROGRESS` until then and pages the blocks (`MaxResults`, default 1000, and `NextToken`) as Textract does.
 * A document the adapter refuses ends the job `FAILED` with its message. `ClientRequestToken` is idempotent.
 */
import { randomUUID } from 'node:crypto';
import type { Block } from '@aws-sdk/client-textract';
import { jsonError, jsonReply, type Backend } from '../aws-gateway.ts';

interface Job {
  status: 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED';
  blocks: Block[];
  pages: number;
  message?: string;
}

export interface TextractEmulator {
  backend: Backend;
  /** Resolves when no analysis is running. */
  idle(): Promise<void>;
}

export function textractEmulator(opts: { readObject(bucket: string, key: string): Promise<Buffer> }): TextractEmulator {
  const jobs = new Map<string, Job>();
  const tokens = new Map<string, string>();
  const running = new Set<Promise<void>>();
  const backend: Backend = async (req) => {
    const body = JSON.parse(req.body.toString('utf8') || '{}') as Record<string, any>;
    if (req.target === 'StartDocumentAnalysis') {
      const token = body.ClientRequestToken as string | undefined;
      if (token && tokens.has(token)) return jsonReply({ JobId: tokens.get(token) });
      const jobId = randomUUID().replace(/-/g, '');
      if (token) tokens.set(token, jobId);
      const job: Job = { status: 'IN_PROGRESS', blocks: [], pages: 0 };
      jobs.set(jobId, job);
      const { Bucket, Name } = body.DocumentLocation.S3Object as { Bucket: string; Name: string };
      const run = (async () => {
        try {
          const { localOcr } = await import('#ports/ocr-local');
          const result = await localOcr.analyze(await opts.readObject(Bucket, Name));
          Object.assign(job, { status: 'SUCCEEDED', blocks: result.blocks, pages: result.pageCount });
        } catch (err) {
          Object.assign(job, { status: 'FAILED', message: err instanceof Error ? err.message : String(err) });
        }
      })();
      running.add(run);
      void run.finally(() => running.delete(run));
      return jsonReply({ JobId: jobId });
    }
    if (req.target === 'GetDocumentAnalysis') {
      const job = jobs.get(String(body.JobId));
      if (!job) return jsonError('InvalidJobIdException', 'Job not found');
      if (job.status !== 'SUCCEEDED') return jsonReply({ JobStatus: job.status, StatusMessage: job.message });
      const start = Number(body.NextToken ?? 0);
      const size = Number(body.MaxResults ?? 1000);
      const next = start + size < job.blocks.length ? String(start + size) : undefined;
      return jsonReply({ JobStatus: 'SUCCEEDED', DocumentMetadata: { Pages: job.pages }, Blocks: job.blocks.slice(start, start + size), NextToken: next, AnalyzeDocumentModelVersion: '1.0' });
    }
    return jsonError('InvalidParameterException', `Textract ${req.target} is not emulated`);
  };
  return {
    backend,
    async idle() {
      while (running.size) await Promise.all([...running]);
    },
  };
}
