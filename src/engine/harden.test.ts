// hardenRealm in a realm of its own (a worker thread: freezing the test runner's realm would break the runner), as a
// reward worker uses it: what reward code may no longer change, and what ordinary code may still do.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { transform } from 'sucrase';
import { describe, expect, it } from 'vitest';

const HARDEN = transform(readFileSync(new URL('./harden.ts', import.meta.url), 'utf8'), { transforms: ['typescript', 'imports'] }).code;

/** Run `body` (strict code with `attempt(name, f)`) after hardenRealm in a fresh worker; resolves with what it posts. */
function inHardenedRealm(body: string): Promise<Record<string, string>> {
  const code = `'use strict';
const { parentPort } = require('node:worker_threads');
// Taken first: an attempt that is wrongly allowed must fail the test, not silence the worker.
const post = parentPort.postMessage.bind(parentPort);
const exports = {};
${HARDEN}
const realm = exports.hardenNodeRealm();
const out = { frozen: String(realm.frozen) };
const attempt = (name, f) => { try { const r = f(); out[name] = 'allowed' + (r === undefined ? '' : ': ' + r); } catch (e) { out[name] = 'refused: ' + e.constructor.name; } };
${body}
out.intact = String(realm.intact());
post(out);`;
  return new Promise((done, fail) => {
    const w = new Worker(code, { eval: true });
    w.once('message', (m) => void w.terminate().then(() => done(m as Record<string, string>)));
    w.once('error', fail);
  });
}

describe('hardenRealm', () => {
  it('refuses changes to built-ins, hidden intrinsics and global names; leaves RegExp.prototype to intact()', async () => {
    const out = await inHardenedRealm(`
attempt('String.prototype.includes', () => { String.prototype.includes = () => false; });
attempt('Function.prototype.call', () => { Function.prototype.call = () => 0; });
attempt('JSON.parse', () => { JSON.parse = () => 1; });
attempt('global JSON', () => { globalThis.JSON = {}; });
attempt('redefine global Math', () => { Object.defineProperty(globalThis, 'Math', { value: {} }); });
attempt('array iterator next', () => { Object.getPrototypeOf([][Symbol.iterator]()).next = () => ({ done: true }); });
attempt('generator prototype', () => { Object.getPrototypeOf(function* () {}).prototype.next = () => 0; });
attempt('typed array set', () => { Object.getPrototypeOf(Int8Array).prototype.set = () => 0; });
attempt('Error.prototype.name', () => { Error.prototype.name = 'X'; });
attempt('MessagePort.prototype.postMessage', () => { MessagePort.prototype.postMessage = () => 0; });
attempt('Blob.prototype.slice', () => { Blob.prototype.slice = () => 0; });
attempt('TextDecoder.prototype.decode', () => { TextDecoder.prototype.decode = () => ''; });
attempt('BYOB reader read', () => { ReadableStreamBYOBReader.prototype.read = () => 0; });
attempt('Buffer.prototype.toString', () => { Buffer.prototype.toString = () => ''; });
attempt('a new global', () => { globalThis.mine = 1; return globalThis.mine; });
attempt('an Error subclass names itself', () => { class E extends Error { constructor(m) { super(m); this.name = 'E'; } } return String(new E('m')); });
attempt('an object of its own gets toString', () => { const o = {}; o.toString = () => 'o'; return \`\${o}\`; });
attempt('an old-style class sets its prototype', () => { function F() {} F.prototype.constructor = F; F.prototype.toString = function () { return 'f'; }; return String(new F()); });
attempt('split, before', () => 'a b'.split(/ /).length);
attempt('RegExp.prototype', () => { RegExp.prototype[Symbol.split] = () => ['x']; });
`);
    for (const k of [
      'String.prototype.includes',
      'Function.prototype.call',
      'JSON.parse',
      'global JSON',
      'redefine global Math',
      'array iterator next',
      'generator prototype',
      'typed array set',
      'Error.prototype.name',
      'MessagePort.prototype.postMessage',
      'Blob.prototype.slice',
      'TextDecoder.prototype.decode',
      'BYOB reader read',
      'Buffer.prototype.toString',
    ])
      expect(out[k], k).toBe('refused: TypeError');
    expect(out['a new global']).toBe('allowed: 1');
    expect(out['an Error subclass names itself']).toBe('allowed: E: m');
    expect(out['an object of its own gets toString']).toBe('allowed: o');
    expect(out['an old-style class sets its prototype']).toBe('allowed: f');
    expect(out['split, before']).toBe('allowed: 2');
    // Left unfrozen for V8's fast regular expressions, and so changed: intact() says so.
    expect(out['RegExp.prototype']).toBe('allowed');
    expect(out.intact).toBe('false');
    expect(Number(out.frozen)).toBeGreaterThan(500);
  });

  it('intact() stays true while nothing changes RegExp.prototype, and regular expressions keep working', async () => {
    const out = await inHardenedRealm(`attempt('match', () => 'a1b22'.match(/\\d+/g).join(','));`);
    expect(out.match).toBe('allowed: 1,22');
    expect(out.intact).toBe('true');
  });
});
