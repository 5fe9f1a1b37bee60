import { useEffect, useRef, useState } from 'react';
import { fmtTick } from './format';
import { niceTicks, tickLabel } from '../charts/axis';
import { useElementSize } from '../charts/useElementSize';

export interface ScatterPoint {
  x: number;
  y: number;
  row: number;
}
export interface LinePoint {
  x: number;
  y: number;
  bin: number;
}

interface Props {
  label: string;
  points: ScatterPoint[];
  /** A series drawn over the points as a line with markers (e.g. binned means). */
  line?: LinePoint[];
  xLabel: string;
  yLabel: string;
  onPoint?(row: number): void;
  onLinePoint?(bin: number): void;
}

const PAD = { left: 46, right: 10, top: 8, bottom: 30 };
const HIT = 7;

function extent(vals: number[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of vals) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!Number.isFinite(lo)) return [0, 1];
  if (lo === hi) return [lo - 0.5, hi + 0.5];
  const pad = (hi - lo) * 0.03;
  return [lo - pad, hi + pad];
}

/**
 * A scatter of a few thousand points drawn on a canvas (SVG charts spend ~0.2 ms per point in the DOM; this draws
 * 3,000 in a few ms), with an optional line series over it. Clicking a point or a line marker calls back with its row
 * or bin. The figure around it carries the accessible name; `data-*` attributes expose what is drawn.
 */
export function ScatterCanvas({ label, points, line, xLabel, yLabel, onPoint, onLinePoint }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const size = useElementSize(host);
  const [hover, setHover] = useState<string | null>(null);

  const [x0, x1] = extent([...points.map((p) => p.x), ...(line ?? []).map((p) => p.x)]);
  const [y0, y1] = extent([...points.map((p) => p.y), ...(line ?? []).map((p) => p.y)]);
  const sx = (x: number) => PAD.left + ((x - x0) / (x1 - x0)) * (size.w - PAD.left - PAD.right);
  const sy = (y: number) => size.h - PAD.bottom - ((y - y0) / (y1 - y0)) * (size.h - PAD.top - PAD.bottom);

  useEffect(() => {
    const c = canvas.current;
    if (!c || size.w === 0) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = size.w * dpr;
    c.height = size.h * dpr;
    const g = c.getContext('2d');
    if (!g) return;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, size.w, size.h);
    g.font = '11px system-ui, sans-serif';
    g.strokeStyle = '#d0d7de';
    g.fillStyle = '#59636e';
    g.lineWidth = 1;
    g.setLineDash([3, 3]);
    for (const t of niceTicks(x0, x1)) {
      const X = sx(t);
      g.beginPath();
      g.moveTo(X, PAD.top);
      g.lineTo(X, size.h - PAD.bottom);
      g.stroke();
      g.textAlign = 'center';
      g.fillText(tickLabel(t), X, size.h - PAD.bottom + 13);
    }
    for (const t of niceTicks(y0, y1, 4)) {
      const Y = sy(t);
      g.beginPath();
      g.moveTo(PAD.left, Y);
      g.lineTo(size.w - PAD.right, Y);
      g.stroke();
      g.textAlign = 'right';
      g.fillText(tickLabel(t), PAD.left - 4, Y + 4);
    }
    g.setLineDash([]);
    g.textAlign = 'center';
    g.fillText(xLabel, (PAD.left + size.w - PAD.right) / 2, size.h - 4);
    g.fillStyle = 'rgba(31, 111, 235, 0.35)';
    for (const p of points) {
      g.beginPath();
      g.arc(sx(p.x), sy(p.y), 3, 0, 2 * Math.PI);
      g.fill();
    }
    if (line && line.length) {
      g.strokeStyle = '#cf222e';
      g.fillStyle = '#cf222e';
      g.lineWidth = 2;
      g.beginPath();
      line.forEach((p, i) => (i ? g.lineTo(sx(p.x), sy(p.y)) : g.moveTo(sx(p.x), sy(p.y))));
      g.stroke();
      for (const p of line) {
        g.beginPath();
        g.arc(sx(p.x), sy(p.y), 4, 0, 2 * Math.PI);
        g.fill();
      }
    }
    // sx/sy depend only on the values listed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [points, line, size, x0, x1, y0, y1, xLabel]);

  const nearest = (mx: number, my: number) => {
    let best: { kind: 'line' | 'point'; i: number; d: number } | null = null;
    (line ?? []).forEach((p, i) => {
      const d = Math.hypot(sx(p.x) - mx, sy(p.y) - my);
      if (d <= HIT && (!best || d < best.d)) best = { kind: 'line', i, d };
    });
    if (best) return best as { kind: 'line' | 'point'; i: number; d: number };
    points.forEach((p, i) => {
      const d = Math.hypot(sx(p.x) - mx, sy(p.y) - my);
      if (d <= HIT && (!best || d < best.d)) best = { kind: 'point', i, d };
    });
    return best as { kind: 'line' | 'point'; i: number; d: number } | null;
  };
  const at = (e: React.MouseEvent) => {
    const r = (e.target as HTMLElement).getBoundingClientRect();
    return nearest(e.clientX - r.left, e.clientY - r.top);
  };
  // Where the first point and the first line marker are drawn, for tests and tools that click them.
  const first = points[0];
  const firstLine = line?.[0];
  return (
    <div ref={host} className="scatter-host">
      <canvas
        ref={canvas}
        role="img"
        aria-label={`${label}: ${points.length} points${line ? `, ${line.length} binned means` : ''}; ${yLabel} against ${xLabel}`}
        style={{ width: size.w, height: size.h, cursor: hover ? 'pointer' : 'default' }}
        data-first-point={first && size.w ? `${Math.round(sx(first.x))},${Math.round(sy(first.y))}` : undefined}
        data-first-line={firstLine && size.w ? `${Math.round(sx(firstLine.x))},${Math.round(sy(firstLine.y))}` : undefined}
        onMouseMove={(e) => {
          const hit = at(e);
          setHover(
            hit
              ? hit.kind === 'line'
                ? `${yLabel} mean ${fmtTick(line![hit.i].y)} at ${fmtTick(line![hit.i].x)}`
                : `row ${points[hit.i].row}: ${yLabel} ${fmtTick(points[hit.i].y)}, ${fmtTick(points[hit.i].x)}`
              : null,
          );
        }}
        onMouseLeave={() => setHover(null)}
        onClick={(e) => {
          const hit = at(e);
          if (!hit) return;
          if (hit.kind === 'line') onLinePoint?.(line![hit.i].bin);
          else onPoint?.(points[hit.i].row);
        }}
      />
      {hover ? <div className="scatter-tip">{hover}</div> : null}
    </div>
  );
}
