/**
 * The browser suite's local SMTP server: the app under test sends its e-mail here over real SMTP (MAIL_TRANSPORT=smtp),
 * and specs read what arrived over HTTP, decoded by mailparser, so a journey can assert "the e-mail reached the
 * mail server" rather than "the app put it in its own outbox". Started by playwright.config.ts as a web server.
 *
 *   GET /messages?to=<address>  → [{ to, from, subject, text, date, attachments: [{ filename, contentType, size,
 *                                   head }] }] in arrival order (`head`: the first bytes as latin1, "%PDF-1.7" …)
 *   GET /healthz                → 200 once both servers listen
 */
import http from "node:http";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

const smtpPort = Number(process.env.MAIL_CATCHER_SMTP_PORT);
const httpPort = Number(process.env.MAIL_CATCHER_HTTP_PORT);
if (!smtpPort || !httpPort) throw new Error("MAIL_CATCHER_SMTP_PORT and MAIL_CATCHER_HTTP_PORT are required");

interface Caught {
  to: string[];
  from: string;
  subject: string;
  text: string;
  date: string;
  attachments: { filename: string; contentType: string; size: number; head: string }[];
}
const caught: Caught[] = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        caught.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          from: mail.from?.text ?? "",
          subject: mail.subject ?? "",
          text: mail.text ?? "",
          date: new Date().toISOString(),
          attachments: mail.attachments.map((a) => ({
            filename: a.filename ?? "",
            contentType: a.contentType,
            size: a.size,
            head: a.content.subarray(0, 8).toString("latin1"),
          })),
        });
        callback();
      })
      .catch((err: Error) => callback(err));
  },
});

const web = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname === "/healthz") {
    res.end("ok");
    return;
  }
  if (url.pathname === "/messages") {
    const to = url.searchParams.get("to")?.toLowerCase();
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(to ? caught.filter((m) => m.to.includes(to)) : caught));
    return;
  }
  res.statusCode = 404;
  res.end();
});

smtp.listen(smtpPort, "127.0.0.1", () => web.listen(httpPort, "127.0.0.1"));
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    web.close();
    smtp.close(() => process.exit(0));
  });
}
