import { randomInt } from "node:crypto";
import { type Formula, ToolFailure } from "./formula.ts";

/** moonshot/date: the current (or a given) moment in a time zone, optionally shifted. */
export const dateFormula: Formula = {
  uri: "moonshot/date:latest",
  functions: [
    {
      name: "date",
      description:
        "Get the current date and time (or convert a given ISO 8601 moment) in an IANA time zone, optionally shifted by days and hours.",
      parameters: {
        type: "object",
        properties: {
          timezone: { type: "string", description: "IANA time zone, e.g. Asia/Shanghai. Default UTC." },
          date: { type: "string", description: "An ISO 8601 date-time to convert instead of now." },
          add_days: { type: "integer", description: "Days to add (negative to subtract)." },
          add_hours: { type: "integer", description: "Hours to add (negative to subtract)." },
        },
      },
    },
  ],
  async run(_name, args, caller) {
    const timeZone = typeof args.timezone === "string" && args.timezone ? args.timezone : "UTC";
    let at = caller.ctx.clock.now().getTime();
    if (typeof args.date === "string" && args.date) {
      const parsed = Date.parse(args.date);
      if (Number.isNaN(parsed)) throw new ToolFailure(`"${args.date}" is not an ISO 8601 date-time`);
      at = parsed;
    }
    at += (Number(args.add_days ?? 0) * 24 + Number(args.add_hours ?? 0)) * 3_600_000;
    const when = new Date(at);
    if (Number.isNaN(when.getTime())) throw new ToolFailure("the shifted date is out of range");
    let parts: Intl.DateTimeFormatPart[];
    try {
      parts = new Intl.DateTimeFormat("en-US", {
        timeZone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        weekday: "long",
        hourCycle: "h23",
        timeZoneName: "longOffset",
      }).formatToParts(when);
    } catch {
      throw new ToolFailure(`unknown time zone "${timeZone}"`);
    }
    const p = (type: string) => parts.find((x) => x.type === type)?.value ?? "";
    return JSON.stringify({
      iso: when.toISOString(),
      timezone: timeZone,
      local: `${p("year")}-${p("month")}-${p("day")} ${p("hour")}:${p("minute")}:${p("second")}`,
      weekday: p("weekday"),
      utc_offset: p("timeZoneName").replace("GMT", "") || "+00:00",
      unix: Math.floor(when.getTime() / 1000),
    });
  },
};

/** Units by dimension, as the factor to the dimension's base unit. Temperature is affine, handled apart. */
const UNITS: Record<string, Record<string, number>> = {
  length: {
    m: 1,
    km: 1000,
    cm: 0.01,
    mm: 0.001,
    um: 1e-6,
    nm: 1e-9,
    mi: 1609.344,
    yd: 0.9144,
    ft: 0.3048,
    in: 0.0254,
    nmi: 1852,
  },
  mass: { kg: 1, g: 0.001, mg: 1e-6, t: 1000, lb: 0.45359237, oz: 0.028349523125, jin: 0.5 },
  time: { s: 1, ms: 0.001, min: 60, h: 3600, d: 86400, week: 604800 },
  data: {
    B: 1,
    KB: 1e3,
    MB: 1e6,
    GB: 1e9,
    TB: 1e12,
    KiB: 1024,
    MiB: 1024 ** 2,
    GiB: 1024 ** 3,
    TiB: 1024 ** 4,
  },
  speed: { "m/s": 1, "km/h": 1 / 3.6, mph: 0.44704, kn: 1852 / 3600 },
  volume: { L: 1, mL: 0.001, m3: 1000, gal: 3.785411784, qt: 0.946352946, cup: 0.2365882365 },
  area: { m2: 1, km2: 1e6, ha: 1e4, acre: 4046.8564224, ft2: 0.09290304, mu: 2000 / 3 },
};
const TEMPERATURE = ["C", "F", "K"];

function toKelvin(v: number, unit: string): number {
  if (unit === "C") return v + 273.15;
  if (unit === "F") return ((v - 32) * 5) / 9 + 273.15;
  return v;
}
function fromKelvin(k: number, unit: string): number {
  if (unit === "C") return k - 273.15;
  if (unit === "F") return ((k - 273.15) * 9) / 5 + 32;
  return k;
}

/** Enough significant digits for any answer, without binary noise like 0.30000000000000004. */
const tidy = (n: number) => Number(n.toPrecision(12));

