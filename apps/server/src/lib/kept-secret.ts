/**
 * A secret the server makes itself and keeps under `<DATA_DIR>/secrets/<name>` (directory 0700, file 0600, readable
 * by the server's user only), so a self-hosted instance works out of the box and keeps working after a restart.
 * The file appears whole or not at all (written aside, then hard-linked into place): a crash while writing never
 * leaves an empty secret behind, and of two processes starting at once the second reads the first one's value.
 */
import fs from "node:fs";
import path from "node:path";

export function keptSecret(dataDir: string, name: string, generate: () => string): string {
  const file = path.join(dataDir, "secrets", name);
  try {
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const value = generate();
  const aside = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(aside, "w", 0o600);
  try {
    fs.writeSync(fd, value);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(aside, file);
    return value;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return fs.readFileSync(file, "utf8");
    throw e;
  } finally {
    fs.rmSync(aside, { force: true });
  }
}
