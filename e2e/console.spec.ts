import { type APIRequestContext, type BrowserContext, expect, type Page, test } from "@playwright/test";
import OpenAI from "openai";

/**
 * The console's main path across two users: an admin invites a second user by link, the user joins and is
 * added to a project, creates a key and calls /v1/chat/completions with it through the OpenAI SDK; the call shows
 * up in consumption; the admin archives the project and the key is refused with 401.
 */

const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE = `http://localhost:${PORT}`;

function uniquePhone(): string {
  return `139${String(Date.now()).slice(-8)}`;
}

async function csrf(context: BrowserContext): Promise<string> {
  const cookies = await context.cookies(BASE);
  return cookies.find((c) => c.name === "mp_csrf")?.value ?? "";
}

/** Signs up through the real endpoints (SMS code from the development outbox); the browser context keeps the session. */
async function signUp(page: Page, username: string, phone: string) {
  await page.goto("/");
  const request: APIRequestContext = page.request;
  const headers = async () => ({ "x-csrf-token": await csrf(page.context()), origin: BASE });
  const sms = await request.post("/api/auth/sms", { data: { phone, purpose: "signup" }, headers: await headers() });
  expect(sms.status(), await sms.text()).toBe(200);
  const outbox = await request.get(`/api/dev/sms-outbox?phone=${encodeURIComponent(`+86${phone}`)}`);
  const [message] = (await outbox.json()) as { code: string }[];
  const res = await request.post("/api/auth/signup/phone", {
    data: { phone, code: message!.code, username, password: "Str0ng!pass", confirmPassword: "Str0ng!pass" },
    headers: await headers(),
  });
  expect(res.status(), await res.text()).toBe(200);
}

test("an invited user joins, gets a project, calls the API with a new key, and loses it when the project is archived", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const adminContext = await browser.newContext({ locale: "en-US" });
  const userContext = await browser.newContext({ locale: "en-US" });
  for (const c of [adminContext, userContext]) {
    await c.addCookies([{ name: "locale", value: "en-US", url: BASE }]);
  }
  const admin = await adminContext.newPage();
  const user = await userContext.newPage();
  const userPhone = uniquePhone();
  await signUp(admin, `admin_${Date.now() % 100000}`, String(Number(userPhone) - 1));
  await signUp(user, `user_${Date.now() % 100000}`, userPhone);

  // No recharge flow exists yet: the DEV_SEAMS grant route credits the admin's organization.
  const me = await (await admin.request.get("/api/me")).json();
  const grant = await admin.request.post(`/api/dev/orgs/${me.currentOrganizationId}/grant`, {
    data: { amount: "100" },
    headers: { "x-csrf-token": await csrf(adminContext), origin: BASE },
  });
  expect(grant.status(), await grant.text()).toBe(200);

  // The admin creates a project for the work.
  await admin.goto("/console/projects");
  await admin.getByRole("button", { name: "New project" }).click();
  await admin.getByLabel("Name").fill("e2e-project");
  await admin.getByRole("button", { name: "Create project" }).click();
  await expect(admin.getByRole("link", { name: "e2e-project" })).toBeVisible();

  // The admin invites the user by phone and gets a link.
  await admin.goto("/console/organization/members");
  await admin.getByRole("button", { name: "Invite member" }).click();
  await admin.getByLabel("Phone").fill(userPhone);
  await admin.getByLabel("Nickname").fill("teammate");
  await admin.getByRole("button", { name: "Create invitation link" }).click();
  const link = await admin.locator("code").filter({ hasText: "/invite/" }).innerText();
  expect(link).toContain("/invite/");
  await admin.getByRole("button", { name: "Done" }).click();
  await expect(admin.getByText("Pending")).toBeVisible();

  // The user opens it, confirms and joins.
  await user.goto(new URL(link).pathname);
  await expect(user.getByTestId("invite-question")).toContainText("Confirm joining");
  await user.getByRole("button", { name: "Join" }).click();
  await user.waitForURL(/\/console/);

  // The admin adds the user to the project.
  await admin.goto("/console/projects");
  await admin.getByRole("link", { name: "e2e-project" }).click();
  await admin.getByRole("tab", { name: "Members" }).click();
  await admin.getByRole("button", { name: "Add member" }).click();
  await admin.getByTestId("project-member-select").click();
  await admin.getByRole("option", { name: /teammate/ }).click();
  await admin.getByRole("button", { name: "Add", exact: true }).click();
  await expect(admin.getByTestId("project-member-row").filter({ hasText: "teammate" })).toBeVisible();
  const projectUrl = admin.url();

  // The user creates a key in that project; the secret is shown once.
  await user.goto("/console/api-keys");
  await user.getByRole("button", { name: "Create API key" }).first().click();
  const createDialog = user.getByRole("dialog");
  await createDialog.getByLabel("Name").fill("e2e-key");
  await createDialog.getByRole("textbox", { name: "Project", exact: true }).click();
  await user.getByRole("option", { name: "e2e-project" }).click();
  await createDialog.getByRole("button", { name: "Create", exact: true }).click();
  const secret = await user.getByTestId("api-key-secret").inputValue();
  expect(secret).toMatch(/^sk-/);
  await user.getByRole("button", { name: "Done" }).click();
  await expect(user.getByTestId("api-key-row").filter({ hasText: "e2e-key" })).toBeVisible();

  // The key works through the OpenAI SDK.
  const client = new OpenAI({ apiKey: secret, baseURL: `${BASE}/v1`, maxRetries: 0 });
  const completion = await client.chat.completions.create({
    model: "moonshot-v1-8k",
    messages: [{ role: "user", content: "Say hello" }],
  });
  expect(completion.choices[0]?.message.content).toBeTruthy();

  // The call appears in the user's consumption (bill rows are written in small batches).
  await expect(async () => {
    await user.goto("/console/consumption");
    await expect(user.getByTestId("consumption-byApiKey")).toContainText("e2e-key");
  }).toPass({ timeout: 20_000 });

  // The admin archives the project; the key is refused.
  await admin.goto(projectUrl);
  await admin.getByRole("tab", { name: "Settings" }).click();
  await admin.getByRole("button", { name: "Archive project" }).click();
  await admin.getByTestId("archive-confirm-input").fill("e2e-project");
  await admin.getByRole("dialog").getByRole("button", { name: "Archive project" }).click();
  await expect(admin.getByTestId("archived-banner")).toBeVisible();
  await expect(async () => {
    const err = await client.chat.completions
      .create({ model: "moonshot-v1-8k", messages: [{ role: "user", content: "again" }] })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(401);
  }).toPass({ timeout: 5_000 });

  await adminContext.close();
  await userContext.close();
});
