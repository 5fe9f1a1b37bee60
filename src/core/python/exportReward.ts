import { withShaping } from '../shaping/exportPython';
import type { ShapeSpec } from '../shaping/spec';
import type { RewardCandidate } from './signatures';

export type ExportTarget = 'trl' | 'verl';

/**
 * The user's Python reward as a file ready for a trainer, with a short usage comment on top:
 * - TRL: `GRPOTrainer(reward_funcs=[f])` calls `f(prompts=, completions=, completion_ids=, **columns)` per batch and
 *   wants one float (or None) per completion. A TRL function is exported as it is; a verl `compute_score` or an
 *   OpenRLHF `reward_func` gets an adapter `<name>_trl` with TRL's signature that calls it.
 * - verl: `custom_reward_function.path=<file> custom_reward_function.name=<fn>`; the reward manager calls
 *   `fn(data_source=, solution_str=, ground_truth=, extra_info=)` per rollout. A verl function is exported as it is;
 *   a TRL or OpenRLHF one gets an adapter `compute_score_<name>` that calls it on a batch of one.
 * The returned `functionName` is what the trainer should be pointed at.
 */
export function exportReward(
  code: string,
  fn: RewardCandidate,
  target: ExportTarget,
  fileName = 'reward.py',
  /** The Shaping list: applied by a `<function>_shaped` wrapper the trainer is pointed at (core/shaping/exportPython). */
  shaping: readonly ShapeSpec[] = [],
): { text: string; functionName: string } {
  const plain = exportPlain(code, fn, target, fileName);
  if (shaping.length === 0) return plain;
  // A verl batch function is called once for many rollouts, with no groups.
  if (fn.kind === 'verl-batch' && target === 'verl')
    throw new Error("a verl batch reward cannot be exported with a Shaping list (verl's batch manager gives no groups)");
  // A TRL list: the wrapper makes TRL's weighted sum itself (then shapes it), so the trainer gets one function.
  const weights = fn.functions && target === 'trl' ? fn.functions.map((f) => f.weight) : undefined;
  return withShaping(plain.text, plain.functionName, shaping, target, weights);
}

function exportPlain(code: string, fn: RewardCandidate, target: ExportTarget, fileName: string): { text: string; functionName: string } {
  const body = code.endsWith('\n') ? code : `${code}\n`;
  const completionText = [
    '',
    'def _completion_text(c):',
    '    # TRL passes conversational completions as [{"role": "assistant", "content": ...}]',
    '    if isinstance(c, list):',
    '        return "".join(m.get("content") or "" for m in c if isinstance(m, dict))',
    '    return c',
    '',
  ].join('\n');
  if (fn.functions) return exportList(body, fn.name, fn.functions, target, fileName);
  if (target === 'trl') {
    if (fn.kind === 'trl') {
      return {
        functionName: fn.name,
        text:
          header([
            `Reward for TRL, exported from Reward Studio.`,
            '',
            `    from ${module(fileName)} import ${fn.name}`,
            `    trainer = GRPOTrainer(..., reward_funcs=[${fn.name}])`,
          ]) + body,
      };
    }
    const name = `${fn.name}_trl`;
    let adapter: string[];
    if (fn.kind === 'verl' || fn.kind === 'verl-source') {
      const call =
        fn.kind === 'verl'
          ? `${fn.name}(data_source=ds, solution_str=_completion_text(c), ground_truth=gt, extra_info=ex)`
          : `${fn.name}(_completion_text(c), gt)`;
      adapter = [
        `def ${name}(completions, ground_truth=None, data_source=None, extra_info=None, **kwargs):`,
        `    """TRL signature around verl's ${fn.name}: one call per completion; dataset columns arrive as lists."""`,
        '    n = len(completions)',
        '    gts = ground_truth if ground_truth is not None else [None] * n',
        '    sources = data_source if data_source is not None else [""] * n',
        '    extras = extra_info if extra_info is not None else [{}] * n',
        '    out = []',
        '    for c, gt, ds, ex in zip(completions, gts, sources, extras):',
        `        r = ${call}`,
        '        out.append(None if r is None else float(r["score"] if isinstance(r, dict) else r))',
        '    return out',
      ];
    } else if (fn.kind === 'verl-batch') {
      adapter = [
        `def ${name}(completions, ground_truth=None, data_source=None, extra_info=None, **kwargs):`,
        `    """TRL signature around verl's batch reward ${fn.name}."""`,
        '    n = len(completions)',
        `    rs = ${fn.name}(data_sources=data_source or [""] * n, solution_strs=[_completion_text(c) for c in completions], ground_truths=ground_truth or [None] * n, extra_infos=extra_info or [{}] * n)`,
        '    return [None if r is None else float(r["score"] if isinstance(r, dict) else r) for r in rs]',
      ];
    } else {
      adapter = [
        `def ${name}(prompts, completions, ground_truth=None, **kwargs):`,
        `    """TRL signature around OpenRLHF's ${fn.name}(queries, prompts, labels); queries = prompt + completion text."""`,
        '    texts = [_completion_text(c) for c in completions]',
        '    ps = [_completion_text(p) for p in prompts]',
        `    r = ${fn.name}([p + c for p, c in zip(ps, texts)], ps, ground_truth if ground_truth is not None else [None] * len(texts))`,
        '    rewards = r["rewards"] if isinstance(r, dict) else r',
        '    return [float(x) for x in (rewards.tolist() if hasattr(rewards, "tolist") else rewards)]',
      ];
    }
    return {
      functionName: name,
      text:
        header([
          `Reward for TRL, exported from Reward Studio (${fn.kind} function ${fn.name} with a TRL adapter).`,
          '',
          `    from ${module(fileName)} import ${name}`,
          `    trainer = GRPOTrainer(..., reward_funcs=[${name}])`,
        ]) +
        body +
        completionText +
        '\n' +
        adapter.join('\n') +
        '\n',
    };
  }
  if (fn.kind === 'verl' || fn.kind === 'verl-batch') {
    return {
      functionName: fn.name,
      text:
        header([
          'Reward for verl, exported from Reward Studio. In the trainer config:',
          '',
          `    custom_reward_function.path=${fileName} custom_reward_function.name=${fn.name}`,
          ...(fn.kind === 'verl-batch' ? ['    reward_model.reward_manager=batch'] : []),
        ]) + body,
    };
  }
  if (fn.kind === 'verl-source') {
    // verl's reward manager calls the custom function by keyword; a per-source scorer takes (solution_str, ground_truth).
    const name = `${fn.name}_custom`;
    return {
      functionName: name,
      text:
        header([
          `Reward for verl, exported from Reward Studio (per-source scorer ${fn.name} with the custom-function signature). In the trainer config:`,
          '',
          `    custom_reward_function.path=${fileName} custom_reward_function.name=${name}`,
        ]) +
        body +
        '\n\n' +
        [
          `def ${name}(data_source, solution_str, ground_truth, extra_info=None, **kwargs):`,
          `    """verl custom-function signature around ${fn.name}(solution_str, ground_truth), as default_compute_score calls it."""`,
          `    return ${fn.name}(solution_str, ground_truth)`,
        ].join('\n') +
        '\n',
    };
  }
  const name = `compute_score_${fn.name}`;
  const call =
    fn.kind === 'trl'
      ? [
          `    rs = ${fn.name}(prompts=[None], completions=[solution_str], completion_ids=[None], ground_truth=[ground_truth], data_source=[data_source], extra_info=[extra_info or {}])`,
          '    r = rs[0]',
        ]
      : [
          `    r = ${fn.name}([solution_str], [""], [ground_truth])`,
          '    r = r["rewards"] if isinstance(r, dict) else r',
          '    r = (r.tolist() if hasattr(r, "tolist") else list(r))[0]',
        ];
  return {
    functionName: name,
    text:
      header([
        'Reward for verl, exported from Reward Studio (' + fn.kind + ' function ' + fn.name + ' with a verl adapter). In the trainer config:',
        '',
        `    custom_reward_function.path=${fileName} custom_reward_function.name=${name}`,
      ]) +
      body +
      '\n\n' +
      [
        `def ${name}(data_source, solution_str, ground_truth, extra_info=None):`,
        `    """verl signature around ${fn.name}: a batch of one rollout."""`,
        ...call,
        '    return 0.0 if r is None else float(r)',
      ].join('\n') +
      '\n',
  };
}

