"""The smallest parallel layout whose model states and activations fit a GPU."""

from __future__ import annotations

from clustergen.catalog import load_catalog
from clustergen.engine.sizing.workload.llm import arch_of
from clustergen.engine.sizing.workload.training.layout import smallest_layout

CAT = load_catalog()


def test_mb_70b_layout_fits_an_h100() -> None:
    """Megatron-Bridge trains Llama 3 70B on 64 H100 as TP4 x PP8: it fits 80 GB here too."""
    from clustergen.engine.sizing.workload.training.layout import _memory_gb

    arch = arch_of(CAT.model("llama-3-70b"), None)
    assert arch is not None
    assert _memory_gb(arch, 8192, tp=4, pp=8, cp=1, dp=2, fsdp=False) <= 0.9 * 80


def test_the_smallest_copy_is_found_and_fits() -> None:
    arch = arch_of(CAT.model("llama-3.1-405b"), None)
    assert arch is not None
    lay = smallest_layout(arch, 8192, 1024, 80, 0.9, 8)
    assert lay is not None
    assert lay.memory_gb <= 72
    assert lay.tp <= 8
    assert lay.model_parallel * lay.dp <= 1024


def test_405b_does_not_fit_eight_gpus() -> None:
    """16 bytes per parameter of model state alone is 6.5 TB: more than 8 x 80 GB."""
    arch = arch_of(CAT.model("llama-3.1-405b"), None)
    assert arch is not None
    assert smallest_layout(arch, 8192, 8, 80, 0.9, 8) is None


def test_tensor_parallelism_stays_in_the_nvlink_domain() -> None:
    arch = arch_of(CAT.model("llama-3-8b"), None)
    assert arch is not None
    assert smallest_layout(arch, 8192, 64, 80, 0.9, 8).tp >= 1  # type: ignore[union-attr]
    lay = smallest_layout(arch, 8192, 64, 80, 0.9, 1)  # a PCIe box: no NVLink
    assert lay is not None
    assert lay.tp == 1
