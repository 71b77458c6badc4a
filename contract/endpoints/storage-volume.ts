/**
 * The ML storage volume (ProductionVariant.VolumeSizeInGB) of an instance variant, one rule for the console and
 * local SageMaker.
 *
 * Which instance types take one: SageMaker attaches an EBS (gp2) volume only to instance types without instance
 * storage; those with NVMe instance store use it instead and refuse VolumeSizeInGB. The rule is the SageMaker Python
 * SDK's `volume_size_supported` (an instance family with a "d", as c5d, m5d, g4dn, p4d; and g5, g6, g6e, trn1, per
 * aws/sagemaker-python-sdk#4828), plus p5, whose EC2 instance type has NVMe instance store too.
 */

/** ProductionVariant.VolumeSizeInGB's range in the service model. */
export const VOLUME_SIZE_RANGE_GB = { min: 1, max: 512 } as const;

const GIB = 1024 ** 3;

/** Room beyond the model data itself: SageMaker's own files on the volume, logs, and a margin for a tight fit. */
const HEADROOM = { fraction: 0.2, bytes: 2 * GIB };

export function hasInstanceStorage(instanceType: string): boolean {
  const family = instanceType.split(".")[1] ?? "";
  return family.includes("d") || /^(g5|g6|p5|trn1)/.test(family);
}

/**
 * The volume for the model data: a Gzip model.tar.gz is downloaded and extracted next to itself (archive plus
 * GGUF: twice the model), an uncompressed S3 prefix is downloaded as is (once). In whole GB, at least 1.
 */
export function storageVolumeGb(modelBytes: number, compression: "Gzip" | "None"): number {
  const data = modelBytes * (compression === "Gzip" ? 2 : 1);
  return Math.max(VOLUME_SIZE_RANGE_GB.min, Math.ceil((data * (1 + HEADROOM.fraction) + HEADROOM.bytes) / GIB));
}

/** What the variant gets: a size for an EBS instance type, or why it gets none. */
export type StorageVolume =
  | { kind: "ebs"; sizeGb: number }
  | { kind: "instance-storage" }
  | { kind: "default"; reason: string };

export function storageVolumeFor(
  instanceType: string,
  modelBytes: number | undefined,
  compression: "Gzip" | "None",
): StorageVolume {
  if (hasInstanceStorage(instanceType)) return { kind: "instance-storage" };
  if (modelBytes === undefined) return { kind: "default", reason: "the model's size is unknown" };
  return { kind: "ebs", sizeGb: storageVolumeGb(modelBytes, compression) };
}

/** The review step's words for it. */
export function describeStorageVolume(volume: StorageVolume): string {
  if (volume.kind === "ebs") return `${volume.sizeGb} GB EBS volume (model data plus its extraction and headroom)`;
  if (volume.kind === "instance-storage") return "the instance type's NVMe instance storage (no EBS volume)";
  return `SageMaker's default EBS volume (${volume.reason}: pick a model build to size it)`;
}
