"""The models customers named that the catalog lacked (DeepSeek-R1 distills, Phi-4, Phi-3-mini
and -medium, Mistral NeMo, Gemma 2, Qwen2.5-Coder 32B): found by the spellings customers use, in
a request as well as by name; their sizes follow from their architecture fields and round to the
size their publishers give; and no earlier reading moved."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.catalog.workload_models import LanguageModel
from clustergen.engine.request import parse_request

CAT = load_catalog()

#: model id -> spellings a customer writes (card name, HF repo id, tool tag)
SPELLINGS = {
    "deepseek-r1-distill-llama-70b": (
        "DeepSeek-R1-Distill-Llama-70B",
        "deepseek-ai/DeepSeek-R1-Distill-Llama-70B",
        "R1 Distill Llama 70B",
        "DeepSeek R1 Distill Llama 70B",
    ),
    "deepseek-r1-distill-qwen-32b": (
        "DeepSeek-R1-Distill-Qwen-32B",
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
        "r1 distill qwen 32b",
        "deepseek r1 distill qwen 32b",
    ),
    "phi-4": ("Phi-4", "microsoft/phi-4", "phi 4"),
    "phi-3-mini": ("Phi-3-mini", "microsoft/Phi-3-mini-4k-instruct", "phi 3 mini"),
    "phi-3-medium": ("Phi-3-medium", "microsoft/Phi-3-medium-128k-instruct", "phi 3 medium"),
    "mistral-nemo-12b": (
        "Mistral NeMo",
        "mistralai/Mistral-Nemo-Instruct-2407",
        "mistral nemo 12b",
    ),
    "gemma-2-9b": ("Gemma 2 9B", "google/gemma-2-9b-it", "gemma2:9b"),
    "gemma-2-27b": ("Gemma 2 27B", "gemma-2-27b-it", "gemma2 27b"),
    "qwen2.5-coder-32b": (
        "Qwen2.5-Coder-32B-Instruct",
        "Qwen/Qwen2.5-Coder-32B-Instruct",
        "qwen 2.5 coder 32b",
    ),
}


@pytest.mark.parametrize(
    ("model_id", "spelling"), [(m, s) for m, ss in SPELLINGS.items() for s in ss]
)
def test_each_added_model_answers_to_how_customers_write_it(model_id: str, spelling: str) -> None:
    assert CAT.model(spelling).id == model_id


@pytest.mark.parametrize(
    ("model_id", "spelling"), [(m, s) for m, ss in SPELLINGS.items() for s in ss]
)
def test_a_request_naming_an_added_model_reads_as_it(model_id: str, spelling: str) -> None:
    r = parse_request(CAT, f"serve {spelling} on 8 H100")
    assert r.model == model_id


@pytest.mark.parametrize(
    ("text", "model_id"),
    [
        ("serve llama 3.3 70b on 8 H100", "llama-3.3-70b"),
        ("serve Llama-3.3-70B-Instruct on 8 H100", "llama-3.3-70b"),
        ("serve deepseek r1 on 16 H100", "deepseek-r1"),
        ("serve qwen2.5 32b on 2 H100", "qwen2.5-32b"),
        ("serve qwen 32b on 2 H100", "qwen3-32b"),
        ("serve gemma 27b on 2 H100", "gemma-3-27b"),
        ("serve mistral large 2 on 8 H100", "mistral-large-2"),
    ],
)
def test_the_base_models_still_read_as_before(text: str, model_id: str) -> None:
    assert parse_request(CAT, text).model == model_id


def _dense_params_b(m: LanguageModel, norms_per_layer: int, qkv_bias: bool) -> float:
    """The convention at the head of catalog/models.yaml: attention, gated FFN, norms per layer,
    embeddings (twice when untied) and the final norm."""
    assert m.layers is not None
    assert m.hidden_size is not None
    assert m.intermediate_size is not None
    assert m.attention_heads is not None
    assert m.kv_heads is not None
    assert m.head_dim is not None
    assert m.vocab_size is not None
    h, hd = m.hidden_size, m.head_dim
    attn = 2 * h * m.attention_heads * hd + 2 * h * m.kv_heads * hd
    if qkv_bias:
        attn += (m.attention_heads + 2 * m.kv_heads) * hd
    layer = attn + 3 * h * m.intermediate_size + norms_per_layer * h
    embeddings = m.vocab_size * h * (1 if m.tied_embeddings else 2)
    return (m.layers * layer + embeddings + h) / 1e9


#: (model id, norms per layer, q/k/v biases, size as published, the statement)
PUBLISHED = [
    ("deepseek-r1-distill-llama-70b", 2, False, 70, "DeepSeek-R1 README: distilled 70B"),
    ("deepseek-r1-distill-qwen-32b", 2, True, 32, "DeepSeek-R1 README: distilled 32B"),
    ("phi-4", 2, False, 14, "Microsoft: Phi-4, a 14B model"),
    ("phi-3-mini", 2, False, 3.8, "Phi-3 report abstract: phi-3-mini, 3.8 billion"),
    ("phi-3-medium", 2, False, 14, "Phi-3-Medium-128K-Instruct card: 14B parameters"),
    ("mistral-nemo-12b", 2, False, 12, "Mistral NeMo: a 12B model"),
    ("gemma-2-9b", 4, False, 9, "Gemma 2 9B"),
    ("gemma-2-27b", 4, False, 27, "Gemma 2 27B"),
    ("qwen2.5-coder-32b", 2, True, 32.5, "Qwen2.5-Coder-32B-Instruct card: 32.5B"),
]


@pytest.mark.parametrize(("model_id", "norms", "bias", "stated_b", "statement"), PUBLISHED)
def test_sizes_follow_from_the_architecture_and_round_to_the_publishers(
    model_id: str, norms: int, bias: bool, stated_b: float, statement: str
) -> None:
    """The catalog's count is the one its architecture fields give (to its two decimals), and
    the publisher's rounded size is within 5 % of it (Phi-4's 14.66B is published as 14B)."""
    m = CAT.model(model_id)
    assert m.params_b == pytest.approx(_dense_params_b(m, norms, bias), abs=0.006)
    assert m.active_params_b == m.params_b
    assert m.params_b == pytest.approx(stated_b, rel=0.05), statement


def test_phi_3_mini_matches_keras_hubs_exact_count() -> None:
    """keras-hub phi3_presets.py: phi3_mini_4k_instruct_en has 3,821,079,552 parameters."""
    m = CAT.model("phi-3-mini")
    assert _dense_params_b(m, 2, False) * 1e9 == 3_821_079_552


def test_gemma_2_keeps_a_full_kv_cache_on_half_its_layers() -> None:
    """Gemma 2 alternates sliding-window (4,096) and global layers (NeMo Gemma2 attention)."""
    for model_id in ("gemma-2-9b", "gemma-2-27b"):
        m = CAT.model(model_id)
        assert m.layers is not None
        assert m.full_attention_layers == m.layers // 2
        assert m.sliding_window == 4096
