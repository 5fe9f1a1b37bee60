/** `--shape` values: each parsed and normalised (core/shaping/spec.ts); the first bad part is named, for exit 2. */
import { normaliseShapes, parseShapeArg, type ShapeSpec } from '../core/shaping/spec';

export function shapeOptions(args: readonly string[]): ShapeSpec[] | string {
  const specs: ShapeSpec[] = [];
  for (const a of args) {
    const p = parseShapeArg(a);
    if (!p.ok) return `--shape ${JSON.stringify(a)}: ${p.message}`;
    specs.push(p.value);
  }
  const all = normaliseShapes(specs);
  return all.ok ? all.value : `--shape: ${all.message}`;
}
