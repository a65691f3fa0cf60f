"""The bundled examples' training steps written in PyTorch, op for op.

Each step takes the example's arguments in the example's order (the batch,
then the parameters, as float32 tensors of the example's shapes; parameters
with requires_grad) and returns the loss. `loss.backward()` then leaves each
parameter's gradient in `.grad`, so the step's outputs (the loss, then every
parameter's gradient) line up with the results of examples/<name>.mlir.

Every step takes `segment`, a function that runs one part of the forward
(`segment(fn, *tensors)`): the identity for plain autograd, or a
torch.utils.checkpoint wrapper. The parts are the example's blocks (the
MLP's layers); `whole` marks the call that wraps the whole forward.
"""

import math

import fair_blas  # noqa: E402,F401  (pins OpenBLAS's kernels: before numpy and torch)
import torch
import torch.nn.functional as F


def plain(fn, *args):
    return fn(*args)


def mlp_step(x, target, *params, segment=plain, whole=None):
    """6 layers (64 -> 5 x 128 -> 10), relu between them, mean squared error."""
    n = len(params) // 2

    def layer(l, h):
        z = h @ params[2 * l] + params[2 * l + 1]
        return torch.relu(z) if l < n - 1 else z

    def forward(h):
        for l in range(n):
            h = segment(lambda v, l=l: layer(l, v), h)
        return h

    y = whole(forward, x) if whole else forward(x)
    d = y - target
    return (d * d).sum() * (1.0 / d.numel())


def transformer_step(x, *params, segment=plain, whole=None):
    """4 blocks (seq 128, d_model 32, 2 heads of 16, tanh FFN of 64, residual
    adds, no layernorm); softmax as exp / sum / reciprocal; sum of squares."""
    S, D = x.shape
    H, E = 2, D // 2
    # A tensor, as the example's splat constant (a Python float trips the
    # FLOP counter's dispatch mode inside non-reentrant checkpointing).
    c = torch.tensor(1.0 / math.sqrt(E))

    def block(b, h):
        wq, wk, wv, wo, w1, b1, w2, b2 = params[8 * b: 8 * b + 8]
        split = lambda v: v.reshape(S, H, E).transpose(0, 1)
        qh, kh, vh = split(h @ wq), split(h @ wk), split(h @ wv)
        s = (qh @ kh.transpose(1, 2)) * c
        e = torch.exp(s - s.amax(dim=2, keepdim=True))
        p = e * torch.reciprocal(e.sum(dim=2, keepdim=True))
        o = (p @ vh).transpose(0, 1).reshape(S, D)
        x1 = h + o @ wo
        g = torch.tanh(x1 @ w1 + b1)
        return x1 + (g @ w2 + b2)

    def forward(h):
        for b in range(len(params) // 8):
            h = segment(lambda v, b=b: block(b, v), h)
        return h

    y = whole(forward, x) if whole else forward(x)
    return (y * y).sum()


def resnet_step(x, *params, segment=plain, whole=None):
    """3 residual blocks of two 3x3 convolutions (pad 1) on a 4x16x16x8 NHWC
    map, relu after the first conv and after the residual add; sum of
    squares. The NHWC input and OHWI weights reach conv2d as permuted views
    (channels-last NCHW and OIHW), as the example's layouts."""

    def conv(h, w, b):
        return F.conv2d(h, w.permute(0, 3, 1, 2), b, padding=1)

    def block(k, h):
        w1, b1, w2, b2 = params[4 * k: 4 * k + 4]
        a = torch.relu(conv(h, w1, b1))
        return torch.relu(conv(a, w2, b2) + h)

    def forward(h):
        for k in range(len(params) // 4):
            h = segment(lambda v, k=k: block(k, v), h)
        return h

    nchw = x.permute(0, 3, 1, 2)
    y = whole(forward, nchw) if whole else forward(nchw)
    return (y * y).sum()


# name -> (step, number of batch arguments)
STEPS = {
    "mlp": (mlp_step, 2),
    "transformer": (transformer_step, 1),
    "resnet": (resnet_step, 1),
}
