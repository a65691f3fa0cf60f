"""Small GPT-, BERT- and ViT-style models, as a PyTorch user writes them.

    /usr/bin/python3 bench/peers/transformer_models.py OUT_DIR [--opset 14]
        [--layers 2] [--width 128] [--heads 4] [--seq 16] [--vocab 64]
        [--batch 2] [--dropout 0.0] [--train]

Exports each model with torch.onnx.export (PyTorch 1.13) to
OUT_DIR/<family>.onnx: the forward only, its first output the logits; the
loss is Remat's (`--remat-autodiff="loss=cross-entropy"`). With --train the
export is in training mode (TrainingMode.TRAINING: Dropout nodes with
training_mode set). Seeds are fixed, so the files are reproducible.

Families:
  gpt       token ids (int64) -> nn.Embedding + learned positions ->
            blocks of nn.MultiheadAttention with a causal mask from
            torch.triu, nn.GELU, nn.LayerNorm -> vocabulary logits
  gpt-split the same decoder with attention written by hand (qkv.split,
            tanh GELU)
  bert      token ids -> embeddings + nn.LayerNorm -> nn.TransformerEncoder
            layers (GELU) -> masked-LM head logits
  vit       images -> nn.Conv2d patches, a class token, learned positions ->
            nn.TransformerEncoder layers -> the class token's logits
"""

import argparse
import math
import os

import fair_blas  # noqa: E402,F401  (pins OpenBLAS's kernels: before numpy and torch)
import torch
import torch.nn as nn
import torch.nn.functional as F


def plain(fn, *args):
    return fn(*args)


class GptBlock(nn.Module):
    def __init__(self, width, heads, seq, dropout):
        super().__init__()
        self.ln1 = nn.LayerNorm(width)
        self.attn = nn.MultiheadAttention(width, heads, dropout=dropout,
                                          batch_first=True)
        self.ln2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(),
                                 nn.Linear(4 * width, width),
                                 nn.Dropout(dropout))
        mask = torch.triu(torch.ones(seq, seq, dtype=torch.bool), diagonal=1)
        self.register_buffer("mask", mask, persistent=False)

    def forward(self, x):
        h = self.ln1(x)
        a, _ = self.attn(h, h, h, attn_mask=self.mask, need_weights=False)
        x = x + a
        return x + self.mlp(self.ln2(x))


class HandAttentionBlock(nn.Module):
    """Attention written by hand: one qkv projection split in three."""

    def __init__(self, width, heads, seq, dropout):
        super().__init__()
        self.heads = heads
        self.head_width = width // heads
        self.ln1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.ln2 = nn.LayerNorm(width)
        self.fc1 = nn.Linear(width, 4 * width)
        self.fc2 = nn.Linear(4 * width, width)
        self.drop = nn.Dropout(dropout)
        self.register_buffer("causal", torch.tril(torch.ones(seq, seq)),
                             persistent=False)
        # How the core is called: torch.utils.checkpoint for selective
        # recomputation (transformer_equal_memory.py).
        self.wrap_core = plain

    def core(self, q, k, v):
        """The attention core: the score matrix, its softmax and the
        softmax's dropout, applied to v (what Megatron-LM's selective
        recomputation recomputes; Korthikanti et al., "Reducing Activation
        Recomputation in Large Transformer Models", 2022)."""
        t = q.shape[2]
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_width)
        att = att.masked_fill(self.causal[:t, :t] == 0, float("-inf"))
        return self.drop(F.softmax(att, dim=-1)) @ v

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(c, dim=2)

        def heads(z):
            return z.view(b, t, self.heads, c // self.heads).transpose(1, 2)

        q, k, v = heads(q), heads(k), heads(v)
        y = self.wrap_core(self.core, q, k, v)
        y = y.transpose(1, 2).reshape(b, t, c)
        x = x + self.drop(self.proj(y))
        h = F.gelu(self.fc1(self.ln2(x)), approximate="tanh")
        return x + self.drop(self.fc2(h))


class Gpt(nn.Module):
    def __init__(self, block, layers, width, heads, seq, vocab, dropout):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Parameter(0.02 * torch.randn(1, seq, width))
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.ModuleList(
            block(width, heads, seq, dropout) for _ in range(layers))
        self.ln = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)
        # How each block is called: torch.utils.checkpoint for per-block
        # checkpointing (transformer_equal_memory.py).
        self.wrap_block = plain

    def forward(self, ids):
        x = self.drop(self.tokens(ids) + self.positions)
        for block in self.blocks:
            x = self.wrap_block(block, x)
        return self.head(self.ln(x))


