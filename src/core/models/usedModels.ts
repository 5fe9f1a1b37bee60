import { ENSEMBLE_NAME } from './naming';

/**
 * Which loaded reward models a reward reads, from its text: TypeScript reads `ctx.models.<id>` (or `models['<id>']`);
 * a Python reward gets every model's score at once (`model_scores`, `extra_info["rollout_reward_scores"]`), so it
 * uses all of them when it names either. A share link records these, so the recipient knows what to load.
 */
export function modelsUsedBy(code: string, language: 'ts' | 'py', ids: readonly string[]): string[] {
  if (language === 'py') return /\bmodel_scores\b|\brollout_reward_scores\b/.test(code) ? [...ids] : [];
  // `ctx.models.ensemble` combines every loaded model, so it needs them all.
  if (ids.length >= 2 && readsName(code, ENSEMBLE_NAME)) return [...ids];
  return ids.filter((id) => readsName(code, id));
}

function readsName(code: string, id: string): boolean {
  const e = id.replace(/[$]/g, '\\$');
  return new RegExp(`\\bmodels\\s*\\??\\.\\s*${e}(?![\\w$])|\\bmodels\\s*(?:\\?\\.)?\\[\\s*(['"\`])${e}\\1\\s*\\]`).test(code);
}
