// The reward sandbox (sandbox.html, an iframe of opaque origin): its engines and workers, on the port its parent hands it.
import jsWorker from './reward-js.worker.ts?worker&url';
import pyWorker from './reward-py.worker.ts?worker&url';
import { hostEngines } from '../src/engine/frameHost';

const absolute = (u: string) => new URL(u, import.meta.url).href;
const connect = (ev: MessageEvent) => {
  const size = (ev.data as { size?: unknown } | null)?.size;
  if (ev.source !== window.parent || ev.data?.kind !== 'connect' || !ev.ports[0] || !Number.isInteger(size) || (size as number) < 1 || (size as number) > 32)
    return;
  window.removeEventListener('message', connect);
  hostEngines(ev.ports[0], { size: size as number, scripts: { ts: absolute(jsWorker), py: absolute(pyWorker) } });
};
window.addEventListener('message', connect);
