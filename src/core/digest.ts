/** SHA-256 in hex, by Web Crypto (browsers, workers and Node ≥ 20 alike). */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export async function sha256HexOf(bytes: BufferSource | string): Promise<string> {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
  let s = '';
  for (let i = 0; i < d.length; i++) s += HEX[d[i]];
  return s;
}
