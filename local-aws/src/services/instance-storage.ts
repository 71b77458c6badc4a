/**
 * Whether an ML instance type comes with NVMe instance storage, which SageMaker uses instead of an EBS volume and
 * so refuses ProductionVariant.VolumeSizeInGB for ("VolumeSizeInGB ... is not supported for instance types with
 * instance storage", the developer guide's "Host instance storage volumes"). EC2 names an instance store with the
 * `d` attribute after the generation (c5d, m5d, r5d, g4dn, p4d, m6id); the accelerated families dl1, g5, g6, g6e, p5
 * and trn1 carry NVMe storage without it. Local mode's own reading: the console sizes volumes with another.
 */
const NVME_WITHOUT_D = ["dl1", "g5", "g6", "g6e", "p5", "p5e", "p5en", "trn1", "trn1n"];

export function instanceTypeHasInstanceStorage(instanceType: string): boolean {
  const family = instanceType.replace(/^ml\./, "").split(".")[0] ?? "";
  const parsed = /^([a-z]+)(\d+)([a-z-]*)$/.exec(family);
  if (!parsed) return false;
  const attributes = parsed[3] ?? "";
  return attributes.includes("d") || NVME_WITHOUT_D.includes(family);
}
