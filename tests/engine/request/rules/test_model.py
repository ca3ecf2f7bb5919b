"""MoE sizes, training methods, priced GPUs and GPU variants, read or refused (issue 24)."""

from __future__ import annotations

import pytest

from clustergen.catalog import load_catalog
from clustergen.engine.request import parse_request
from clustergen.errors import NotFoundError, RequestError

CAT = load_catalog()


@pytest.mark.parametrize(
    ("phrase", "total", "active"),
    [
        ("671B total / 37B active", 671.0, 37.0),
        ("671B total, 37B active", 671.0, 37.0),
        ("a 671B-parameter MoE with 37B active parameters", 671.0, 37.0),
        ("235B-A22B", 235.0, 22.0),
        ("1T total and 32B activated", 1000.0, 32.0),
        ("671B-total, 37B-active", 671.0, 37.0),
    ],
)
def test_moe_sizes_read_as_total_and_active(phrase: str, total: float, active: float) -> None:
    r = parse_request(CAT, f"train a {phrase} model on 10T tokens in 60 days")
    assert (r.model_params_b, r.active_params_b) == (total, active)
    assert r.not_understood == []


def test_more_active_than_total_is_refused() -> None:
    with pytest.raises(RequestError, match="more active than total"):
        parse_request(CAT, "train a 37B total / 671B active model on 1T tokens")


@pytest.mark.parametrize(
    ("text", "method", "workload"),
    [
        ("fine-tune llama 3.1 8b with LoRA on 1B tokens", "lora", "fine-tuning"),
        ("QLoRA on llama 3.1 70b, 500M tokens", "qlora", "fine-tuning"),
        ("full fine-tune of llama 3.1 8b on 2B tokens", "full", "fine-tuning"),
        ("full-parameter fine-tuning llama 3.1 8b on 2B tokens", "full", "fine-tuning"),
        (
            "continued pre-training of llama 3.1 8b on 100B tokens",
            "continued-pretraining",
            "training",
        ),
        ("continual pretraining llama 3.1 70b on 1T tokens", "continued-pretraining", "training"),
    ],
)
def test_the_training_method_is_a_request_field(text: str, method: str, workload: str) -> None:
    r = parse_request(CAT, text)
    assert (r.training_method, r.workload) == (method, workload)


def test_two_methods_contradict() -> None:
    with pytest.raises(RequestError, match="two training method values"):
        parse_request(CAT, "full fine-tune of llama 3.1 8b on 2B tokens with QLoRA")


@pytest.mark.parametrize(
    ("text", "gpu", "price"),
    [
        ("train a 70B model on 2T tokens at $2 per H800 GPU-hour", "h800", 2.0),
        ("train a 70B model on 2T tokens at $1.10/H20-hour", "h20", 1.1),
        ("train a 70B model on 2T tokens at $3 per GPU-hour on H200", "h200", 3.0),
    ],
)
def test_a_price_for_a_named_gpu_prices_that_gpu_not_a_budget(
    text: str, gpu: str, price: float
) -> None:
    r = parse_request(CAT, text)
    assert (r.gpu, r.price_per_gpu_hour, r.budget_usd) == (gpu, price, None)


def test_a_price_per_gpu_per_hour_is_a_gpu_hour_price() -> None:
    r = parse_request(CAT, "train llama 3.1 70b on 1T tokens on H100 at $2.49 per GPU per hour")
    assert (r.price_per_gpu_hour, r.budget_usd, r.not_understood) == (2.49, None, [])


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("train llama 3.1 70b on 1T tokens on H100 at $2.5 per hour per GPU", "gpu", 2.5),
        ("$39 per node per hour, 16 DGX H100 training llama 3.1 70b on 1T tokens", "node", 39.0),
        ("16 DGX H100 at $39/server-hour training llama 3.1 70b on 1T tokens", "node", 39.0),
    ],
)
def test_hourly_prices_name_what_they_price(text: str, field: str, value: float) -> None:
    r = parse_request(CAT, text)
    assert getattr(r, f"price_per_{field}_hour") == value
    assert r.budget_usd is None


def test_an_hourly_price_of_nothing_named_is_refused_not_a_budget() -> None:
    with pytest.raises(RequestError, match="does not say what the hour is of"):
        parse_request(CAT, "512 H100s at $2.49/hr training llama 3.1 70b on 1T tokens")


def test_a_price_for_an_unknown_gpu_is_refused() -> None:
    with pytest.raises(NotFoundError, match="h900"):
        parse_request(CAT, "train a 70B model on 2T tokens at $2 per H900 GPU-hour")


