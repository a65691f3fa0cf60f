"""Peak memory, FLOPs and run time of a PyTorch training step, measured the
way Remat accounts for its own steps.

Peak: the allocator's own events. PyTorch's legacy profiler records every
CPU allocation and free (`memory_alloc` events, in order, with their signed
sizes); the running sum of those during one step, from a state where only
the inputs and parameters exist, is the step's live bytes. Inputs are not
counted (they were allocated before), the loss and the gradients are (they
are allocated during the step and still live at its end), as in Remat's
memory model.

FLOPs: every ATen op the step runs (forward, backward and any recomputation)
is seen by a TorchDispatchMode and priced as Remat's cost model prices the
TOSA op it corresponds to (lib/Analysis/TosaCostModel.cpp): a multiply-add
of a contraction is two FLOPs, a reduction one per input element, a view
none, anything else one per result element. Only differences between two
runs of the same step are reported (the recomputation a checkpointing
scheme adds), so the pricing of the backward ops cancels out.
"""

import statistics
import time

import fair_blas  # noqa: E402,F401  (pins OpenBLAS's kernels: before numpy and torch)
import torch
from torch.utils._python_dispatch import TorchDispatchMode

aten = torch.ops.aten

VIEWS = {aten.view, aten._unsafe_view, aten.reshape, aten.transpose, aten.t,
         aten.permute, aten.expand, aten.as_strided, aten.unsqueeze,
         aten.squeeze, aten.detach, aten.alias, aten.slice, aten.select,
         aten._reshape_alias, aten.lift_fresh, aten.empty, aten.empty_like,
         aten.zeros_like, aten.ones_like, aten.new_empty_strided,
         aten.empty_strided}
REDUCTIONS = {aten.sum, aten.amax, aten.max, aten.mean}


def _numel(x):
    return x.numel() if isinstance(x, torch.Tensor) else 0


def _first_tensor(out):
    if isinstance(out, torch.Tensor):
        return out
    if isinstance(out, (tuple, list)):
        for o in out:
            if isinstance(o, torch.Tensor):
                return o
    return None


def op_flops(func, args, out):
    """Remat's price of one ATen op (see the module comment)."""
    packet = func.overloadpacket
    result = _first_tensor(out)
    if packet in VIEWS:
        return 0
    if packet in (aten.mm, aten.bmm, aten.matmul):
        return 2 * result.numel() * args[0].shape[-1]
    if packet in (aten.addmm, aten.baddbmm):
        return 2 * result.numel() * args[1].shape[-1] + result.numel()
    if packet == aten.convolution:
        w = args[1]
        return 2 * result.numel() * w.shape[1] * w.shape[2] * w.shape[3]
    if packet == aten.convolution_backward:
        # dx and dw each cost what the forward convolution costs.
        grad, w = args[0], args[2]
        return 4 * grad.numel() * w.shape[1] * w.shape[2] * w.shape[3]
    if packet in REDUCTIONS:
        return _numel(args[0])
    return _numel(result)


class FlopCounter(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.flops = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        self.flops += op_flops(func, args, out)
        return out


def _profiler_config():
    from torch.autograd import ProfilerConfig, ProfilerState
    return ProfilerConfig(ProfilerState.CPU, False, True, False, False, False,
                          torch._C._profiler._ExperimentalConfig())


def _clear(params):
    for p in params:
        p.grad = None


def run_step(step, inputs, params):
    """One training step: the loss, then every parameter's gradient."""
    loss = step(*inputs, *params)
    loss.backward()
    return [loss.detach()] + [p.grad for p in params]


def measure_peak(step, inputs, params):
    """Peak live bytes of one step by the allocator's events."""
    _clear(params)
    run_step(step, inputs, params)          # warm up lazy initialisation
    _clear(params)
    torch.autograd._enable_profiler_legacy(_profiler_config())
    try:
        outputs = run_step(step, inputs, params)
    finally:
        records = torch.autograd._disable_profiler_legacy()
    events = [e for thread in records for e in thread
              if e.kind() == "memory_alloc"]
    live = peak = 0
    for e in sorted(events, key=lambda e: e.start_us()):
        live += e.cpu_memory_usage()
        peak = max(peak, live)
    del outputs
    _clear(params)
    return peak


def measure_flops(step, inputs, params):
    _clear(params)
    counter = FlopCounter()
    with counter:
        run_step(step, inputs, params)
    _clear(params)
    return counter.flops


def measure_time_ms(step, inputs, params, repeat):
    times = []
    for _ in range(repeat + 1):
        _clear(params)
        start = time.perf_counter()
        run_step(step, inputs, params)
        times.append((time.perf_counter() - start) * 1e3)
    _clear(params)
    return statistics.median(times[1:])
