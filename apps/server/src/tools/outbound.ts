/**
 * The one way tools reach the outside world (the fetch tool, MCP servers): an SSRF guard around undici.
 *
 * Nothing a user configures may reach our own network or the machine's metadata service, so every request:
 *  - must be http(s) without credentials in the URL;
 *  - names a host whose every resolved address is public: loopback, private, CGNAT, link-local, unique-local,
 *    multicast, reserved, documentation, unspecified and metadata addresses are refused (IPv4, IPv6, and IPv4
 *    carried in IPv6: mapped, NAT64, 6to4), before any byte is sent;
 *  - connects to the very address that was checked (the check is undici's `lookup`, so there is no second
 *    resolution a rebinding DNS server could answer differently);
 *  - follows at most MAX_REDIRECTS redirects by hand, each target checked the same way;
 *  - is cut off after `timeoutMs` and `maxBytes`.
 * An operator allow-list (OUTBOUND_ALLOW_HOSTS) admits named hosts or addresses anyway: that is how a private MCP
 * server, or the tests' local one, is reached.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { Agent, fetch as undiciFetch } from "undici";

export class OutboundRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "OutboundRefused";
  }
}

const MAX_REDIRECTS = 5;

function v4ToInt(ip: string): number {
  return ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

/** [network, prefix length] of every IPv4 block no tool may reach. */
const V4_BLOCKED: [string, number][] = [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

function v4Blocked(ip: string): boolean {
  const n = v4ToInt(ip);
  return V4_BLOCKED.some(([net, bits]) => {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return (n & mask) >>> 0 === (v4ToInt(net) & mask) >>> 0;
  });
}

/** The 8 groups of an IPv6 address as numbers (handles "::" and a dotted IPv4 tail). */
function v6Groups(ip: string): number[] {
  let s = ip.toLowerCase();
  const zone = s.indexOf("%");
  if (zone !== -1) s = s.slice(0, zone);
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const n = v4ToInt(tail[1]!);
    s = `${s.slice(0, -tail[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, rest] = s.split("::") as [string, string | undefined];
  const h = head ? head.split(":") : [];
  const r = rest ? rest.split(":") : [];
  const fill = rest === undefined ? [] : new Array(8 - h.length - r.length).fill("0");
  return [...h, ...fill, ...r].map((g) => Number.parseInt(g || "0", 16));
}

function v6Blocked(ip: string): boolean {
  const g = v6Groups(ip);
  const embeddedV4 = (hi: number, lo: number) => `${hi >>> 8}.${hi & 0xff}.${lo >>> 8}.${lo & 0xff}`;
  if (g.every((x) => x === 0)) return true; // ::
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true; // ::1
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d: judged as the IPv4 address they carry.
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0))
    return v4Blocked(embeddedV4(g[6]!, g[7]!));
  // NAT64 64:ff9b::/96 and 6to4 2002::/16 reach the IPv4 address inside.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return v4Blocked(embeddedV4(g[6]!, g[7]!));
  if (g[0] === 0x2002) return v4Blocked(embeddedV4(g[1]!, g[2]!));
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return true; // unique-local fc00::/7 (fd00:ec2::254 metadata included)
  if ((first & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((first & 0xffc0) === 0xfec0) return true; // site-local (deprecated) fec0::/10
  if ((first & 0xff00) === 0xff00) return true; // multicast
  if (first === 0x2001 && g[1] === 0x0db8) return true; // documentation
  if (first === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return true; // discard-only 100::/64
  return false;
}

/** True when no tool may connect to `ip` (an IPv4 or IPv6 literal). Anything unparseable is refused too. */
export function isForbiddenAddress(ip: string): boolean {
  const kind = isIP(ip);
  if (kind === 4) return v4Blocked(ip);
  if (kind === 6) return v6Blocked(ip);
  return true;
}

type Resolver = (
  host: string,
  options: { all: true; verbatim: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export interface OutboundPolicy {
  /** Host names or address literals admitted although they resolve to private addresses (lower case). */
  allowHosts: ReadonlySet<string>;
  /** Name resolution; `dns.lookup` unless a test supplies its own (a name that resolves to loopback). */
  resolve?: Resolver;
}

function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, "").toLowerCase();
}

/** Refuses a URL before any lookup: scheme, credentials, and an address literal that is not public. */
export function checkUrl(raw: string | URL, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused("the URL is not valid");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new OutboundRefused(`only http and https URLs are allowed, not ${url.protocol}`);
  }
  if (url.username || url.password) throw new OutboundRefused("URLs with credentials are not allowed");
  const host = bareHost(url.hostname);
  if (policy.allowHosts.has(host)) return url;
  if (isIP(host) && isForbiddenAddress(host)) {
    throw new OutboundRefused(`${host} is a private, loopback, link-local or reserved address`);
  }
  if (host === "localhost" || host.endsWith(".localhost")) throw new OutboundRefused(`${host} is the local machine`);
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * undici's `connect.lookup`: resolves the name, refuses it if any address is forbidden, and hands undici exactly
 * the addresses it checked.
 */
function guardedLookup(policy: OutboundPolicy) {
  return (hostname: string, options: { all?: boolean } & Record<string, unknown>, callback: LookupCallback) => {
    const host = bareHost(hostname);
    const resolve: Resolver = policy.resolve ?? (dnsLookup as unknown as Resolver);
    resolve(host, { all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (addresses.length === 0) return callback(new OutboundRefused(`${host} does not resolve`) as never, []);
      if (!policy.allowHosts.has(host)) {
        const bad = addresses.find((a) => isForbiddenAddress(a.address));
        if (bad) {
          const e = new OutboundRefused(
            `${host} resolves to ${bad.address}, a private, loopback, link-local or reserved address`,
          );
          return callback(e as unknown as NodeJS.ErrnoException, []);
        }
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export interface OutboundResponse {
  status: number;
  url: string;
  headers: Headers;
  contentType: string;
  body: Buffer;
  truncated: boolean;
}

/** The refusal hidden in an undici error chain, if that is why it failed. */
export function refusalOf(e: unknown): OutboundRefused | null {
  for (let cur: unknown = e, depth = 0; cur && depth < 5; depth++) {
    if (cur instanceof OutboundRefused) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return null;
}

export interface Outbound {
  policy: OutboundPolicy;
  /** A fetch-compatible function under the guard (for the MCP SDK's transports); redirects followed by hand. */
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** GET (or another method) with size and time caps, the body read into memory. */
  request(
    url: string,
    opts?: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number; maxBytes?: number },
  ): Promise<OutboundResponse>;
  close(): Promise<void>;
}

export function createOutbound(policy: OutboundPolicy): Outbound {
  const agent = new Agent({
    connect: { lookup: guardedLookup(policy) as never, timeout: 10_000 },
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });

  async function guardedFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
    let url = checkUrl(typeof input === "string" || input instanceof URL ? input : input.url, policy);
    let method = init.method ?? (input instanceof Request ? input.method : "GET");
    let body = init.body ?? (input instanceof Request ? input.body : undefined);
    const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
    for (let hop = 0; ; hop++) {
      const res = (await undiciFetch(url, {
        method,
        headers: headers as never,
        body: body as never,
        signal: init.signal as never,
        redirect: "manual",
        dispatcher: agent,
        ...(body ? { duplex: "half" } : {}),
      } as never)) as unknown as Response;
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return res;
      await res.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new OutboundRefused(`more than ${MAX_REDIRECTS} redirects`);
      const next = checkUrl(new URL(location, url), policy);
      // Credentials and bodies do not follow a redirect to another origin; 303 (and 301/302 after a POST) become GET.
      if (next.origin !== url.origin) {
        headers.delete("authorization");
        headers.delete("cookie");
      }
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
        headers.delete("content-type");
      }
      url = next;
    }
  }

  return {
    policy,
    fetch: guardedFetch,
    async request(raw, opts = {}) {
      const timeoutMs = opts.timeoutMs ?? 15_000;
      const maxBytes = opts.maxBytes ?? 2 * 1024 * 1024;
      const signal = AbortSignal.timeout(timeoutMs);
      let res: Response;
      try {
        res = await guardedFetch(raw, { method: opts.method, headers: opts.headers, body: opts.body, signal });
      } catch (e) {
        const refused = refusalOf(e);
        if (refused) throw refused;
        if (signal.aborted) throw new Error(`no answer within ${timeoutMs} ms`);
        throw e;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      if (res.body) {
        const reader = res.body.getReader();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            size += value.byteLength;
            if (size > maxBytes) {
              chunks.push(Buffer.from(value.subarray(0, value.byteLength - (size - maxBytes))));
              truncated = true;
              await reader.cancel();
              break;
            }
            chunks.push(Buffer.from(value));
          }
        } catch (e) {
          if (signal.aborted) throw new Error(`no complete answer within ${timeoutMs} ms`);
          throw e;
        }
      }
      return {
        status: res.status,
        url: res.url || raw,
        headers: res.headers,
        contentType: res.headers.get("content-type") ?? "",
        body: Buffer.concat(chunks),
        truncated,
      };
    },
    close: () => agent.close(),
  };
}
