#!/usr/bin/env bash
# Runs on the GPU machine, in the carried copy of the working tree (see bench/gpu/README.md):
#   bash bench/gpu/device.sh receive   # keep the payload part(s) carried by this call
#   bash bench/gpu/device.sh run       # keep this call's part, unpack once, then run bench/gpu/gpu-bench.ts on CUDA
# Everything kept lives in $DC_GPU_STORE (default /tmp/dc-gpu), outside the per-call tree copy, so it survives
# between calls while the machine stays warm (its idle release is short: make the calls back to back).
set -euo pipefail

step="${1:-}"
repo="$(pwd)"
store="${DC_GPU_STORE:-/tmp/dc-gpu}"
carry="bench/out/gpu-carry"
mkdir -p "$store/parts"

for part in "$carry"/payload.part-*; do
  [ -e "$part" ] || continue
  cp "$part" "$store/parts/"
done
[ -e "$carry/SHA256SUMS" ] && cp "$carry/SHA256SUMS" "$store/SHA256SUMS"
echo "parts kept in $store/parts:" && ls -l "$store/parts"

case "$step" in
  receive) exit 0 ;;
  run) ;;
  *) echo "usage: bash bench/gpu/device.sh receive|run" >&2; exit 2 ;;
esac

if [ ! -x "$store/root/bin/node" ]; then
  (cd "$store/parts" && sha256sum -c ../SHA256SUMS) || {
    echo "payload incomplete or corrupted: carry every part listed in SHA256SUMS first" >&2
    exit 1
  }
  mkdir -p "$store/root"
  started=$(date +%s)
  cat "$store"/parts/payload.part-* | xz -dc -T0 | tar -x -C "$store/root"
  echo "unpacked in $(( $(date +%s) - started )) s"
fi

# The CUDA prebuilt links libcudart.so.13 and libcublas.so.13 from the machine's CUDA 13 installation.
cuda_dirs=""
for lib in libcudart.so.13 libcublas.so.13 libcublasLt.so.13; do
  found="$(ldconfig -p 2>/dev/null | awk -v l="$lib" '$1 == l { print $NF; exit }')"
  if [ -z "$found" ]; then
    found="$(find /usr/local/cuda* /usr/lib/x86_64-linux-gnu /opt -name "$lib" 2>/dev/null | head -n 1 || true)"
  fi
  if [ -z "$found" ]; then
    echo "$lib not found on this machine: the CUDA prebuilt cannot load (see bench/gpu/README.md)" >&2
    exit 1
  fi
  echo "$lib: $found"
  cuda_dirs="$cuda_dirs:$(dirname "$found")"
done
export LD_LIBRARY_PATH="${cuda_dirs#:}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv || true
if [ -e "$repo/node_modules" ] && [ ! -L "$repo/node_modules" ]; then
  echo "$repo/node_modules exists and is not the carried one; refusing to touch it" >&2
  exit 1
fi
ln -sfn "$store/root/node_modules" "$repo/node_modules"
export PATH="$store/root/bin:$PATH"
mkdir -p "${OUT:-$store/out}"
node --version

ADAPTER_GPU=cuda \
ADAPTER_THREADS="${ADAPTER_THREADS:-8}" \
  node --import tsx bench/gpu/gpu-bench.ts --model-dir "$store/models" --out "${OUT:-$store/out}" 2>&1 |
  tee "${OUT:-$store/out}/gpu-bench.log"
