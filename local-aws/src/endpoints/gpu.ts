import fs from "node:fs";

/** Whether this machine has an NVIDIA GPU driver loaded (what a CUDA container would need to start). */
export function hasNvidiaGpu(): boolean {
  return fs.existsSync("/proc/driver/nvidia/version") || fs.existsSync("/dev/nvidiactl");
}