export const convertFormula: Formula = {
  uri: "moonshot/convert:latest",
  functions: [
    {
      name: "convert",
      description: `Convert a value between units of length, mass, time, data size, speed, volume, area or temperature. Units: ${Object.values(
        UNITS,
      )
        .flatMap((u) => Object.keys(u))
        .concat(TEMPERATURE)
        .join(", ")}.`,
      parameters: {
        type: "object",
        properties: {
          value: { type: "number", description: "The value to convert." },
          from: { type: "string", description: "The unit of the value, e.g. km." },
          to: { type: "string", description: "The unit to convert to, e.g. mi." },
        },
        required: ["value", "from", "to"],
      },
    },
  ],
  async run(_name, args) {
    const value = args.value as number;
    const from = String(args.from).trim();
    const to = String(args.to).trim();
    if (TEMPERATURE.includes(from) || TEMPERATURE.includes(to)) {
      if (!TEMPERATURE.includes(from) || !TEMPERATURE.includes(to)) {
        throw new ToolFailure(`cannot convert ${from} to ${to}: only C, F and K are temperatures`);
      }
      return JSON.stringify({ value, from, to, result: tidy(fromKelvin(toKelvin(value, from), to)) });
    }
    for (const [dimension, units] of Object.entries(UNITS)) {
      if (from in units || to in units) {
        if (!(from in units) || !(to in units)) {
          throw new ToolFailure(
            `cannot convert ${from} to ${to}: ${to in units ? from : to} is not a unit of ${dimension}`,
          );
        }
        return JSON.stringify({ value, from, to, dimension, result: tidy((value * units[from]!) / units[to]!) });
      }
    }
    throw new ToolFailure(`unknown unit "${from}"`);
  },
};

export const randomChoiceFormula: Formula = {
  uri: "moonshot/random-choice:latest",
  functions: [
    {
      name: "random_choice",
      description:
        "Pick one or more items at random (cryptographically secure) from a list of candidates, with or without replacement.",
      parameters: {
        type: "object",
        properties: {
          candidates: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 1000 },
          count: { type: "integer", minimum: 1, maximum: 1000, description: "How many to pick. Default 1." },
          replace: { type: "boolean", description: "Whether an item may be picked more than once. Default false." },
        },
        required: ["candidates"],
      },
    },
  ],
  async run(_name, args) {
    const pool = [...(args.candidates as string[])];
    const count = (args.count as number | undefined) ?? 1;
    const replace = args.replace === true;
    if (!replace && count > pool.length) {
      throw new ToolFailure(`cannot pick ${count} distinct items from ${pool.length} candidates`);
    }
    const picked: string[] = [];
    for (let i = 0; i < count; i++) {
      const k = randomInt(pool.length);
      picked.push(pool[k]!);
      if (!replace) pool.splice(k, 1);
    }
    return JSON.stringify({ choices: picked });
  },
};

export const base64Formula: Formula = {
  uri: "moonshot/base64:latest",
  functions: [
    {
      name: "base64_encode",
      description: "Encode UTF-8 text as Base64.",
      parameters: {
        type: "object",
        properties: { data: { type: "string", maxLength: 100_000 } },
        required: ["data"],
      },
    },
    {
      name: "base64_decode",
      description: "Decode Base64 (standard or URL-safe) into UTF-8 text.",
      parameters: {
        type: "object",
        properties: { data: { type: "string", maxLength: 140_000 } },
        required: ["data"],
      },
    },
  ],
  async run(name, args) {
    const data = args.data as string;
    if (name === "base64_encode") return Buffer.from(data, "utf8").toString("base64");
    const clean = data.replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean)) throw new ToolFailure("the data is not Base64");
    const bytes = Buffer.from(clean, clean.includes("-") || clean.includes("_") ? "base64url" : "base64");
    const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    return text;
  },
};

export const rethinkFormula: Formula = {
  uri: "moonshot/rethink:latest",
  functions: [
    {
      name: "rethink",
      description:
        "Think a problem through before answering: write down your reasoning, a plan or a correction. Nothing is looked up or changed; the thought is returned so that it stays in the conversation.",
      parameters: {
        type: "object",
        properties: { thought: { type: "string", description: "Your reasoning.", maxLength: 20_000 } },
        required: ["thought"],
      },
    },
  ],
  async run(_name, args) {
    return JSON.stringify({ thought: args.thought });
  },
};

const MEWS = ["Meow!", "Mew~", "Purr… meow.", "Mrrrow?", "Nya~", "Meeeow!", "喵～", "喵呜！"];

export const mewFormula: Formula = {
  uri: "moonshot/mew:latest",
  functions: [
    {
      name: "mew",
      description: "Let a cat answer: returns a random cat sound. For light-hearted moments.",
      parameters: { type: "object", properties: {} },
    },
  ],
  async run() {
    return JSON.stringify({ sound: MEWS[randomInt(MEWS.length)] });
  },
};
