import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { fmt } from '../diagnostics/format';
import { niceTicks, tickLabel } from './axis';
import { barWidth, extentOf, keyTarget, linear, nearestIndex, niceDomain, runsWhere, stackTops, stepAfterArea } from './stepGeometry';
import { useElementSize } from './useElementSize';

/** A line over the steps; NaN where a step has no value (the line breaks there). */
export interface StepLine {
  name: string;
  color: string;
  values: ArrayLike<number>;
  /** Decimals in the readout (fmt). */
  digits?: number;
  dashed?: boolean;
  /** A dot at each step, when the steps are few (≤ DENSE_STEPS). */
  dots?: boolean;
  /** Drawn against the right axis (rightDomain). */
  right?: boolean;
}
/** The area between lo and hi at each step (e.g. mean ± std). */
export interface StepBand {
  name: string;
  color: string;
  lo: ArrayLike<number>;
  hi: ArrayLike<number>;
  digits?: number;
}
/** A layer of a stack, bottom first: bars when the steps are few, stacked step areas when dense. */
export interface StepLayer {
  name: string;
  color: string;
  values: ArrayLike<number>;
  digits?: number;
}

interface Props {
  /** What is drawn, for the canvas's accessible name. */
  label: string;
  /** The steps drawn, ascending; every series has a value per step. */
  steps: ArrayLike<number>;
  lines?: readonly StepLine[];
  band?: StepBand;
  stack?: readonly StepLayer[];
  /** The left axis spans at least this (and more where values fall outside it); without it, 0 and the values. */
  yDomain?: [number, number];
  /** The right axis's domain, for lines with `right`. */
  rightDomain?: [number, number];
  /** Vertical grid lines at the x ticks. */
  xGrid?: boolean;
  /** A vertical line at a step, labelled. */
  reference?: { step: number; label: string; color: string };
  /** Series names and colours above the plot. */
  legend?: boolean;
  /** Opens the i-th step drawn (a click, or Enter on the highlighted step). */
  onStep?(i: number): void;
}

/**
 * Above this many steps drawn, bars are at most a few pixels wide: the stack is drawn as step areas and lines without
 * dots (as the Recharts charts did before this canvas).
 */
export const DENSE_STEPS = 300;
/** The domain of an axis of shares (fractions of groups or rows). */
export const SHARE_DOMAIN: [number, number] = [0, 1];
const TOP = 8;
const BOTTOM = 20;
const LEFT = 48;
const RIGHT = 12;
const RIGHT_AXIS = 38;
const GRID = '#d0d7de';
// Stable defaults: a fresh [] each render would redraw the canvas on every hover.
const NO_LINES: readonly StepLine[] = [];
const NO_LAYERS: readonly StepLayer[] = [];
const TEXT = '#59636e';

/** What the readout shows for a step: one line per series. */
function readout(props: Props, i: number): string[] {
  const { band, stack, lines } = props;
  const out: string[] = [];
  if (band) out.push(`${band.name}: ${fmt(band.lo[i], band.digits ?? 3)} to ${fmt(band.hi[i], band.digits ?? 3)}`);
  for (const l of stack ?? []) out.push(`${l.name}: ${fmt(l.values[i], l.digits ?? 3)}`);
  for (const l of lines ?? []) out.push(`${l.name}: ${fmt(l.values[i], l.digits ?? 3)}`);
  return out;
}

/**
 * Series over training steps drawn on one canvas in one pass: lines (with gaps and optional dots), a band, a stack,
 * a second axis, a reference line. Recharts spent 100–500 ms of main thread per chart on 1,000 steps; this draws
 * them in a few ms. A hover or the keyboard (Left/Right, Home/End, PageUp/PageDown) highlights a step and the
 * readout gives its values; a click or Enter opens it. `data-first-step-x` / `data-last-step-x` on the canvas are
 * the CSS-pixel x of the first and last step drawn, and `data-plot-y` a y inside the plot, for tests that click one.
 */
