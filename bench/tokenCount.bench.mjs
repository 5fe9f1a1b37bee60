// ctx.tokenCount: the studio's counter (core/tokenize/pieceCounter through makeTokenCounter) against the old path,
// tokenizers.js's `encode(text).ids.length`, on 6,440 distinct real texts, in the same process and rounds.
// Each path has its own Tokenizer instance (so neither warms the other's BPE cache); the new path starts each round
// with an empty memo (a fresh worker's first run) and is then timed again on the same texts (a run after an edit).
// Then the same texts each ending in the tokenizer's end-of-text added token (`<|endoftext|>`, Llama-3's `<|eot_id|>`),
// as completions often do: both paths, first pass only.
// Usage: node bench/tokenCount.bench.mjs [--reps=N] [--tokenizer=gpt2|qwen3|llama3]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { importTs } from './tsImport.mjs';

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt;
const REPS = Number(arg('reps', 7));
const IDS = arg('tokenizer', 'gpt2,qwen3,llama3').split(',');
const ROWS = 6440;

const { makeTokenCounter, plainTokenCounter, TOKENIZERS } = await importTs('src/core/tokenize/tokenizers.ts');

/**
 * 6,440 distinct texts: the GSM8K demo's prompts and completions, then paragraphs of the Markdown READMEs of the
 * installed packages (prose, code, tables, URLs) in sorted path order, each at most 4,000 characters.
 */
function corpus() {
  const seen = new Set();
  const out = [];
  const add = (t) => {
    const s = t.trim().slice(0, 4000);
    if (s.length >= 40 && !seen.has(s) && out.length < ROWS) {
      seen.add(s);
      out.push(s);
    }
  };
  for (const l of readFileSync('public/demo/gsm8k-rollouts.jsonl', 'utf8').split('\n').filter(Boolean)) {
    const r = JSON.parse(l);
    add(r.prompt);
    add(r.completion);
  }
  const readmes = [];
  const walk = (dir, depth) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (name === 'README.md') readmes.push(p);
      else if (depth < 2 && !name.startsWith('.') && statSync(p).isDirectory()) walk(p, depth + 1);
    }
  };
  walk('node_modules', 0);
  for (const f of readmes) {
    if (out.length >= ROWS) break;
    for (const para of readFileSync(f, 'utf8').split(/\n{2,}/)) add(para);
  }
  if (out.length < ROWS) throw new Error(`only ${out.length} distinct texts found`);
  return out;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const texts = corpus();
const chars = texts.reduce((a, t) => a + t.length, 0);
console.log(`${texts.length.toLocaleString('en-US')} texts, ${(chars / 1e6).toFixed(2)} M characters; ${REPS} rounds`);

