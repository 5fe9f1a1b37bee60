/** How far gzip may inflate (the import's and the CLI's inflated copies alike): a bomb stops early. */

/** Decompressed gzip past 64 MiB may be at most 100 times the file's size, and 16 GiB in all. */
export const GZIP_RATIO = 100;
const GZIP_RATIO_FROM = 64 * 2 ** 20;
const GZIP_MAX_BYTES = 16 * 2 ** 30;

/** Whether `out` bytes decompressed from a file of `fileBytes` are past those limits. */
export const inflatesPastLimit = (out: number, fileBytes: number): boolean => (out > GZIP_RATIO_FROM && out > GZIP_RATIO * fileBytes) || out > GZIP_MAX_BYTES;