class Bert(nn.Module):
    def __init__(self, layers, width, heads, seq, vocab, dropout):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Embedding(seq, width)
        self.ln = nn.LayerNorm(width)
        self.drop = nn.Dropout(dropout)
        layer = nn.TransformerEncoderLayer(width, heads, 4 * width, dropout,
                                           activation="gelu",
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers,
                                             enable_nested_tensor=False)
        self.transform = nn.Linear(width, width)
        self.head_ln = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab)
        self.register_buffer("where", torch.arange(seq), persistent=False)

    def forward(self, ids):
        x = self.tokens(ids) + self.positions(self.where[:ids.shape[1]])
        x = self.encoder(self.drop(self.ln(x)))
        return self.head(self.head_ln(F.gelu(self.transform(x))))


class Vit(nn.Module):
    def __init__(self, layers, width, heads, image, patch, classes, dropout):
        super().__init__()
        self.patches = nn.Conv2d(3, width, patch, stride=patch)
        count = (image // patch) ** 2
        self.cls = nn.Parameter(0.02 * torch.randn(1, 1, width))
        self.positions = nn.Parameter(0.02 * torch.randn(1, count + 1, width))
        layer = nn.TransformerEncoderLayer(width, heads, 4 * width, dropout,
                                           activation="gelu",
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers,
                                             enable_nested_tensor=False)
        self.ln = nn.LayerNorm(width)
        self.head = nn.Linear(width, classes)

    def forward(self, images):
        x = self.patches(images).flatten(2).transpose(1, 2)
        cls = self.cls.expand(x.shape[0], -1, -1)
        x = torch.cat([cls, x], dim=1) + self.positions
        x = self.encoder(x)
        return self.head(self.ln(x[:, 0]))


def build(family, args):
    """The model and an example input of the family."""
    torch.manual_seed(0)
    p = args.dropout
    if family in ("gpt", "gpt-split"):
        block = GptBlock if family == "gpt" else HandAttentionBlock
        model = Gpt(block, args.layers, args.width, args.heads, args.seq,
                    args.vocab, p)
        return model, torch.randint(0, args.vocab, (args.batch, args.seq))
    if family == "bert":
        model = Bert(args.layers, args.width, args.heads, args.seq,
                     args.vocab, p)
        return model, torch.randint(0, args.vocab, (args.batch, args.seq))
    model = Vit(args.layers, args.width, args.heads, args.image, args.patch,
                args.classes, p)
    return model, torch.randn(args.batch, 3, args.image, args.image)


FAMILIES = ("gpt", "gpt-split", "bert", "vit")


def parser():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir")
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--opset", type=int, default=14)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--width", type=int, default=128)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--seq", type=int, default=16)
    ap.add_argument("--vocab", type=int, default=64)
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--image", type=int, default=16)
    ap.add_argument("--patch", type=int, default=4)
    ap.add_argument("--classes", type=int, default=10)
    ap.add_argument("--dropout", type=float, default=0.0)
    ap.add_argument("--train", action="store_true")
    return ap


def main():
    args = parser().parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    mode = (torch.onnx.TrainingMode.TRAINING if args.train
            else torch.onnx.TrainingMode.EVAL)
    for family in args.families.split(","):
        model, example = build(family, args)
        model.train(args.train)
        path = os.path.join(args.out_dir, family + ".onnx")
        torch.onnx.export(model, (example,), path, opset_version=args.opset,
                          training=mode, do_constant_folding=not args.train,
                          input_names=["input"], output_names=["logits"])
        print(path)


if __name__ == "__main__":
    main()
