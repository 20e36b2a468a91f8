import { AcceptInvitationResponse, InvitationPreview, InviteMemberResponse, MemberPage } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/modules/keys/create-api-key.ts";
import { addOrgMember, addProjectMember, signUp } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function members(client: Awaited<ReturnType<typeof signUp>>["client"], orgId: string) {
  const res = await client.get(`/api/orgs/${orgId}/members?pageSize=100`);
  expect(res.status).toBe(200);
  return MemberPage.parse(res.body);
}

describe("members and invitations", () => {
  it("invites by phone, shows a pending row, and lets the invitee join through the link", async () => {
    const admin = await signUp(t);
    const invitee = await signUp(t);
    const res = await admin.client.post(`/api/orgs/${admin.orgId}/invitations`, {
      phone: invitee.phone,
      nickname: "bob_2",
      role: "member",
    });
    expect(res.status).toBe(201);
    const inv = InviteMemberResponse.parse(res.body);
    expect(inv.path).toMatch(/^\/invite\/[\w-]{20,}$/);
    const stored = await t.ctx.db.select().from(schema.invitations).where(eq(schema.invitations.id, inv.invitationId));
    expect(stored[0]!.tokenHash).not.toContain(inv.path.split("/").pop());
    expect(new Date(inv.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);

    const list = await members(admin.client, admin.orgId);
    expect(list.items.map((m) => [m.status, m.nickname])).toEqual([
      ["joined", admin.username],
      ["pending", "bob_2"],
    ]);
    expect(list.items[1]!.phoneMasked).toMatch(/\*\*\*\*/);

    const token = inv.path.split("/").pop()!;
    const preview = InvitationPreview.parse((await invitee.client.get(`/api/invitations/${token}`)).body);
    const orgName = (await admin.client.get(`/api/orgs/${admin.orgId}`)).body.name;
    expect(preview).toMatchObject({ organizationName: orgName, status: "open" });

    const accepted = await invitee.client.post(`/api/invitations/${token}/accept`);
    expect(accepted.status).toBe(200);
    expect(AcceptInvitationResponse.parse(accepted.body).orgId).toBe(admin.orgId);
    const after = await members(admin.client, admin.orgId);
    expect(after.items.map((m) => [m.status, m.nickname, m.role])).toEqual([
      ["joined", admin.username, "admin"],
      ["joined", "bob_2", "member"],
    ]);
    const [user] = await t.ctx.db.select().from(schema.users).where(eq(schema.users.id, invitee.userId));
    expect(user!.currentOrgId).toBe(admin.orgId);

    // Single use: the same link cannot be used again, even by the same person.
    const again = await invitee.client.post(`/api/invitations/${token}/accept`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe("invitation_invalid");
    expect(InvitationPreview.parse((await invitee.client.get(`/api/invitations/${token}`)).body).status).toBe("used");
  });

  it("resends a pending invitation: a fresh link that works, the old one retired, seven more days", async () => {
    const admin = await signUp(t);
    const invitee = await signUp(t);
    const first = InviteMemberResponse.parse(
      (
        await admin.client.post(`/api/orgs/${admin.orgId}/invitations`, {
          phone: invitee.phone,
          nickname: "carol",
          role: "member",
        })
      ).body,
    );
    const oldToken = first.path.split("/").pop()!;
    const res = await admin.client.post(`/api/orgs/${admin.orgId}/invitations/${first.invitationId}/resend`, {});
    expect(res.status).toBe(200);
    const resent = InviteMemberResponse.parse(res.body);
    expect(resent.invitationId).toBe(first.invitationId);
    const newToken = resent.path.split("/").pop()!;
    expect(newToken).not.toBe(oldToken);
    expect(new Date(resent.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);

    const old = await invitee.client.get(`/api/invitations/${oldToken}`);
    expect(old.status).toBe(404);
    expect(old.body.error.code).toBe("invitation_invalid");
    expect((await invitee.client.post(`/api/invitations/${oldToken}/accept`)).status).toBe(404);

    // Still one pending row, not two.
    expect((await members(admin.client, admin.orgId)).items.filter((m) => m.status === "pending")).toHaveLength(1);
    expect((await invitee.client.post(`/api/invitations/${newToken}/accept`)).status).toBe(200);

    // An answered invitation cannot be resent.
    const again = await admin.client.post(`/api/orgs/${admin.orgId}/invitations/${first.invitationId}/resend`, {});
    expect(again.status).toBe(404);
  });

  it("tells a signed-in visitor whether the invitation is for their phone, and shows whose it is", async () => {
    const admin = await signUp(t);
    const invitee = await signUp(t);
    const stranger = await signUp(t);
    const inv = await admin.client.post(`/api/orgs/${admin.orgId}/invitations`, {
      phone: invitee.phone,
      nickname: "dave",
      role: "member",
    });
    const token = inv.body.path.split("/").pop();
    const mine = InvitationPreview.parse((await invitee.client.get(`/api/invitations/${token}`)).body);
    const theirs = InvitationPreview.parse((await stranger.client.get(`/api/invitations/${token}`)).body);
    expect(mine.forSignedInUser).toBe(true);
    expect(theirs.forSignedInUser).toBe(false);
    expect(theirs.phoneMasked).toMatch(/\*\*\*\*/);
    expect(theirs.phoneMasked).not.toContain(invitee.phone.slice(3, 7));
  });

  it("refuses an invitation to anyone whose bound phone differs, naming the masked phone", async () => {
    const admin = await signUp(t);
    const stranger = await signUp(t);
    const inv = await admin.client.post(`/api/orgs/${admin.orgId}/invitations`, {
      phone: "13911112222",
      nickname: "someone",
      role: "member",
    });
    const token = inv.body.path.split("/").pop();
    const res = await stranger.client.post(`/api/invitations/${token}/accept`);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("invitation_phone_mismatch");
    expect(res.body.error.message).toContain("+86 139****2222");
    const rows = await t.ctx.db
      .select()
      .from(schema.orgMembers)
      .where(and(eq(schema.orgMembers.orgId, admin.orgId), eq(schema.orgMembers.userId, stranger.userId)));
    expect(rows).toHaveLength(0);
  });

  it("requires a signed-in user to accept", async () => {
    const admin = await signUp(t);
    const inv = await admin.client.post(`/api/orgs/${admin.orgId}/invitations`, {
      phone: "13911113333",
      nickname: "anon",
      role: "member",
    });
    const { TestClient } = await import("./helpers.ts");
    const anon = new TestClient(t.app);
    const res = await anon.post(`/api/invitations/${inv.body.path.split("/").pop()}/accept`);
    expect(res.status).toBe(401);
  });

  it("rejects an expired invitation and reports it as expired", async () => {
    const admin = await signUp(t);
    const invitee = await signUp(t);
    const inv = await admin.client.post(`/api/orgs/${admin.orgId}/invitations`, {
      phone: invitee.phone,
      nickname: "late",
      role: "member",
    });
    await t.ctx.db
      .update(schema.invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.invitations.id, inv.body.invitationId));
    const token = inv.body.path.split("/").pop();
    expect((await invitee.client.get(`/api/invitations/${token}`)).body.status).toBe("expired");
    const res = await invitee.client.post(`/api/invitations/${token}/accept`);
    expect(res.body.error.code).toBe("invitation_invalid");
    expect((await members(admin.client, admin.orgId)).items).toHaveLength(1);
  });

  it("uses up the link when the invitee declines, and a revoked link stops working", async () => {
    const admin = await signUp(t);
    const invitee = await signUp(t);
    const inv = await admin.client.post(`/api/orgs/${admin.orgId}/invitations`, {
      phone: invitee.phone,
      nickname: "nope",
      role: "member",
    });
    const token = inv.body.path.split("/").pop();
    expect((await invitee.client.post(`/api/invitations/${token}/decline`)).status).toBe(200);
    expect((await invitee.client.post(`/api/invitations/${token}/accept`)).body.error.code).toBe("invitation_invalid");

    const inv2 = await admin.client.post(`/api/orgs/${admin.orgId}/invitations`, {
      phone: invitee.phone,
      nickname: "second",
      role: "member",
    });
    expect(inv2.status).toBe(201);
    expect((await admin.client.delete(`/api/orgs/${admin.orgId}/invitations/${inv2.body.invitationId}`)).status).toBe(
      200,
    );
    const token2 = inv2.body.path.split("/").pop();
    expect((await invitee.client.get(`/api/invitations/${token2}`)).body.status).toBe("revoked");
    expect((await invitee.client.post(`/api/invitations/${token2}/accept`)).status).toBe(404);
    expect((await members(admin.client, admin.orgId)).items).toHaveLength(1);
  });

  it("answers an unknown token like an invalid one", async () => {
    const u = await signUp(t);
    const res = await u.client.get("/api/invitations/not-a-real-token");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("invitation_invalid");
  });

  it.each([
    [{ phone: "12345", nickname: "ok_name", role: "member" }, "phone"],
    [{ phone: "13700009999", nickname: "", role: "member" }, "nickname"],
    [{ phone: "13700009999", nickname: "has space", role: "member" }, "nickname"],
    [{ phone: "13700009999", nickname: "名字", role: "member" }, "nickname"],
    [{ phone: "13700009999", nickname: "a".repeat(33), role: "member" }, "nickname"],
    [{ phone: "13700009999", nickname: "ok_name" }, "role"],
    [{ phone: "13700009999", nickname: "ok_name", role: "owner" }, "role"],
  ])("rejects the invitation %j with a field error on %s and invites no one", async (body, field) => {
    const admin = await signUp(t);
    admin.client.locale = "zh-CN";
    const res = await admin.client.post(`/api/orgs/${admin.orgId}/invitations`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    const detail = res.body.error.details.find((d: { path: string }) => d.path === field);
    expect(detail, JSON.stringify(res.body)).toBeDefined();
    expect(detail.message).toMatch(/[\u4e00-\u9fff]/);
    expect((await members(admin.client, admin.orgId)).items).toHaveLength(1);
  });

  it("refuses to invite an existing member or a phone with an open invitation", async () => {
    const admin = await signUp(t);
    const other = await signUp(t);
    await addOrgMember(t, admin.orgId, other, "member");
    const dup = await admin.client.post(`/api/orgs/${admin.orgId}/invitations`, {
      phone: other.phone,
      nickname: "dup",
      role: "member",
    });
    expect(dup.status).toBe(400);
    expect(dup.body.error.details[0].path).toBe("phone");
    const first = await admin.client.post(`/api/orgs/${admin.orgId}/invitations`, {
      phone: "13766665555",
      nickname: "first",
      role: "member",
    });
    expect(first.status).toBe(201);
    const second = await admin.client.post(`/api/orgs/${admin.orgId}/invitations`, {
      phone: "13766665555",
      nickname: "second",
      role: "admin",
    });
    expect(second.status).toBe(400);
    expect(second.body.error.details[0].message).toContain("already pending");
  });

  it("edits a member's nickname and role with the same rules", async () => {
    const admin = await signUp(t);
    const other = await signUp(t);
    await addOrgMember(t, admin.orgId, other, "member");
    const bad = await admin.client.patch(`/api/orgs/${admin.orgId}/members/${other.userId}`, { nickname: "bad name" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("nickname");
    const ok = await admin.client.patch(`/api/orgs/${admin.orgId}/members/${other.userId}`, {
      nickname: "renamed_1",
      role: "admin",
    });
    expect(ok.status).toBe(200);
    const list = await members(admin.client, admin.orgId);
    expect(list.items.find((m) => m.userId === other.userId)).toMatchObject({ nickname: "renamed_1", role: "admin" });
  });

  it("always keeps one admin: the last admin can be neither demoted nor removed", async () => {
    const admin = await signUp(t);
    const demote = await admin.client.patch(`/api/orgs/${admin.orgId}/members/${admin.userId}`, { role: "member" });
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe("last_admin");
    const remove = await admin.client.delete(`/api/orgs/${admin.orgId}/members/${admin.userId}`);
    expect(remove.status).toBe(409);
    expect(remove.body.error.code).toBe("last_admin");
    expect((await members(admin.client, admin.orgId)).items[0]!.role).toBe("admin");

    const second = await signUp(t);
    await addOrgMember(t, admin.orgId, second, "admin");
    expect(
      (await admin.client.patch(`/api/orgs/${admin.orgId}/members/${admin.userId}`, { role: "member" })).status,
    ).toBe(200);
    const back = await second.client.patch(`/api/orgs/${admin.orgId}/members/${second.userId}`, { role: "member" });
    expect(back.body.error.code).toBe("last_admin");
  });

  it("removing a member drops their project roles, disables their keys and tells the key cache", async () => {
    const admin = await signUp(t);
    const other = await signUp(t);
    await addOrgMember(t, admin.orgId, other, "member");
    await addProjectMember(t, admin.defaultProjectId, other, "member");
    const theirs = await createApiKey({
      db: t.ctx.db,
      orgId: admin.orgId,
      projectId: admin.defaultProjectId,
      name: "theirs",
      createdBy: other.userId,
    });
    const mine = await createApiKey({
      db: t.ctx.db,
      orgId: admin.orgId,
      projectId: admin.defaultProjectId,
      name: "mine",
      createdBy: admin.userId,
    });
    const events: unknown[] = [];
    const off = t.ctx.keyEvents.subscribe((e) => {
      events.push(e);
    });
    try {
      expect((await admin.client.delete(`/api/orgs/${admin.orgId}/members/${other.userId}`)).status).toBe(200);
    } finally {
      off();
    }
    const keys = await t.ctx.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.orgId, admin.orgId));
    expect(keys.find((k) => k.id === theirs.id)!.status).toBe("disabled");
    expect(keys.find((k) => k.id === mine.id)!.status).toBe("enabled");
    const [row] = await t.ctx.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, theirs.id));
    expect(events).toEqual([{ keyHash: row!.keyHash }]);
    const pm = await t.ctx.db
      .select()
      .from(schema.projectMembers)
      .where(eq(schema.projectMembers.userId, other.userId));
    expect(pm.filter((r) => r.projectId === admin.defaultProjectId)).toHaveLength(0);
    expect((await other.client.get(`/api/orgs/${admin.orgId}`)).status).toBe(404);
  });

  it("paginates members and pending invitations together", async () => {
    const admin = await signUp(t);
    for (let i = 0; i < 5; i++) {
      const r = await admin.client.post(`/api/orgs/${admin.orgId}/invitations`, {
        phone: `1350000${String(i).padStart(4, "0")}`,
        nickname: `p_${i}`,
        role: "member",
      });
      expect(r.status).toBe(201);
    }
    const page2 = MemberPage.parse((await admin.client.get(`/api/orgs/${admin.orgId}/members?page=2&pageSize=4`)).body);
    expect(page2.total).toBe(6);
    expect(page2.items.map((m) => m.nickname)).toEqual(["p_3", "p_4"]);
    const bad = await admin.client.get(`/api/orgs/${admin.orgId}/members?pageSize=1000`);
    expect(bad.status).toBe(400);
  });
});
