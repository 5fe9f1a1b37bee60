/** Cancellation: an aborted signal stops the import with `ImportError('cancelled')`. */
import { ImportError } from './types';

export function throwIfCancelled(signal: AbortSignal | undefined, name: string): void {
  if (signal?.aborted) throw new ImportError('cancelled', `Import of ${name} was cancelled.`);
}
