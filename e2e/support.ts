import { type Browser, expect, type Page } from "@playwright/test";

/** A fresh mainland mobile number (+86 1xx…) per run, so specs never collide on a reused database. */
export function uniquePhone(): string {
  const digits = String(Date.now() % 1e8).padStart(8, "0");
  return `139${digits}`;
}

export function uniqueUsername(prefix = "e2e"): string {
  return `${prefix}_${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** The newest code the development SMS provider "sent" to `phone` (the dev outbox: DEV_SEAMS=true, loopback only). */
export async function latestSmsCode(page: Page, phone: string): Promise<string> {
  const e164 = phone.startsWith("+") ? phone : `+86${phone}`;
  let code: string | null | undefined;
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/dev/sms-outbox?phone=${encodeURIComponent(e164)}`);
      const list = (await res.json()) as { code: string | null; createdAt: string }[];
      code = [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]?.code;
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code!;
}

export const PASSWORD = "Moon-port1";
export const NEW_PASSWORD = "Moon-port2!";

/** Signs up through the phone tab of /signup and waits for the console. */
export async function signUpByPhone(page: Page, opts: { phone: string; username: string; password: string }) {
  await page.goto("/signup");
  await page.getByTestId("tab-phone").click();
  const form = page.locator("form");
  await form.locator('input[autocomplete="tel"]').fill(opts.phone);
  await form.getByTestId("send-code").click();
  await expect(form.getByTestId("send-code")).toBeDisabled();
  const code = await latestSmsCode(page, opts.phone);
  await form.locator('input[autocomplete="one-time-code"]').fill(code);
  await form.locator('input[autocomplete="username"]').fill(opts.username);
  await form.locator('input[autocomplete="new-password"]').nth(0).fill(opts.password);
  await form.locator('input[autocomplete="new-password"]').nth(1).fill(opts.password);
  await form.getByTestId("submit").click();
  await expect(page).toHaveURL(/\/console/);
  // The console opens on the organization overview; the profile shows who signed up.
  await page.goto("/console/profile");
  await expect(page.getByTestId("profile-name")).toHaveText(opts.username);
}

/** Signs in on /signin (staying on the current sign-in URL, with its `next`, when already there). */
export async function signInByPassword(page: Page, username: string, password: string) {
  if (!new URL(page.url()).pathname.startsWith("/signin")) await page.goto("/signin");
  const form = page.locator("form");
  await form.locator('input[autocomplete="username"]').fill(username);
  await form.locator('input[autocomplete="current-password"]').fill(password);
  await form.getByTestId("submit").click();
}

export async function signOut(page: Page) {
  await page.getByTestId("user-menu").click();
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/signin/);
}

/** The visible one of elements rendered twice for different screen sizes (header vs. mobile menu). */
export function visibleTestId(page: Page, id: string) {
  return page.locator(`[data-testid="${id}"]:visible`);
}