export function StepSeriesCanvas(props: Props) {
  const { label, steps, lines = NO_LINES, band, stack = NO_LAYERS, yDomain, rightDomain, xGrid = true, reference, legend, onStep } = props;
  const host = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const size = useElementSize(host);
  const [active, setActive] = useState<number | null>(null);
  const n = steps.length;
  const dense = n > DENSE_STEPS;
  const hasRight = lines.some((l) => l.right);

  const geom = useMemo(() => {
    const l = LEFT;
    const r = size.w - (hasRight ? RIGHT_AXIS : RIGHT);
    const t = TOP;
    const b = size.h - BOTTOM;
    const x0 = n ? steps[0] : 0;
    const x1 = n ? steps[n - 1] : 1;
    // Few steps: the plot is inset by half a bar, so the first and last bars stay inside it (the same in every chart).
    const inset = dense || n < 2 ? 0 : Math.min(12, barWidth([0, (r - l) / (n - 1)]) / 2);
    const sx = linear(x0, x1, l + inset, r - inset);
    const xs = new Float64Array(n);
    for (let i = 0; i < n; i++) xs[i] = sx(steps[i]);
    const tops = stackTops(
      stack.map((s) => s.values),
      n,
    );
    const leftValues = [
      ...lines.filter((s) => !s.right).map((s) => s.values),
      ...(band ? [band.lo, band.hi] : []),
      ...(tops.length ? [tops[tops.length - 1]] : []),
    ];
    const domainOf = (values: ArrayLike<number>[], fixed: [number, number] | undefined): [number, number] => {
      const [lo, hi] = extentOf(values, fixed ?? [0]);
      return fixed && lo >= fixed[0] && hi <= fixed[1] ? fixed : niceDomain(lo, hi);
    };
    const yd = domainOf(leftValues, yDomain);
    const rd = hasRight
      ? domainOf(
          lines.filter((s) => s.right).map((s) => s.values),
          rightDomain,
        )
      : null;
    return {
      l,
      r,
      t,
      b,
      x0,
      x1,
      xs,
      tops,
      yd,
      rd,
      sy: linear(yd[0], yd[1], b, t),
      sr: rd ? linear(rd[0], rd[1], b, t) : null,
      stepAt: linear(l + inset, r - inset, x0, x1),
    };
  }, [size, steps, n, dense, lines, band, stack, yDomain, rightDomain, hasRight]);

  useEffect(() => {
    const c = canvas.current;
    if (!c || size.w === 0 || n === 0) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = size.w * dpr;
    c.height = size.h * dpr;
    const g = c.getContext('2d');
    if (!g) return;
    const { l, r, t, b, xs, tops, yd, rd, sy, sr } = geom;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, size.w, size.h);
    g.font = '11px system-ui, sans-serif';
    g.lineWidth = 1;

    // Grid and ticks. Steps that are all whole numbers get whole-number ticks only.
    const whole = Array.prototype.every.call(steps, (s: number) => Number.isInteger(s));
    const xTicks = niceTicks(geom.x0, geom.x1, Math.max(2, Math.floor((r - l) / 70))).filter((v) => !whole || Number.isInteger(v));
    const sx = linear(geom.x0, geom.x1, xs[0], xs[n - 1]);
    g.strokeStyle = GRID;
    g.fillStyle = TEXT;
    g.setLineDash([3, 3]);
    g.textAlign = 'center';
    for (const v of n > 1 ? xTicks : [geom.x0]) {
      const X = sx(v);
      if (xGrid) {
        g.beginPath();
        g.moveTo(X, t);
        g.lineTo(X, b);
        g.stroke();
      }
      g.fillText(tickLabel(v), X, b + 14);
    }
    g.textAlign = 'right';
    for (const v of niceTicks(yd[0], yd[1], 4)) {
      const Y = sy(v);
      g.beginPath();
      g.moveTo(l, Y);
      g.lineTo(r, Y);
      g.stroke();
      g.fillText(tickLabel(v), l - 5, Y + 4);
    }
    if (rd && sr) {
      g.textAlign = 'left';
      for (const v of niceTicks(rd[0], rd[1], 4)) g.fillText(tickLabel(v), r + 5, sr(v) + 4);
    }
    g.setLineDash([]);

    const fillPoints = (pts: number[]) => {
      g.beginPath();
      for (let p = 0; p < pts.length; p += 2) (p ? g.lineTo : g.moveTo).call(g, pts[p], pts[p + 1]);
      g.closePath();
      g.fill();
    };
    const pixels = (vals: ArrayLike<number>, scale: (v: number) => number) => Float64Array.from({ length: n }, (_, i) => scale(vals[i]));

    // The band: straight segments between steps, broken where a bound is missing.
    if (band) {
      const lo = pixels(band.lo, sy);
      const hi = pixels(band.hi, sy);
      g.fillStyle = band.color;
      g.globalAlpha = 0.15;
      for (const [a, z] of runsWhere(n, (i) => Number.isFinite(lo[i]) && Number.isFinite(hi[i]))) {
        const pts: number[] = [];
        for (let i = a; i < z; i++) pts.push(xs[i], hi[i]);
        for (let i = z - 1; i >= a; i--) pts.push(xs[i], lo[i]);
        fillPoints(pts);
      }
      g.globalAlpha = 1;
    }

    // The stack: bars when few steps, stacked step areas (one path a layer) when dense.
    if (stack.length) {
      const any = (i: number) => stack.some((s) => Number.isFinite(s.values[i]));
      const zero = new Float64Array(n).fill(sy(0));
      const topPx = tops.map((tp) => pixels(tp, sy));
      if (dense) {
        const runs = runsWhere(n, any);
        stack.forEach((s, j) => {
          g.fillStyle = s.color;
          for (const [a, z] of runs) fillPoints(stepAfterArea(xs, j ? topPx[j - 1] : zero, topPx[j], a, z));
        });
      } else {
        const w = barWidth(xs);
        for (let i = 0; i < n; i++) {
          stack.forEach((s, j) => {
            const v = s.values[i];
            if (!(v > 0)) return;
            const base = j ? topPx[j - 1][i] : zero[i];
            g.fillStyle = s.color;
            g.fillRect(xs[i] - w / 2, topPx[j][i], w, base - topPx[j][i]);
          });
        }
      }
    }

    // Lines, broken at missing values; dots when the steps are few.
    g.lineWidth = 1.5;
    for (const line of lines) {
      const scale = line.right && sr ? sr : sy;
      const ys = pixels(line.values, scale);
      g.strokeStyle = line.color;
      g.setLineDash(line.dashed ? [4, 2] : []);
      for (const [a, z] of runsWhere(n, (i) => Number.isFinite(ys[i]))) {
        g.beginPath();
        for (let i = a; i < z; i++) (i > a ? g.lineTo : g.moveTo).call(g, xs[i], ys[i]);
        g.stroke();
      }
      g.setLineDash([]);
      if (line.dots && !dense) {
        g.fillStyle = '#fff';
        for (let i = 0; i < n; i++) {
          if (!Number.isFinite(ys[i])) continue;
          g.beginPath();
          g.arc(xs[i], ys[i], 2, 0, 2 * Math.PI);
          g.fill();
          g.stroke();
        }
      }
    }
    g.lineWidth = 1;

    if (reference && reference.step >= geom.x0 && reference.step <= geom.x1) {
      const X = n > 1 ? sx(reference.step) : xs[0];
      g.strokeStyle = reference.color;
      g.fillStyle = reference.color;
      g.setLineDash([4, 2]);
      g.beginPath();
      g.moveTo(X, t);
      g.lineTo(X, b);
      g.stroke();
      g.setLineDash([]);
      g.textAlign = X > (l + r) / 2 ? 'right' : 'left';
      g.fillText(reference.label, X + (X > (l + r) / 2 ? -4 : 4), t + 10);
    }
  }, [geom, size, n, steps, lines, band, stack, reference, xGrid, dense]);

  const pick = (e: MouseEvent<HTMLCanvasElement>) => {
    if (n === 0) return null;
    const rect = e.currentTarget.getBoundingClientRect();
    return nearestIndex(steps, geom.stepAt(e.clientX - rect.left));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    if (n === 0) return;
    const to = keyTarget(e.key, active, n);
    if (to !== null) {
      e.preventDefault();
      setActive(to);
    } else if ((e.key === 'Enter' || e.key === ' ') && active !== null && onStep) {
      e.preventDefault();
      onStep(active);
    }
  };

  const names = [...(band ? [band.name] : []), ...stack.map((s) => s.name), ...lines.map((s) => s.name)];
  const ready = size.w > 0 && n > 0;
  const activeX = active !== null && active < n ? geom.xs[active] : null;
  return (
    <div className="step-series">
      {legend ? (
        <ul className="hist-legend" aria-label="Legend">
          {band ? (
            <li>
              <span className="swatch" style={{ background: band.color, opacity: 0.3 }} aria-hidden="true" />
              {band.name}
            </li>
          ) : null}
          {stack.map((s) => (
            <li key={s.name}>
              <span className="swatch" style={{ background: s.color }} aria-hidden="true" />
              {s.name}
            </li>
          ))}
          {lines.map((s) => (
            <li key={s.name}>
              <span className="swatch-line" style={{ borderTopColor: s.color, borderTopStyle: s.dashed ? 'dashed' : 'solid' }} aria-hidden="true" />
              {s.name}
            </li>
          ))}
        </ul>
      ) : null}
      <div ref={host} className="step-plot">
        <canvas
          ref={canvas}
          role="img"
          tabIndex={0}
          aria-label={`${label}: ${names.join(', ')} over ${n} steps${n ? `, ${steps[0]} to ${steps[n - 1]}` : ''}; arrow keys read a step's values${onStep ? ', Enter opens its rollouts' : ''}`}
          style={{ width: size.w, height: size.h, cursor: onStep ? 'pointer' : 'crosshair' }}
          data-first-step-x={ready ? Math.round(geom.xs[0]) : undefined}
          data-last-step-x={ready ? Math.round(geom.xs[n - 1]) : undefined}
          data-plot-y={ready ? Math.round((geom.t + geom.b) / 2) : undefined}
          onMouseMove={(e) => setActive(pick(e))}
          onMouseLeave={() => setActive(null)}
          onBlur={() => setActive(null)}
          onClick={(e) => {
            const i = pick(e);
            if (i === null) return;
            setActive(i);
            onStep?.(i);
          }}
          onKeyDown={onKeyDown}
        />
        {activeX !== null ? <div className="step-cursor" style={{ left: activeX, top: geom.t, height: geom.b - geom.t }} aria-hidden="true" /> : null}
        <div
          className={activeX !== null && activeX > (geom.l + geom.r) / 2 ? 'step-tip step-tip-left' : 'step-tip'}
          style={activeX !== null && activeX > (geom.l + geom.r) / 2 ? { left: geom.l + 4 } : { right: size.w - geom.r + 4 }}
          aria-live="polite"
        >
          {active !== null && active < n ? (
            <>
              <strong>step {String(steps[active])}</strong>
              {readout(props, active).map((s, k) => (
                <span key={k}>{s}</span>
              ))}
            </>
          ) : null}
        </div>
      </div>
    </div>
  );
}
