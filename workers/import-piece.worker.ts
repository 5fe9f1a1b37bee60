/// <reference lib="webworker" />
// Reads one later piece of a large JSONL file for a parallel import (src/core/dataset/importPacked.ts): the data
// worker starts it, gives it the file, the byte range and the format, and takes its packed batches in order.
import { batchTransfer } from '../src/core/dataset/packed';
import { importPiece } from '../src/core/dataset/importPacked';
import { importFailure } from '../src/runtime/importProtocol';
import type { PieceReply, PieceRequest } from '../src/worker/pieceWorkers';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = async (ev: MessageEvent<PieceRequest>) => {
  const { id, blob, name, range, opts } = ev.data;
  const post = (m: PieceReply, transfer: Transferable[] = []) => self.postMessage(m, transfer);
  try {
    for await (const e of importPiece({ name, blob }, range, opts)) {
      if (e.kind === 'batch') post({ id, event: e }, [...batchTransfer(e.batch), e.spans.buffer as ArrayBuffer]);
      else
        post({ id, event: e }, [
          ...e.labels.fields.flatMap((f) => (f.values ? [f.values.buffer as ArrayBuffer] : [])),
          ...(e.labels.categories?.columns ?? []).flatMap((c) => (c.codes ? [c.codes.buffer as ArrayBuffer] : [])),
        ]);
    }
  } catch (e) {
    post({ id, error: importFailure(e) });
  }
};
