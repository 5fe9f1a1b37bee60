import { describe, expect, it } from 'vitest';
import { inspectModelFolder, type PickedFile } from './modelFolder';

const file = (path: string, content: string | object, size?: number): PickedFile => {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  return { path, size: size ?? text.length, text: async () => text };
};
const TOKENIZER = { version: '1.0', model: { type: 'BPE', vocab: { a: 0 }, merges: [] } };

describe('inspectModelFolder', () => {
  it('reads an Optimum export: onnx/ variants, labels, max length, chat template', async () => {
    const r = await inspectModelFolder([
      file('Skywork-RM/config.json', {
        architectures: ['LlamaForSequenceClassification'],
        model_type: 'llama',
        num_labels: 1,
        id2label: { '0': 'LABEL_0' },
        max_position_embeddings: 4096,
        _name_or_path: 'Skywork/Skywork-Reward-V2',
      }),
      file('Skywork-RM/tokenizer.json', TOKENIZER),
      file('Skywork-RM/tokenizer_config.json', { model_max_length: 1e30, chat_template: '{% for m in messages %}{{ m.content }}{% endfor %}' }),
      file('Skywork-RM/onnx/model_quantized.onnx', 'x', 100),
      file('Skywork-RM/onnx/model.onnx', 'x', 400),
      file('Skywork-RM/onnx/model_fp16.onnx', 'x', 200),
    ]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const f = r.folder;
    expect(f.name).toBe('Skywork/Skywork-Reward-V2');
    expect(f.onnx.map((o) => [o.path, o.dtype])).toEqual([
      ['Skywork-RM/onnx/model.onnx', 'fp32'],
      ['Skywork-RM/onnx/model_fp16.onnx', 'fp16'],
      ['Skywork-RM/onnx/model_quantized.onnx', 'quantized'],
    ]);
    expect(f.labels).toEqual(['LABEL_0']);
    expect(f.maxLength).toBe(4096); // 1e30 means "no limit": the position embeddings decide
    expect(f.chatTemplate).toContain('for m in messages');
    expect(f.architectures).toEqual(['LlamaForSequenceClassification']);
  });

  it('takes model.onnx at the top, several labels, and the tokenizer limit when it is real', async () => {
    const r = await inspectModelFolder([
      file('config.json', { num_labels: 2, id2label: { '0': 'NEGATIVE', '1': 'POSITIVE' }, max_position_embeddings: 514 }),
      file('tokenizer.json', TOKENIZER),
      file('tokenizer_config.json', { model_max_length: 512 }),
      file('model.onnx', 'x'),
    ]);
    expect(r.ok && r.folder.labels).toEqual(['NEGATIVE', 'POSITIVE']);
    expect(r.ok && r.folder.maxLength).toBe(512);
    expect(r.ok && r.folder.chatTemplate).toBeNull();
    expect(r.ok && r.folder.name).toBe('model'); // no folder, no _name_or_path: the file's name
  });

  it('names what is missing', async () => {
    const r = await inspectModelFolder([file('m/config.json', {}), file('m/model.onnx', 'x')]);
    expect(r).toEqual({ ok: false, message: expect.stringContaining('tokenizer.json is missing') });
    const r2 = await inspectModelFolder([file('m/config.json', {}), file('m/tokenizer.json', TOKENIZER)]);
    expect(r2).toEqual({ ok: false, message: expect.stringContaining('an ONNX model (model.onnx or onnx/model*.onnx) is missing') });
    expect(await inspectModelFolder([])).toEqual({ ok: false, message: 'no files were picked' });
  });

  it('reports broken JSON with the file', async () => {
    const r = await inspectModelFolder([file('m/config.json', '{oops'), file('m/tokenizer.json', TOKENIZER), file('m/model.onnx', 'x')]);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/^m\/config\.json is not valid JSON/);
    const r2 = await inspectModelFolder([file('m/config.json', {}), file('m/tokenizer.json', { version: '1.0' }), file('m/model.onnx', 'x')]);
    expect(!r2.ok && r2.message).toBe('m/tokenizer.json is not a tokenizers file (it has no "model")');
  });
});
