#!/usr/bin/env bash
# Regenerates the PyTorch exports the ONNX tests import: one layer of width
# 16 of each family in bench/peers/transformer_models.py, at opset 14 in
# evaluation mode and at opset 17 in training mode (dropout 0, no constant
# folding: the shape arithmetic stays in the graph). Needs python3-torch.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
models="$here/../../../../../bench/peers/transformer_models.py"
sizes=(--layers 1 --width 16 --heads 2 --seq 8 --vocab 11 --image 8
  --patch 4 --classes 3)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$models" "$tmp/14" "${sizes[@]}" --families gpt,gpt-split >/dev/null
/usr/bin/python3 "$models" "$tmp/17" "${sizes[@]}" --families bert,vit \
  --opset 17 --train >/dev/null
for f in gpt gpt-split; do cp "$tmp/14/$f.onnx" "$here/$f-opset14.onnx"; done
for f in bert vit; do cp "$tmp/17/$f.onnx" "$here/$f-opset17-train.onnx"; done
