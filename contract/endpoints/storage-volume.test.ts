import { describe, expect, it } from "vitest";
import { hasInstanceStorage, storageVolumeFor, storageVolumeGb } from "./storage-volume.ts";

const GIB = 1024 ** 3;

describe("the storage volume of an instance variant", () => {
  it("knows which instance types have NVMe instance storage (no EBS volume)", () => {
    for (const type of [
      "ml.c5d.2xlarge",
      "ml.m5d.xlarge",
      "ml.g4dn.xlarge",
      "ml.g5.2xlarge",
      "ml.g6e.xlarge",
      "ml.p4d.24xlarge",
      "ml.p5.48xlarge",
    ]) {
      expect(hasInstanceStorage(type), type).toBe(true);
    }
    for (const type of [
      "ml.c6i.2xlarge",
      "ml.c7i.2xlarge",
      "ml.m5.large",
      "ml.r5.xlarge",
      "ml.p3.2xlarge",
      "ml.inf2.xlarge",
    ]) {
      expect(hasInstanceStorage(type), type).toBe(false);
    }
  });

  it("holds a Gzip archive and its extraction, or the uncompressed model once, with headroom", () => {
    expect(storageVolumeGb(10 * GIB, "Gzip")).toBe(26); // 20 GiB * 1.2 + 2 GiB
    expect(storageVolumeGb(10 * GIB, "None")).toBe(14);
    expect(storageVolumeGb(1_000, "Gzip")).toBe(3);
  });

  it("sizes EBS instance types only, and says when the model's size is unknown", () => {
    expect(storageVolumeFor("ml.c6i.2xlarge", 4 * GIB, "Gzip")).toEqual({ kind: "ebs", sizeGb: 12 });
    expect(storageVolumeFor("ml.c5d.2xlarge", 4 * GIB, "Gzip")).toEqual({ kind: "instance-storage" });
    expect(storageVolumeFor("ml.c6i.2xlarge", undefined, "Gzip")).toMatchObject({ kind: "default" });
  });
});
