/**
 * Only used at build time (ssr: false): prerendering waits for the whole page, lazy MDX bodies included, so every
 * prerendered file is complete HTML that reads without JavaScript.
 */
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext } from "react-router";
import { ServerRouter } from "react-router";

export const streamTimeout = 10_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  return new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode;
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
      // Never move a large Suspense boundary out of line: its content would only appear through a script.
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      onAllReady() {
        const body = new PassThrough();
        responseHeaders.set("Content-Type", "text/html");
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status }));
        pipe(body);
      },
      onShellError: reject,
      onError(error) {
        status = 500;
        console.error(error);
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}
