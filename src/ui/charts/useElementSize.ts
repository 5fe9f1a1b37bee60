import { useEffect, useState, type RefObject } from 'react';

/** The element's client size, kept current with a ResizeObserver (it reports once on observe): charts use the room they have. */
export function useElementSize(host: RefObject<HTMLElement | null>): { w: number; h: number } {
  const [size, setSize] = useState({ w: 0, h: 0 });
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth, h: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, [host]);
  return size;
}
