/**
 * A reward model picked from disk, in the Hugging Face export layout (what `optimum-cli export onnx --task
 * text-classification` writes):
 *
 *   config.json  tokenizer.json  tokenizer_config.json  (special_tokens_map.json)
 *   model.onnx                   or  onnx/model.onnx, onnx/model_fp16.onnx, onnx/model_quantized.onnx, …
 *
 * `inspectModelFolder` finds those files among the picked ones (a folder or loose files, any depth), reads the
 * JSON and says clearly what is missing. Nothing is fetched from a hub.
 */

export interface PickedFile {
  /** Path relative to the picked folder (`webkitRelativePath`), or just the name for loose files. */
  path: string;
  size: number;
  text(): Promise<string>;
}

export interface OnnxVariant {
  path: string;
  size: number;
  /** fp32, fp16, int8 / uint8 / q4 (quantized), from the file name as Optimum and transformers.js name them. */
  dtype: 'fp32' | 'fp16' | 'quantized';
}

export interface ModelFolder {
  /** The folder's name, or the model's `_name_or_path` from config.json. */
  name: string;
  onnx: OnnxVariant[];
  architectures: string[];
  modelType: string | null;
  /** Output labels of the classification head (`id2label`); one label: a reward head, its raw logit is the score. */
  labels: string[];
  /** Longest input the model takes: tokenizer_config `model_max_length` when sane, else config `max_position_embeddings`. */
  maxLength: number | null;
  /** The tokenizer's chat template (Jinja), when it has one: conversations are rendered with it. */
  chatTemplate: string | null;
  tokenizerJson: string;
  tokenizerConfig: Record<string, unknown>;
  config: Record<string, unknown>;
}

export type InspectResult = { ok: true; folder: ModelFolder } | { ok: false; message: string };

const base = (p: string) => p.split('/').pop() ?? p;
const dir = (p: string) => p.split('/').slice(0, -1);

function dtypeOf(name: string): OnnxVariant['dtype'] {
  if (/fp16|float16/i.test(name)) return 'fp16';
  if (/quant|int8|uint8|q4|bnb4|q8/i.test(name)) return 'quantized';
  return 'fp32';
}

/** The file named `name` closest to the root of the pick (a folder pick puts everything under one top folder). */
function find(files: PickedFile[], name: string): PickedFile | undefined {
  return files.filter((f) => base(f.path) === name).sort((a, b) => a.path.split('/').length - b.path.split('/').length)[0];
}

async function readJson(f: PickedFile): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; message: string }> {
  try {
    const v: unknown = JSON.parse(await f.text());
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, message: `${f.path} is not a JSON object` };
    return { ok: true, value: v as Record<string, unknown> };
  } catch (e) {
    return { ok: false, message: `${f.path} is not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
}

export async function inspectModelFolder(files: PickedFile[]): Promise<InspectResult> {
  if (files.length === 0) return { ok: false, message: 'no files were picked' };
  const onnx = files
    .filter((f) => /\.onnx$/i.test(f.path))
    .map((f): OnnxVariant => ({ path: f.path, size: f.size, dtype: dtypeOf(base(f.path)) }))
    .sort((a, b) => ['fp32', 'fp16', 'quantized'].indexOf(a.dtype) - ['fp32', 'fp16', 'quantized'].indexOf(b.dtype) || a.path.localeCompare(b.path));
  const missing: string[] = [];
  if (onnx.length === 0) missing.push('an ONNX model (model.onnx or onnx/model*.onnx)');
  const tok = find(files, 'tokenizer.json');
  if (!tok) missing.push('tokenizer.json');
  const cfgFile = find(files, 'config.json');
  if (!cfgFile) missing.push('config.json');
  if (missing.length) {
    return {
      ok: false,
      message: `the picked files are not a Hugging Face model export: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing (export with e.g. \`optimum-cli export onnx --task text-classification\`)`,
    };
  }
  const cfg = await readJson(cfgFile!);
  if (!cfg.ok) return cfg;
  const tokCfgFile = find(files, 'tokenizer_config.json');
  const tokCfg = tokCfgFile ? await readJson(tokCfgFile) : { ok: true as const, value: {} };
  if (!tokCfg.ok) return tokCfg;
  const tokenizerJson = await tok!.text();
  try {
    const t = JSON.parse(tokenizerJson) as { model?: unknown };
    if (typeof t !== 'object' || t === null || !t.model) return { ok: false, message: `${tok!.path} is not a tokenizers file (it has no "model")` };
  } catch {
    return { ok: false, message: `${tok!.path} is not valid JSON` };
  }
  const config = cfg.value;
  const tokenizerConfig = tokCfg.value;
  const id2label = (config.id2label ?? {}) as Record<string, unknown>;
  const numLabels = typeof config.num_labels === 'number' ? config.num_labels : Object.keys(id2label).length || 1;
  const labels = Array.from({ length: numLabels }, (_, i) => (typeof id2label[String(i)] === 'string' ? (id2label[String(i)] as string) : `LABEL_${i}`));
  const mml = tokenizerConfig.model_max_length;
  const mpe = config.max_position_embeddings;
  // Many tokenizer configs say 1e30 ("no limit"): then the position embeddings are the limit.
  const maxLength = typeof mml === 'number' && mml > 0 && mml < 1e7 ? mml : typeof mpe === 'number' && mpe > 0 ? mpe : null;
  const rawTemplate = tokenizerConfig.chat_template;
  const chatTemplate =
    typeof rawTemplate === 'string'
      ? rawTemplate
      : Array.isArray(rawTemplate)
        ? ((rawTemplate.find((t) => (t as { name?: string }).name === 'default') as { template?: string } | undefined)?.template ?? null)
        : null;
  const top = dir(files[0].path)[0];
  const name = typeof config._name_or_path === 'string' && config._name_or_path ? config._name_or_path : top || base(onnx[0].path).replace(/\.onnx$/i, '');
  return {
    ok: true,
    folder: {
      name,
      onnx,
      architectures: Array.isArray(config.architectures) ? config.architectures.filter((a): a is string => typeof a === 'string') : [],
      modelType: typeof config.model_type === 'string' ? config.model_type : null,
      labels,
      maxLength,
      chatTemplate,
      tokenizerJson,
      tokenizerConfig,
      config,
    },
  };
}