/**
 * A `reward_funcs` list: TRL gets the list itself and its weights (GRPOConfig's `reward_weights`); verl gets one custom
 * function that calls each TRL reward on a batch of one and sums weight × value, None left out, as TRL does.
 */
function exportList(
  body: string,
  name: string,
  functions: readonly { name: string; weight: number }[],
  target: ExportTarget,
  fileName: string,
): { text: string; functionName: string } {
  const weights = `[${functions.map((f) => String(f.weight)).join(', ')}]`;
  if (target === 'trl') {
    return {
      functionName: name,
      text:
        header([
          `Rewards for TRL, exported from Reward Studio (${functions.map((f) => f.name).join(', ')}).`,
          '',
          `    from ${module(fileName)} import ${name}`,
          `    trainer = GRPOTrainer(..., reward_funcs=${name}, args=GRPOConfig(..., reward_weights=${weights}))`,
        ]) + body,
    };
  }
  const fn = `compute_score_${name}`;
  return {
    functionName: fn,
    text:
      header([
        `Reward for verl, exported from Reward Studio (TRL's ${name} with reward_weights ${weights}, summed as TRL sums them). In the trainer config:`,
        '',
        `    custom_reward_function.path=${fileName} custom_reward_function.name=${fn}`,
      ]) +
      body +
      '\n\n' +
      [
        `def ${fn}(data_source, solution_str, ground_truth, extra_info=None):`,
        `    """verl signature around TRL's ${name}: each reward on a batch of one, weight × value summed, None left out."""`,
        '    total = 0.0',
        `    for f, w in zip(${name}, ${weights}):`,
        '        r = f(prompts=[None], completions=[solution_str], completion_ids=[None], ground_truth=[ground_truth], data_source=[data_source], extra_info=[extra_info or {}])[0]',
        '        if r is not None:',
        '            total += w * float(r)',
        '    return total',
      ].join('\n') +
      '\n',
  };
}

const module = (fileName: string) => fileName.replace(/\.py$/, '').replace(/[^\w]/g, '_');
const header = (lines: string[]) => `# ${lines.join('\n# ').replace(/# $/gm, '#')}\n\n`;