def test_a_price_for_another_gpu_than_the_one_named_contradicts() -> None:
    with pytest.raises(RequestError, match="two gpus"):
        parse_request(CAT, "train 70B on 2T tokens on 512 H100 GPUs at $2 per H800 GPU-hour")


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("fine-tune llama 3.1 8b on A100 40GB with LoRA on 1B tokens", "a100-40gb"),
        ("512 A100 80GB GPUs training", "a100-80gb"),
        ("we have 2,048 H800s: how long to train deepseek v3 on 14.8T tokens", "h800"),
        ("serve llama 3.1 70b on H20 at 500 tokens/s", "h20"),
        ("serve llama 3.1 70b on GH200 at 500 tokens/s", "gh200"),
        ("serve llama 3.1 8b on L40S at 500 tokens/s", "l40s"),
        ("serve llama 3.1 8b on L4 at 100 tokens/s", "l4"),
    ],
)
def test_gpu_variants_customers_name_are_catalog_entries(text: str, gpu: str) -> None:
    assert parse_request(CAT, text).gpu == gpu


@pytest.mark.parametrize(
    ("text", "gpus", "gpu"),
    [
        ("512 H100 PCIe GPUs training", 512, "h100-pcie"),
        ("2k H100s training, 5 MW", 2000, "h100-sxm"),
    ],
)
def test_a_variant_the_catalog_has_is_read(text: str, gpus: int, gpu: str) -> None:
    r = parse_request(CAT, text)
    assert (r.gpus, r.gpu) == (gpus, gpu)


@pytest.mark.parametrize(
    "text",
    ["DPO on llama 3.1 8b with 1B tokens in 2 days", "instruction-tune llama 3.1 8b on 1B tokens"],
)
def test_other_fine_tuning_words_say_fine_tuning(text: str) -> None:
    assert parse_request(CAT, text).workload == "fine-tuning"


def test_the_h800_count_is_read_with_its_gpu() -> None:
    r = parse_request(CAT, "we have 2,048 H800s: how long to train deepseek v3 on 14.8T tokens")
    assert (r.gpus, r.gpu, r.model) == (2048, "h800", "deepseek-v3")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("512 H100 96GB GPUs training", "h100 96gb"),
        ("train 70b on 1T tokens on A100 with 64 GB", "a100 with 64 gb"),
        ("512 A100 PCIe GPUs training", "a100 pcie"),
        ("serve llama 3.1 70b on H200 NVL at 1000 tokens/s", "h200 nvl"),
    ],
)
def test_a_memory_size_the_entry_lacks_is_another_part_refused(text: str, name: str) -> None:
    with pytest.raises(NotFoundError, match=name):
        parse_request(CAT, text)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("serve llama 3.1 8b on T4 at 100 tokens/s", "t4"),
        ("serve llama 3.1 8b on 8 T4s at 100 tokens/s", "t4"),
        ("train llama 3.1 8b on 1T tokens using MI250X", "mi250x"),
        ("on P100 train 8b on 1B tokens", "p100"),
    ],
)
def test_a_gpu_the_catalog_lacks_is_refused_never_replaced(text: str, name: str) -> None:
    with pytest.raises(NotFoundError, match=f"unknown GPU '{name}'"):
        parse_request(CAT, text)


@pytest.mark.parametrize(
    "text",
    [
        "72 GPUs on NVL72 racks",
        "serve 70b on gb200 nvl72 at 1000 tokens/s",
        "train 8b on 1b tokens on a100",
        "512 GPUs training with SN5610 switches",
        "512 GPUs training with CX7 NICs",
    ],
)
def test_catalog_name_words_are_not_unknown_gpus(text: str) -> None:
    parse_request(CAT, text)


def test_a_moe_given_only_its_total_is_refused_with_what_to_add() -> None:
    from clustergen.catalog import load_catalog
    from clustergen.engine.request import merge_request

    cat = load_catalog()
    with pytest.raises(RequestError, match="active per token") as raised:
        merge_request(cat, "training 1 trillion param MoE, 20T tokens, 120 days", {})
    assert "MoE with" in (raised.value.hint or "")
    r = merge_request(cat, "train a 1T MoE with 32B active params on 20T tokens in 120 days", {})
    assert (r.model_params_b, r.active_params_b) == (1000.0, 32.0)
    r = merge_request(cat, "train a 400B mixture-of-experts model, 17B active, on 10T tokens", {})
    assert r.active_params_b == 17.0
    assert r.not_understood == []


@pytest.mark.parametrize(
    ("text", "name"),
    [("512 next-gen Rubin GPUs", "rubin"), ("512 Gaudi 3 for training", "gaudi 3")],
)
def test_an_accelerator_family_the_catalog_lacks_is_refused_by_name(text: str, name: str) -> None:
    with pytest.raises(NotFoundError, match=f"unknown GPU '{name}'"):
        parse_request(CAT, text)
