import { expect, it } from "vitest";
import { describeOnStores } from "../../tests/support/store/test-stores.ts";
import { listAudit, recordAudit } from "../audit/record.ts";
import { isRevoked, revokeSession } from "./revocation.ts";
import { deleteUser, findUser, insertUser, listUsers, updateUser, usersConfigured } from "./users.ts";

const noEnv = {};

describeOnStores("stored users", (current) => {
  it("are added, found, listed by name, changed and removed; a second of one name is a conflict", async () => {
    const { store } = current();
    expect(await usersConfigured(store, noEnv)).toBe(false);
    await insertUser(store, { name: "zoe", role: "viewer", passwordHash: "h1" });
    await insertUser(store, { name: "al", role: "operator", passwordHash: "h2" });
    expect(await usersConfigured(store, noEnv)).toBe(true);
    await expect(insertUser(store, { name: "al", role: "viewer", passwordHash: "h3" })).rejects.toMatchObject({
      status: 409,
      message: "A user named al already exists.",
    });
    expect((await listUsers(store, noEnv)).map((user) => user.name)).toEqual(["al", "zoe"]);
    await updateUser(store, "zoe", { role: "operator" });
    expect(await findUser(store, "zoe", noEnv)).toMatchObject({ role: "operator", credential: { hash: "h1" } });
    await updateUser(store, "zoe", { passwordHash: "h4" });
    expect(await findUser(store, "zoe", noEnv)).toMatchObject({ role: "operator", credential: { hash: "h4" } });
    await deleteUser(store, "zoe");
    expect(await findUser(store, "zoe", noEnv)).toBeNull();
    await expect(deleteUser(store, "zoe")).rejects.toMatchObject({ status: 404 });
    await expect(updateUser(store, "zoe", { role: "viewer" })).rejects.toMatchObject({ status: 404 });
  });

  it("signed-out sessions stay refused until they would have expired, then are swept", async () => {
    const { store } = current();
    await revokeSession(store, "old", new Date(Date.now() - 1_000));
    await revokeSession(store, "current", new Date(Date.now() + 60_000));
    await revokeSession(store, "current", new Date(Date.now() + 60_000));
    expect(await isRevoked(store, "current")).toBe(true);
    expect(await isRevoked(store, "old")).toBe(false);
  });

  it("the audit log: ids in order, newest first, filtered and paged", async () => {
    const { store } = current();
    const written = [];
    for (const [actor, action] of [
      ["ana", "endpoint.delete"],
      ["bo", "build.start"],
      ["ana", "build.start"],
    ] as const) {
      written.push(await recordAudit({ actor, action, target: "t", result: "ok", detail: { n: 1 } }, store));
    }
    expect(written[1]!.id).toBeGreaterThan(written[0]!.id);
    expect((await listAudit({ limit: 10 }, store)).map((row) => row.id)).toEqual(
      written.map((row) => row.id).reverse(),
    );
    expect(await listAudit({ limit: 10, actor: "ana", action: "build.start" }, store)).toMatchObject([
      { actor: "ana", action: "build.start", detail: { n: 1 } },
    ]);
    expect((await listAudit({ limit: 1, beforeId: written[2]!.id }, store)).map((row) => row.id)).toEqual([
      written[1]!.id,
    ]);
  });
});
