/** A local SMTP server on loopback (npm `smtp-server`) that keeps what arrives, for tests of the mailer. */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

interface ReceivedMail {
  to: string[];
  raw: string;
}

export async function startSmtpServer(opts: { port?: number; reject?: () => boolean } = {}) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (c: string) => {
        raw += c;
      });
      stream.on("end", () => {
        if (opts.reject?.()) {
          callback(Object.assign(new Error("mailbox unavailable"), { responseCode: 450 }));
          return;
        }
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The decoded text part of a received message (quoted-printable or base64), enough for assertions. */
export function textPart(raw: string): string {
  const m = /Content-Type: text\/plain[^\r\n]*\r\nContent-Transfer-Encoding: ([\w-]+)\r\n\r\n([\s\S]*?)\r\n--/i.exec(
    raw,
  );
  if (!m) return raw;
  const [, enc, body] = m;
  if (enc!.toLowerCase() === "base64") return Buffer.from(body!.replace(/\s+/g, ""), "base64").toString("utf8");
  if (enc!.toLowerCase() === "quoted-printable") {
    const bytes = body!
      .replace(/=\r\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(Number.parseInt(h, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return body!;
}
