/// <reference lib="webworker" />
// A TypeScript reward worker: the engine's serve loop with the JavaScript runtime (src/engine).
import { browserChannel, forbidClose } from '../src/engine/browser';
import { hardenRealm } from '../src/engine/harden';
import { lockDownNetwork } from '../src/engine/lockDown';
import { jsRuntime } from '../src/engine/runtimes/js';
import { serve } from '../src/engine/serve';
import { loadTokenCounter } from '../src/worker/tokenizerLoader';

declare const self: DedicatedWorkerGlobalScope;
// Kept before the lock-down, out of reward code's reach: it fetches only the app's own tokenizer files.
const ownFetch = self.fetch.bind(self);
const channel = browserChannel(self);
lockDownNetwork(self);
forbidClose(self);
// Last, once everything the worker runs is loaded: one reward cannot change what the next computes or posts.
const realm = hardenRealm(self);
serve(channel, { ...jsRuntime((id) => loadTokenCounter(id, ownFetch)), intact: realm.intact });