/** A one-page PDF whose text is `text` (ASCII), with a correct cross-reference table. */
export function tinyPdf(text: string): Buffer {
  const stream = `BT /F1 14 Tf 72 720 Td (${text.replace(/[()\\]/g, "\\$&")}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

let phoneSeq = 0;

/**
 * A funded account (¥100, or `amount`, through the DEV_SEAMS grant; "0" for none) with an API key for its default
 * project, signed up through the real endpoints and the development SMS outbox; the page's context holds its
 * session. A new organization is at tier 0 (RPM 3): specs that run more than that in a minute spread the runs over
 * several accounts.
 */
export async function signUpFunded(page: Page, amount = "100") {
  await page.goto("/");
  const base = new URL(page.url()).origin;
  const request = page.request;
  const headers = async () => ({
    "x-csrf-token": (await page.context().cookies(base)).find((c) => c.name === "mp_csrf")?.value ?? "",
    origin: base,
  });
  phoneSeq += 1;
  const phone = `137${String(Date.now()).slice(-6)}${String(phoneSeq % 100).padStart(2, "0")}`;
  expect(
    (await request.post("/api/auth/sms", { data: { phone, purpose: "signup" }, headers: await headers() })).ok(),
  ).toBe(true);
  const code = await latestSmsCode(page, phone);
  const username = `pg_${phone.slice(-8)}`;
  const signUp = await request.post("/api/auth/signup/phone", {
    data: { phone, code, username, password: "Str0ng!pass", confirmPassword: "Str0ng!pass" },
    headers: await headers(),
  });
  expect(signUp.status(), await signUp.text()).toBe(200);
  const me = await (await request.get("/api/me")).json();
  const orgId = me.currentOrganizationId as string;
  if (amount !== "0") {
    expect(
      (await request.post(`/api/dev/orgs/${orgId}/grant`, { data: { amount }, headers: await headers() })).ok(),
    ).toBe(true);
  }
  const projects = await (await request.get(`/api/orgs/${orgId}/projects`)).json();
  const projectId = projects.items[0].id as string;
  const key = await request.post(`/api/orgs/${orgId}/api-keys`, {
    data: { name: "sample", projectId },
    headers: await headers(),
  });
  expect(key.status()).toBe(201);
  return { orgId, projectId, secret: (await key.json()).secret as string };
}

/** The CSRF header pair the console API wants on writes, from the page's own cookie. */
export async function csrfHeaders(page: Page): Promise<Record<string, string>> {
  const base = new URL(page.url() === "about:blank" ? "http://localhost" : page.url()).origin;
  const cookies = await page.context().cookies(base);
  return { "x-csrf-token": cookies.find((c) => c.name === "mp_csrf")?.value ?? "", origin: base };
}

interface CaughtMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; size: number; head: string }[];
}

/** What reached the suite's local SMTP server for `to` (e2e/mail-catcher.ts, started by playwright.config.ts). */
export async function caughtMail(page: Page, to: string): Promise<CaughtMail[]> {
  const res = await page.request.get(`${process.env.MAIL_CATCHER_URL}/messages?to=${encodeURIComponent(to)}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as CaughtMail[];
}

/**
 * A new account signed up in its own browser context in `locale`; its personal organization's edition follows
 * that locale (zh-CN → cn and CNY, en-US → global and USD).
 */
export async function signUpInLocale(browser: Browser, locale: "zh-CN" | "en-US", baseURL: string, prefix = "e2e") {
  const context = await browser.newContext({ locale });
  await context.addCookies([{ name: "locale", value: locale, url: baseURL }]);
  const page = await context.newPage();
  await signUpByPhone(page, { phone: uniquePhone(), username: uniqueUsername(prefix), password: PASSWORD });
  const me = await (await page.request.get("/api/me")).json();
  const orgId = me.currentOrganizationId as string;
  const orgName = (me.organizations as { id: string; name: string }[]).find((o) => o.id === orgId)!.name;
  return { page, orgId, orgName };
}

/** Submits the open dialog with its last button (the primary action) and waits for it to close. */
export async function dialogSubmit(page: Page) {
  await page.getByRole("dialog").getByRole("button").last().click();
  await expect(page.getByRole("dialog")).toBeHidden();
}

/** The operator decides the organization's pending company application in Queues → Verifications. */
export async function decideCompany(op: Page, orgName: string, decision: "approve" | "reject") {
  await op.goto("/admin/queues/verifications");
  const row = op.getByTestId("verification-row").filter({ hasText: orgName });
  await expect(row).toHaveCount(1);
  await row.getByTestId(`verification-${decision}`).click();
  if (decision === "reject") await op.getByTestId("reject-reason").fill("The bank account name does not match.");
  await dialogSubmit(op);
  await expect(row).toHaveCount(0);
}

/** The operator confirms the organization's waiting corporate transfer in Queues → Transfers (the money arrived). */
export async function confirmTransfer(op: Page, orgName: string) {
  await op.goto("/admin/queues/transfers");
  const row = op.getByTestId("transfer-row").filter({ hasText: orgName });
  await row.getByTestId("transfer-confirm").click();
  await dialogSubmit(op);
  await expect(row).toHaveCount(0);
}

/**
 * Part of a corporate transfer refunded: the admin requests it on the refund screen, the operator approves it in
 * Queues → Refunds (the cash leaves the balance), pays it back by bank and marks it done with the reference.
 */
export async function refundByBank(
  customer: Page,
  op: Page,
  r: { orgName: string; amount: string; email: string; reference: string },
) {
  await customer.goto("/console/billing/refunds");
  const choice = customer.getByTestId("refund-payment").first();
  await choice.getByRole("checkbox").check();
  await choice.getByTestId("refund-amount").fill(r.amount);
  await customer.getByTestId("refund-email").fill(r.email);
  await customer.getByTestId("refund-submit").click();
  await expect(customer.getByTestId("refund-sent")).toBeVisible();
  await op.goto("/admin/queues/refunds");
  const refund = op.getByTestId("admin-refund-row").filter({ hasText: r.orgName });
  await refund.getByTestId("refund-approve").click();
  await dialogSubmit(op);
  await refund.getByTestId("refund-complete").click();
  await op.getByTestId("refund-reference").fill(r.reference);
  await dialogSubmit(op);
  await customer.reload();
}