const require = createRequire(import.meta.url);
for (const id of IDS) {
  const dir = join(dirname(require.resolve(TOKENIZERS[id].pkg)), '..', 'models');
  const json = () => JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8'));
  const config = JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8'));
  // Load cost: the library's Tokenizer alone against makeTokenCounter (the same plus the merge table), JSON parsed before.
  const loadMs = (make) => {
    const j = json();
    const c0 = process.cpuUsage();
    make(j);
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  const loadOld = loadMs((j) => new Tokenizer(j, config));
  const loadNew = loadMs((j) => makeTokenCounter(j, config));
  const old = plainTokenCounter(new Tokenizer(json(), config));
  // Wall time and the process's CPU time (the machine is shared: CPU time is the steadier figure).
  const pass = (count) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    let tokens = 0;
    for (const t of texts) tokens += count(t);
    const c = process.cpuUsage(c0);
    return { ms: performance.now() - t0, cpu: (c.user + c.system) / 1000, tokens };
  };
  const rounds = [];
  for (let r = 0; r < REPS; r++) {
    // A new counter per round: empty memo, as in a fresh worker (its Tokenizer is built outside the timing).
    const fresh = makeTokenCounter(json(), config);
    const runNew = () => {
      const cold = pass(fresh);
      const warm = pass(fresh);
      return { cold, warm };
    };
    let o, n;
    if (r % 2 === 0) {
      o = pass(old);
      n = runNew();
    } else {
      n = runNew();
      o = pass(old);
    }
    if (n.cold.tokens !== o.tokens || n.warm.tokens !== o.tokens) throw new Error(`${id}: token totals differ (${n.cold.tokens} vs ${o.tokens})`);
    rounds.push({ old: o.ms, cold: n.cold.ms, warm: n.warm.ms, oldCpu: o.cpu, coldCpu: n.cold.cpu, tokens: o.tokens });
  }
  const ratios = rounds.map((x) => x.old / x.cold);
  const warmRatios = rounds.map((x) => x.old / x.warm);
  const cpuRatios = rounds.map((x) => x.oldCpu / x.coldCpu);
  const f = (x) => x.toFixed(0);
  console.log(`\n${TOKENIZERS[id].label}: ${rounds[0].tokens.toLocaleString('en-US')} tokens per pass (equal in both paths)`);
  console.log(`  load (CPU): Tokenizer ${f(loadOld)} ms, makeTokenCounter ${f(loadNew)} ms`);
  console.log(`  old path, encode().ids.length: median ${f(median(rounds.map((x) => x.old)))} ms  [${rounds.map((x) => f(x.old)).join(', ')}]`);
  console.log(`  new path, first pass (empty memo): median ${f(median(rounds.map((x) => x.cold)))} ms  [${rounds.map((x) => f(x.cold)).join(', ')}]`);
  console.log(`  new path, second pass (memo filled): median ${f(median(rounds.map((x) => x.warm)))} ms  [${rounds.map((x) => f(x.warm)).join(', ')}]`);
  console.log(
    `  speed-up, first pass: median of rounds ${median(ratios).toFixed(1)}× (range ${Math.min(...ratios).toFixed(1)}–${Math.max(...ratios).toFixed(1)}×); ` +
      `second pass: ${median(warmRatios).toFixed(1)}× (${Math.min(...warmRatios).toFixed(1)}–${Math.max(...warmRatios).toFixed(1)}×)`,
  );
  console.log(
    `  CPU time, old / first pass: ${f(median(rounds.map((x) => x.oldCpu)))} / ${f(median(rounds.map((x) => x.coldCpu)))} ms, ` +
      `median of rounds ${median(cpuRatios).toFixed(1)}× (range ${Math.min(...cpuRatios).toFixed(1)}–${Math.max(...cpuRatios).toFixed(1)}×)`,
  );

  const end = id === 'llama3' ? '<|eot_id|>' : '<|endoftext|>';
  const ended = texts.map((t) => t + end);
  const endedRounds = [];
  for (let r = 0; r < REPS; r++) {
    const fresh = makeTokenCounter(json(), config);
    const passOn = (count) => {
      const t0 = performance.now();
      let tokens = 0;
      for (const t of ended) tokens += count(t);
      return { ms: performance.now() - t0, tokens };
    };
    const [o, n] = r % 2 === 0 ? [passOn(old), passOn(fresh)] : [passOn(fresh), passOn(old)].reverse();
    if (n.tokens !== o.tokens) throw new Error(`${id}: token totals with ${end} differ (${n.tokens} vs ${o.tokens})`);
    endedRounds.push({ old: o.ms, cold: n.ms });
  }
  const endedRatios = endedRounds.map((x) => x.old / x.cold);
  console.log(
    `  texts ending in ${end}: old ${f(median(endedRounds.map((x) => x.old)))} ms, new first pass ${f(median(endedRounds.map((x) => x.cold)))} ms, ` +
      `speed-up median of rounds ${median(endedRatios).toFixed(1)}× (range ${Math.min(...endedRatios).toFixed(1)}–${Math.max(...endedRatios).toFixed(1)}×)`,
  );
}
