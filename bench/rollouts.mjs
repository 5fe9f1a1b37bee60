// A generated GRPO dump for benchmarks: groups of 4 completions per prompt, ~900 bytes of text per rollout.
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync, writeSync } from 'node:fs';

export function writeRollouts(path, rows) {
  const words =
    'the of and to a in is that for it as was with be by on not he this are or his from at which but have an they you were her she there would their we him been has when who will more no if out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people'.split(
      ' ',
    );
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const text = (n) => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ');
  // Written in blocks: a million rows (~830 MB) is more than one JavaScript string can hold.
  const fd = openSync(path, 'w');
  let lines = [];
  let prompt = '';
  for (let i = 0; i < rows; i++) {
    if (i % 4 === 0) prompt = `Question ${i / 4}: ${text(45)}?`;
    lines.push(
      JSON.stringify({
        prompt,
        completion: `${text(130)}\nA: ${Math.floor(rnd() * 1000)}`,
        ground_truth: String(Math.floor(rnd() * 1000)),
        uid: `q${Math.floor(i / 4)}`,
        step: Math.floor(i / 1000),
        model: 'policy-v1',
      }),
    );
    if (lines.length === 10_000 || i === rows - 1) {
      writeSync(fd, lines.join('\n') + '\n');
      lines = [];
    }
  }
  closeSync(fd);
}

/**
 * The scale benches' file of `rows` rollouts, bench/out/scale-<rows>.jsonl: written when missing or older than this
 * generator, else reused (the generator is deterministic; a million rows take ~20 s to write).
 */
export function scaleFile(rows, log = console.error) {
  mkdirSync('bench/out', { recursive: true });
  const path = `bench/out/scale-${rows}.jsonl`;
  if (!existsSync(path) || statSync(path).mtimeMs < statSync('bench/rollouts.mjs').mtimeMs) {
    log(`writing ${path} …`);
    writeRollouts(path, rows);
  }
  log(`${path}: ${(statSync(path).size / 1e6).toFixed(0)} MB`);
  return path;
}

/** `path` gzip-compressed (level 1) next to it, written once (again when the plain file is newer). */
export async function gzippedFile(path, log = console.error) {
  const gz = `${path}.gz`;
  if (!existsSync(gz) || statSync(gz).mtimeMs < statSync(path).mtimeMs) {
    log(`writing ${gz} …`);
    const { pipeline } = await import('node:stream/promises');
    const { createGzip } = await import('node:zlib');
    const { createReadStream, createWriteStream } = await import('node:fs');
    await pipeline(createReadStream(path), createGzip({ level: 1 }), createWriteStream(gz));
  }
  log(`${gz}: ${(statSync(gz).size / 1e6).toFixed(0)} MB`);
  return gz;
}

/**
 * `path` (the generator's JSONL) as Parquet next to it, written once (again when the JSONL is newer): the same columns,
 * Snappy, in row groups of 1,048,576 rows as pyarrow and pandas write them (so a million rows are one row group).
 * Written by a child process with a large heap: the writer holds every row.
 */
export async function parquetFile(path, log = console.error) {
  const out = path.replace(/\.jsonl$/, '.parquet');
  if (!existsSync(out) || statSync(out).mtimeMs < statSync(path).mtimeMs) {
    log(`writing ${out} …`);
    const { spawnSync } = await import('node:child_process');
    const script = `
      import { openSync, readSync, writeFileSync } from 'node:fs';
      import { parquetWriteBuffer } from 'hyparquet-writer';
      const names = ['prompt', 'completion', 'ground_truth', 'uid', 'step', 'model'];
      const cols = names.map(() => []);
      const fd = openSync(${JSON.stringify(path)}, 'r');
      const buf = Buffer.alloc(64 << 20);
      let rest = '';
      for (let got; (got = readSync(fd, buf, 0, buf.length, null)) > 0; ) {
        const lines = (rest + buf.toString('utf8', 0, got)).split('\\n');
        rest = lines.pop();
        for (const l of lines) if (l) { const r = JSON.parse(l); names.forEach((k, j) => cols[j].push(r[k])); }
      }
      const types = { step: 'INT32' };
      const out = parquetWriteBuffer({ rowGroupSize: 1 << 20, columnData: names.map((name, j) => ({ name, type: types[name] ?? 'STRING', data: cols[j] })) });
      writeFileSync(${JSON.stringify(out)}, new Uint8Array(out));
    `;
    const r = spawnSync(process.execPath, ['--max-old-space-size=16000', '--input-type=module', '-e', script], { stdio: 'inherit', cwd: process.cwd() });
    if (r.status !== 0) throw new Error(`writing ${out} failed`);
  }
  log(`${out}: ${(statSync(out).size / 1e6).toFixed(0)} MB`);
  return out;
}

/**
 * `path` (the generator's JSONL) as OpenAI chat records next to it (`-chat.jsonl`), written once (again when the JSONL
 * is newer): each rollout a conversation with a system turn, the prompt, a calculator tool call, the tool's reply and
 * the completion as the final assistant turn; ground_truth, uid, step and model as before.
 */
export function chatFile(path, log = console.error) {
  const out = path.replace(/\.jsonl$/, '-chat.jsonl');
  if (!existsSync(out) || statSync(out).mtimeMs < statSync(path).mtimeMs) {
    log(`writing ${out} …`);
    const system = 'You are a careful math assistant. Use the calculator tool when a step needs arithmetic.';
    const fd = openSync(path, 'r');
    const outFd = openSync(out, 'w');
    const buf = Buffer.alloc(64 << 20);
    let rest = '';
    let i = 0;
    for (let got; (got = readSync(fd, buf, 0, buf.length, null)) > 0;) {
      const lines = (rest + buf.toString('utf8', 0, got)).split('\n');
      rest = lines.pop();
      const chats = [];
      for (const l of lines) {
        if (!l) continue;
        const r = JSON.parse(l);
        const id = `call_${i}`;
        const n = i++ % 997;
        chats.push(
          JSON.stringify({
            messages: [
              { role: 'system', content: system },
              { role: 'user', content: r.prompt },
              {
                role: 'assistant',
                content: '',
                tool_calls: [{ id, type: 'function', function: { name: 'calculator', arguments: JSON.stringify({ expression: `${n} * 3` }) } }],
              },
              { role: 'tool', tool_call_id: id, content: String(n * 3) },
              { role: 'assistant', content: r.completion },
            ],
            ground_truth: r.ground_truth,
            uid: r.uid,
            step: r.step,
            model: r.model,
          }),
        );
      }
      writeSync(outFd, chats.join('\n') + '\n');
    }
    closeSync(fd);
    closeSync(outFd);
  }
  log(`${out}: ${(statSync(out).size / 1e6).toFixed(0)} MB`);
  return out;
}
