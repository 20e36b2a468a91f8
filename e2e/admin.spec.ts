import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { COMPANY, caughtMail, csrfHeaders, operatorPage, PERSON, signUpInLocale, uniqueUsername } from "./support.ts";

/**
 * The back office in the browser. The operator is created through the real /setup page with a one-time token from
 * the loopback seam (the server prints the same link at start). A visitor contacts sales, a customer sends feedback
 * with an image and orders a corporate transfer; the operator finds the organization, grants credit, answers and
 * resolves the lead and the feedback, confirms the transfer, generates and downloads a code batch and revokes it,
 * and every action is in the audit log and its CSV export. A non-operator gets the not-found page. Screenshots of
 * every back-office screen in both locales and themes go to .tmp/shots/.
 */
test.setTimeout(300_000);

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

async function confirmDialog(page: Page) {
  await page.getByRole("dialog").getByRole("button").last().click();
  await expect(page.getByRole("dialog")).toBeHidden();
}

test("the operator works the back office; every action lands in the audit log", async ({ browser, baseURL }) => {
  // A customer of the cn edition (corporate transfer is a cn pay type): feedback with an image and an e-mail
  // contact, and a corporate transfer order.
  const { page: customer, orgId } = await signUpInLocale(browser, "zh-CN", baseURL!, "cust");
  const h = await csrfHeaders(customer);
  const contact = `${uniqueUsername("dev")}@example.test`;
  const fb = await customer.request.post(`/api/orgs/${orgId}/feedback`, {
    headers: h,
    multipart: {
      type: "api_error",
      description: "Streaming stops after 30 s.",
      contact,
      image: { name: "shot.png", mimeType: "image/png", buffer: PNG },
    },
  });
  expect(fb.status(), await fb.text()).toBe(201);
  // Corporate transfer needs a verified company: personal verification first, then the company application that
  // waits for the operator.
  const V = `/api/orgs/${orgId}/verification`;
  expect((await customer.request.post(`${V}/personal`, { headers: h, data: PERSON.cn })).status()).toBe(200);
  const applied = await customer.request.post(`${V}/company`, { headers: h, data: COMPANY.cn });
  expect((await applied.json()).state).toBe("company_changing");
  const me = await (await customer.request.get("/api/me")).json();
  const orgName = (me.organizations as { id: string; name: string }[]).find((o) => o.id === orgId)!.name;
  // A visitor's sales lead.
  const leadEmail = `${uniqueUsername("lead")}@example.test`;
  const lead = await customer.request.post("/api/contact-sales", {
    headers: h,
    data: {
      topic: "enterprise",
      name: "Ada Admin",
      phone: "+44 20 7946 0000",
      email: leadEmail,
      company: "Difference Engines Ltd",
      industry: "finance",
      stage: "ready",
      enterpriseCertified: false,
      background: "Risk reports",
      problem: "We need an enterprise contract.",
    },
  });
  expect(lead.status()).toBe(201);

  // A customer is not an operator: the back office does not exist for them.
  await customer.goto("/admin");
  await expect(customer.getByText("404")).toBeVisible();

  const page = await operatorPage(browser, baseURL!);
  await page.getByTestId("user-menu").click();
  await page.getByTestId("open-back-office").click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId("total-newLeads")).not.toHaveText("0");

  // Organizations: find the customer's, grant credit.
  await page.getByRole("link", { name: "Organizations" }).click();
  await page.getByTestId("admin-org-search").fill(orgId);
  await expect(page.getByTestId("admin-org-row")).toHaveCount(1);
  await page.getByTestId("admin-org-link").click();
  await expect(page.getByRole("heading", { name: orgName })).toBeVisible();
  await page.getByTestId("admin-grant").click();
  await page.getByTestId("grant-amount").fill("12.50");
  await page.getByTestId("grant-note").fill("goodwill for INC-7");
  await page.getByRole("dialog").getByRole("button", { name: "Grant credit" }).click();
  await expect(page.getByTestId("admin-org-cash")).toHaveText("¥12.50");
  await expect(page.getByTestId("admin-ledger")).toContainText("goodwill for INC-7");

  // Queues: approve the company verification; the customer can now order a corporate transfer, which the
  // operator confirms; then answer and resolve the lead and the feedback.
  await page.getByRole("link", { name: "Queues" }).click();
  const application = page.getByTestId("verification-row").filter({ hasText: orgName });
  await expect(application).toContainText("6222020200112233445");
  await application.getByTestId("verification-approve").click();
  await confirmDialog(page);
  await expect(application).toHaveCount(0);
  const transfer = await customer.request.post(`/api/orgs/${orgId}/payments`, {
    headers: h,
    data: { amount: "300", payType: "b2btransfer", agreement: true },
  });
  expect(transfer.status(), await transfer.text()).toBe(201);
  await page.getByTestId("queue-tab-transfers").click();
  const transferRow = page.getByTestId("transfer-row").filter({ hasText: orgName });
  await transferRow.getByTestId("transfer-confirm").click();
  await confirmDialog(page);
  await expect(transferRow).toHaveCount(0);
  await page.getByTestId("queue-tab-leads").click();
  const leadRow = page.getByTestId("lead-row").filter({ hasText: leadEmail });
  await leadRow.getByTestId("ticket-reply").click();
  await page.getByTestId("reply-message").fill("Happy to help: a contract draft is attached.");
  await page.getByRole("dialog").getByRole("button", { name: "Reply" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect
    .poll(async () => (await caughtMail(page, leadEmail)).filter((m) => m.text.includes("contract draft")).length, {
      timeout: 30_000,
    })
    .toBe(1);
  await page.getByTestId("ticket-filter").getByText("In progress").click();
  const progressing = page.getByTestId("lead-row").filter({ hasText: leadEmail });
  await progressing.getByTestId("ticket-status").click();
  await page.getByTestId("ticket-status-resolved").click();
  await page.getByTestId("ticket-filter").getByText("Resolved").click();
  await expect(page.getByTestId("lead-row").filter({ hasText: leadEmail })).toHaveCount(1);

  await page.getByTestId("queue-tab-feedback").click();
  const fbRow = page.getByTestId("feedback-queue-row").filter({ hasText: "Streaming stops after 30 s." });
  const image = await page.request.get((await fbRow.getByTestId("feedback-image").getAttribute("href"))!);
  expect(image.headers()["content-type"]).toBe("image/png");
  await fbRow.getByTestId("ticket-status").click();
  await page.getByTestId("ticket-status-resolved").click();
  await expect(fbRow).toHaveCount(0);

  // Voucher codes: generate a batch, download it, revoke it.
  await page.getByRole("link", { name: "Voucher codes" }).click();
  await page.getByTestId("batch-generate").click();
  await page.getByTestId("batch-count").fill("5");
  await page.getByTestId("batch-amount").fill("20");
  await page.getByRole("dialog").getByRole("button", { name: "Generate batch" }).click();
  await expect(page.getByTestId("batch-codes")).toBeVisible();
  const codes = (await page.getByTestId("batch-codes").innerText()).trim().split("\n");
  expect(codes).toHaveLength(5);
  const downloading = page.waitForEvent("download");
  await page.getByTestId("batch-download").click();
  const csv = fs.readFileSync((await (await downloading).path())!, "utf8");
  for (const c of codes) expect(csv).toContain(c);
  await page.getByRole("button", { name: "Done" }).click();
  const batchRow = page.getByTestId("batch-row").first();
  await expect(batchRow.getByTestId("batch-usable")).toHaveText("5");
  await batchRow.getByTestId("batch-revoke").click();
  await confirmDialog(page);
  await expect(batchRow.getByTestId("batch-usable")).toHaveText("0");

  // Riddles: reorder and retire in the expert track, then put everything back (the riddles spec plays the tracks).
  await page.getByRole("link", { name: "Riddles" }).click();
  await page.getByTestId("riddle-track").getByText("Expert").click();
  const firstId = await page.getByTestId("riddle-row").nth(0).locator("p").nth(1).innerText();
  await page.getByTestId("riddle-row").nth(1).getByTestId("riddle-up").click();
  await expect(page.getByTestId("riddle-row").nth(1)).toContainText(firstId);
  await page.getByTestId("riddle-row").nth(0).getByTestId("riddle-down").click();
  await expect(page.getByTestId("riddle-row").nth(0)).toContainText(firstId);
  const last = page.getByTestId("riddle-row").last();
  await last.getByTestId("riddle-retire").click();
  await expect(page.getByTestId("riddle-row").last().getByTestId("riddle-status")).toHaveText("Retired");
  await page.getByTestId("riddle-row").last().getByTestId("riddle-restore").click();
  await expect(page.getByTestId("riddle-status").filter({ hasText: "Retired" })).toHaveCount(0);
  // An edit the server refuses explains why and changes nothing.
  await page.getByTestId("riddle-row").nth(0).getByTestId("riddle-edit").click();
  await page.getByTestId("riddle-json").fill('{"model": "gpt-9"}');
  await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog")).toContainText("unknown model");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

  // The audit log has each action, and exports it.
  await page.getByRole("link", { name: "Audit log" }).click();
  const actions = page.getByTestId("audit-action");
  for (const action of [
    "org.grant",
    "verification.approve",
    "payment.confirm",
    "lead.reply",
    "lead.set_status",
    "feedback.set_status",
    "voucher_codes.generate",
    "voucher_codes.revoke",
    "riddle.move",
    "riddle.retire",
    "riddle.restore",
  ]) {
    await expect(actions.filter({ hasText: new RegExp(`^${action.replace(".", "\\.")}$`) }).first()).toBeVisible();
  }
  await page.getByTestId("audit-search").fill("org.grant");
  await expect(page.getByTestId("audit-row")).toHaveCount(1);
  const exporting = await page.request.get("/api/admin/audit?q=org.grant&format=csv");
  expect(await exporting.text()).toContain("goodwill for INC-7");

  // The catalog: every model with its prices; this e2e server has no upstream, so the simulator serves them.
  await page.getByRole("link", { name: "Catalog" }).click();
  await expect(page.getByTestId("catalog-model-row").filter({ hasText: "moonshot-v1-8k" }).first()).toContainText(
    "Simulator",
  );

  // Screenshots of every back-office screen, both locales and themes.
  const state = await page.context().storageState();
  fs.mkdirSync(".tmp/shots", { recursive: true });
  for (const locale of ["en-US", "zh-CN"] as const) {
    for (const theme of ["light", "dark"] as const) {
      const ctx = await browser.newContext({
        storageState: state,
        colorScheme: theme,
        viewport: { width: 1280, height: 900 },
      });
      await ctx.addCookies([{ name: "locale", value: locale, url: baseURL! }]);
      const p = await ctx.newPage();
      for (const [name, path] of [
        ["dashboard", "/admin"],
        ["organizations", "/admin/organizations"],
        ["organization", `/admin/organizations/${orgId}`],
        ["users", "/admin/users"],
        ["queues", "/admin/queues/leads"],
        ["verifications", "/admin/queues/verifications"],
        ["codes", "/admin/codes"],
        ["audit", "/admin/audit"],
        ["catalog", "/admin/catalog"],
        ["riddles", "/admin/riddles"],
      ] as const) {
        await p.goto(path);
        await p.waitForLoadState("networkidle");
        await p.screenshot({ path: `.tmp/shots/admin-${name}-${locale}-${theme}.png`, fullPage: true });
      }
      await ctx.close();
    }
  }
  // On a phone: every screen fits (wide tables scroll inside their frame, the page never gets wider).
  const phone = await browser.newContext({ storageState: state, viewport: { width: 390, height: 844 } });
  const p = await phone.newPage();
  for (const path of ADMIN_PATHS(orgId)) {
    await p.goto(path);
    await p.waitForLoadState("networkidle");
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} overflows at 390 px`).toBeLessThanOrEqual(0);
  }
  await phone.close();
});

const ADMIN_PATHS = (orgId: string) => [
  "/admin",
  "/admin/organizations",
  `/admin/organizations/${orgId}`,
  "/admin/users",
  "/admin/queues/leads",
  "/admin/codes",
  "/admin/audit",
  "/admin/catalog",
  "/admin/riddles",
];