/**
 * The suite's one operator (one server serves every spec, and only the first operator can be created through the
 * setup link): created through the real /setup page with a one-time token from the loopback seam by the "operator"
 * setup project (e2e/operator.setup.ts, run before every spec), signed in by the specs.
 */
const OPERATOR = { username: "e2e_operator", password: PASSWORD };

export async function operatorPage(browser: Browser, baseURL: string, locale: "en-US" | "zh-CN" = "en-US") {
  const context = await browser.newContext({ locale });
  await context.addCookies([{ name: "locale", value: locale, url: baseURL }]);
  const page = await context.newPage();
  await page.goto("/");
  const seam = await page.request.post("/api/dev/setup-token", { headers: await csrfHeaders(page) });
  if (seam.ok()) {
    const { token } = await seam.json();
    await page.goto(`/setup?token=${token}`);
    const form = page.locator("form");
    await form.locator('input[autocomplete="username"]').fill(OPERATOR.username);
    await form.locator('input[autocomplete="new-password"]').nth(0).fill(OPERATOR.password);
    await form.locator('input[autocomplete="new-password"]').nth(1).fill(OPERATOR.password);
    await form.locator('button[type="submit"]').click();
    await expect(page).toHaveURL(/\/console/);
  } else {
    await page.goto("/signin");
    await signInByPassword(page, OPERATOR.username, OPERATOR.password);
    await expect(page).toHaveURL(/\/console/);
  }
  return page;
}

/** The global edition's international invoice information, entered in Billing → Invoices (card payments need it). */
export async function fillInvoiceInfo(page: Page) {
  await page.goto("/console/billing/invoices");
  const fields: Record<string, string> = {
    name: "Ada Lovelace Ltd",
    email: "billing@ada.example",
    tax_id: "GB123456789",
    street: "1 Main St",
    city: "San Francisco",
    state: "CA",
    postal_code: "94105",
    country_code: "US",
  };
  for (const [k, v] of Object.entries(fields)) await page.getByTestId(`info-${k}`).fill(v);
  await page.getByTestId("invoice-info-save").click();
  await expect(page.getByTestId("invoice-info-saved")).toBeVisible();
}

/**
 * Per edition, a personal verification and a company application that pass the built-in provider's checks (cn: a
 * resident ID and a USCC with their check characters; global: passport-style fields and a registration number).
 */
export const PERSON = {
  cn: { realName: "张三", idNumber: "11010519491231002X" },
  global: {
    realName: "Ada Lovelace",
    idNumber: "X12345678",
    nationality: "GB",
    dateOfBirth: "1985-12-10",
    documentExpiry: "2033-06-30",
  },
};
export const COMPANY = {
  cn: {
    companyName: "差分机科技有限公司",
    creditCode: "91350100M000100Y43",
    bankAccountName: "差分机科技有限公司",
    bankName: "沙盒银行北京分行",
    bankAccountNumber: "6222020200112233445",
  },
  global: {
    companyName: "Difference Engines Ltd",
    creditCode: "GB 123456789",
    bankAccountName: "Difference Engines Ltd",
    bankName: "Sandbox Bank London",
    bankAccountNumber: "20000012345678",
  },
};

/** Binds a card on the recharge screen (the sandbox PSP tokenizes it in the browser). */
export async function bindCard(page: Page, number: string) {
  await page.getByTestId("bind-card").click();
  const fields: Record<string, string> = {
    email: "ada@example.com",
    firstName: "Ada",
    lastName: "Lovelace",
    phone: "+1 555 0100",
    street: "1 Main St",
    city: "San Francisco",
    state: "CA",
    postcode: "94105",
    countryCode: "US",
  };
  for (const [k, v] of Object.entries(fields)) await page.getByTestId(`card-${k}`).fill(v);
  await page.getByTestId("card-number").fill(number);
  await page.getByTestId("card-expiry").fill("12/34");
  await page.getByTestId("card-cvc").fill("123");
  await page.getByTestId("card-submit").click();
}
