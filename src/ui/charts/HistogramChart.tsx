import { useRef, useState, type KeyboardEvent } from 'react';
import type { Histogram } from '../../core/stats/histogram';
import { countLabel, countTicks, rangeLabel, tickLabel } from './axis';
import { useElementSize } from './useElementSize';

export interface HistogramSeries {
  /** Legend text, e.g. "run #5 (current)". */
  name: string;
  color: string;
  /** One count per bin of the histogram. */
  counts: number[];
}

interface Props {
  /** Accessible name of the bars' group. */
  label: string;
  /** What the x axis measures ("reward"): names each bin ("reward −2 to −1.75"). */
  valueName: string;
  histogram: Histogram;
  /** Drawn side by side in each bin, in this order, all on the histogram's bins. */
  series: HistogramSeries[];
  /** Opens the rollouts behind bin `b` (always those of the run the chart is about, whichever bar was clicked). */
  onOpenBin(b: number): void;
}

const PAD = { right: 12, top: 8, bottom: 20 };
const CHAR_W = 6.5; // 11 px system-ui digits, for fitting tick labels
const LABEL_GAP = 10;

/** What a bin stands for: its value (one bar per value) or its range. */
export function binName(h: Histogram, b: number): string {
  const bin = h.bins[b];
  return bin.value !== undefined ? tickLabel(bin.value) : rangeLabel(bin.x0, bin.x1);
}

/** Every k-th label, k as small as lets labels `width` px wide sit `slot` px apart without touching. */
const thin = (slot: number, width: number) => Math.max(1, Math.ceil((width + LABEL_GAP) / Math.max(slot, 1e-9)));

/**
 * A histogram drawn in SVG on equal bins: one bar per series in each bin (runs side by side, never stacked or drawn
 * over each other), x labels at bar centres for one-bar-per-value data and at bin edges otherwise, compact counts.
 * Each bin is one button (Tab to the chart, arrow keys between bins, Enter opens its rollouts).
 */
export function HistogramChart({ label, valueName, histogram: h, series, onOpenBin }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const size = useElementSize(host);
  const [hover, setHover] = useState<number | null>(null);
  const [focus, setFocus] = useState(0);
  const binRefs = useRef<(SVGRectElement | null)[]>([]);

  const n = h.bins.length;
  const focused = Math.min(focus, Math.max(0, n - 1));
  const max = Math.max(0, ...series.flatMap((s) => s.counts));
  const yTicks = countTicks(max);
  const top = yTicks[yTicks.length - 1];
  const left = Math.max(...yTicks.map((t) => countLabel(t).length)) * CHAR_W + 10;
  const plotW = Math.max(0, size.w - left - PAD.right);
  const plotH = Math.max(0, size.h - PAD.top - PAD.bottom);
  const slot = n ? plotW / n : 0;
  const group = slot * (h.kind === 'discrete' ? 0.7 : 0.92);
  const barW = series.length ? group / series.length : 0;
  const sy = (c: number) => PAD.top + plotH - (c / top) * plotH;
  const binText = (b: number) => {
    const counts = series.map((s) => `${s.name}: ${s.counts[b].toLocaleString('en-US')}`);
    return `${valueName} ${binName(h, b)}, ${series.length === 1 ? `${series[0].counts[b].toLocaleString('en-US')} rollouts` : counts.join(', ')}`;
  };

  // x labels: bar centres (a value per bar) or bin edges (ranges), thinned to fit.
  const xLabels: { x: number; text: string }[] = [];
  if (h.kind === 'discrete') {
    const k = thin(slot, Math.max(...h.bins.map((_, b) => binName(h, b).length)) * CHAR_W);
    for (let b = 0; b < n; b += k) xLabels.push({ x: left + (b + 0.5) * slot, text: binName(h, b) });
  } else if (n) {
    const edges = [...h.bins.map((b) => b.x0), h.bins[n - 1].x1];
    const k = thin(slot, Math.max(...edges.map((e) => tickLabel(e).length)) * CHAR_W);
    for (let e = 0; e <= n; e += k) xLabels.push({ x: left + e * slot, text: tickLabel(edges[e]) });
  }

  const move = (e: KeyboardEvent, b: number) => {
    const next = e.key === 'ArrowRight' ? b + 1 : e.key === 'ArrowLeft' ? b - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : null;
    if (next !== null) {
      e.preventDefault();
      const to = Math.max(0, Math.min(n - 1, next));
      setFocus(to);
      binRefs.current[to]?.focus();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onOpenBin(b);
    }
  };

  return (
    <div className="hist">
      {series.length > 1 ? (
        <ul className="hist-legend" aria-label="Runs shown">
          {series.map((s) => (
            <li key={s.name}>
              <span className="swatch" style={{ background: s.color }} aria-hidden="true" />
              {s.name}
            </li>
          ))}
        </ul>
      ) : null}
      <div ref={host} className="hist-plot">
        {size.w > 0 && n > 0 ? (
          <svg width={size.w} height={size.h} role="group" aria-label={label}>
            {yTicks.map((t) => (
              <g key={t}>
                <line x1={left} x2={left + plotW} y1={sy(t)} y2={sy(t)} stroke="#d0d7de" strokeDasharray="3 3" />
                <text x={left - 6} y={sy(t) + 4} textAnchor="end" className="hist-tick hist-y">
                  {countLabel(t)}
                </text>
              </g>
            ))}
            {hover !== null ? <rect x={left + hover * slot} y={PAD.top} width={slot} height={plotH} fill="#eaeef2" /> : null}
            {h.bins.map((_, b) =>
              series.map((s, k) =>
                s.counts[b] > 0 ? (
                  <rect
                    key={`${b}-${k}`}
                    className="hist-bar"
                    data-series={k}
                    x={left + b * slot + (slot - group) / 2 + k * barW}
                    y={sy(s.counts[b])}
                    width={Math.max(1, barW - (series.length > 1 ? 1 : 0))}
                    height={Math.max(1, PAD.top + plotH - sy(s.counts[b]))}
                    fill={s.color}
                  />
                ) : null,
              ),
            )}
            <line x1={left} x2={left + plotW} y1={PAD.top + plotH} y2={PAD.top + plotH} stroke="#8c959f" />
            {xLabels.map((l, i) => (
              <text key={i} x={l.x} y={size.h - 6} textAnchor="middle" className="hist-tick hist-x">
                {l.text}
              </text>
            ))}
            {h.bins.map((_, b) => (
              <rect
                key={b}
                ref={(el) => {
                  binRefs.current[b] = el;
                }}
                className="hist-bin"
                role="button"
                tabIndex={b === focused ? 0 : -1}
                aria-label={binText(b)}
                x={left + b * slot}
                y={PAD.top}
                width={slot}
                height={plotH}
                fill="transparent"
                onMouseEnter={() => setHover(b)}
                onMouseLeave={() => setHover(null)}
                onFocus={() => setFocus(b)}
                onClick={() => {
                  setFocus(b);
                  onOpenBin(b);
                }}
                onKeyDown={(e) => move(e, b)}
              />
            ))}
          </svg>
        ) : null}
        {hover !== null && hover < n ? <div className="scatter-tip">{binText(hover)}</div> : null}
      </div>
    </div>
  );
}
