import JSZip from "jszip";
import { ExtractError } from "./extract-error.ts";

/** Inflated size and entry count an office or EPUB archive may declare; real documents stay far below. */
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;
export const MAX_ENTRIES = 20_000;

/**
 * Opens a ZIP-based document after checking what its central directory declares, so an honest zip bomb is refused
 * before anything is inflated. A dishonest one (sizes that lie) still meets the worker's heap and time limits.
 */
export async function openZip(buf: Buffer, what: string): Promise<JSZip> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(buf, { checkCRC32: false });
  } catch {
    throw new ExtractError(`the file is not a valid ${what} (not a ZIP archive)`);
  }
  const entries = Object.values(zip.files);
  if (entries.length > MAX_ENTRIES) throw new ExtractError(`the archive has more than ${MAX_ENTRIES} entries`);
  let inflated = 0;
  for (const e of entries) {
    // JSZip keeps the central directory's declared size on `_data` (not in its typings).
    const size = (e as unknown as { _data?: { uncompressedSize?: number } })._data?.uncompressedSize ?? 0;
    inflated += size;
    if (inflated > MAX_INFLATED_BYTES) {
      throw new ExtractError(
        `the archive inflates to more than ${MAX_INFLATED_BYTES / 1024 / 1024} MB (a compression bomb?)`,
      );
    }
  }
  return zip;
}

export async function zipText(zip: JSZip, name: string): Promise<string | undefined> {
  const f = zip.file(name);
  return f ? f.async("string") : undefined;
}
