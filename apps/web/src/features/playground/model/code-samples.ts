import type { ChatCompletionRequest } from "@moonport/contracts";

export type CodeLanguage = "curl" | "python" | "node";

/** The placeholder where the user's key goes: the samples never carry a secret. */
export const KEY_PLACEHOLDER = "$MOONPORT_API_KEY";

function pyValue(v: unknown, indent: string): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return JSON.stringify(v);
  const inner = `${indent}    `;
  if (Array.isArray(v)) {
    if (!v.length) return "[]";
    return `[\n${v.map((x) => `${inner}${pyValue(x, inner)}`).join(",\n")},\n${indent}]`;
  }
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
  if (!entries.length) return "{}";
  return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${pyValue(x, inner)}`).join(",\n")},\n${indent}}`;
}

function jsValue(v: unknown, indent: string): string {
  return JSON.stringify(v, null, 2).replaceAll("\n", `\n${indent}`);
}

/**
 * The current request as a runnable program with the edition's API base URL (`baseUrl` ends in /v1). Streaming
 * samples print the text as it arrives, like the playground shows it.
 */
export function codeSample(lang: CodeLanguage, req: ChatCompletionRequest, baseUrl: string): string {
  const { stream, stream_options: _opts, ...rest } = req;
  const body = stream ? { ...rest, stream: true } : rest;
  if (lang === "curl") {
    const json = JSON.stringify(body, null, 2).replaceAll("'", "'\\''");
    return `curl ${baseUrl}/chat/completions \\
  -H "Content-Type: application/json" \\
  -H "Authorization: Bearer ${KEY_PLACEHOLDER}" \\
  -d '${json}'`;
  }
  const args = Object.entries(body)
    .map(([k, v]) => (lang === "python" ? `    ${k}=${pyValue(v, "    ")},` : `  ${k}: ${jsValue(v, "  ")},`))
    .join("\n");
  if (lang === "python") {
    const print = stream
      ? `for chunk in completion:
    delta = chunk.choices[0].delta if chunk.choices else None
    if delta and delta.content:
        print(delta.content, end="", flush=True)
print()`
      : "print(completion.choices[0].message.content)";
    return `import os
from openai import OpenAI

client = OpenAI(
    api_key=os.environ["MOONPORT_API_KEY"],
    base_url="${baseUrl}",
)

completion = client.chat.completions.create(
${args}
)

${print}
`;
  }
  const print = stream
    ? `for await (const chunk of completion) {
  const text = chunk.choices[0]?.delta?.content;
  if (text) process.stdout.write(text);
}
process.stdout.write("\\n");`
    : "console.log(completion.choices[0].message.content);";
  return `import OpenAI from "openai";

const client = new OpenAI({
  apiKey: process.env.MOONPORT_API_KEY,
  baseURL: "${baseUrl}",
});

const completion = await client.chat.completions.create({
${args}
});

${print}
`;
}
