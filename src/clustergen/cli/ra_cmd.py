"""`clustergen gpu spec`, `clustergen ra list`, `clustergen ra recommend` (the seed prototype's contract)."""

from __future__ import annotations

from typing import Annotated

import typer

from clustergen.cli.options import CatalogOpt, InsecureHttpOpt, JsonOpt
from clustergen.cli.output import kv_table, print_json, stdout, table

app = typer.Typer(help="NVIDIA Enterprise RA patterns (C-G-N-B).", no_args_is_help=True)
gpu_app = typer.Typer(help="GPU specifications from the catalog.", no_args_is_help=True)


@gpu_app.command("spec")
def gpu_spec(
    gpu: Annotated[str, typer.Option("--gpu", help='GPU name, e.g. "NVIDIA H100".')],
    llm: Annotated[
        bool,
        typer.Option(
            "--llm",
            help="Ask the model for a GPU the catalog lacks (needs a key or your own endpoint).",
        ),
    ] = False,
    offline: Annotated[
        bool, typer.Option("--offline", help="Never ask the model, even with a key.")
    ] = False,
    allow_insecure_http: InsecureHttpOpt = False,
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
) -> None:
    """Look up a GPU's specifications (dense throughput, memory, power) with their source.

    A GPU missing from the catalog is asked of the model when a key is configured (or --llm); its
    answer is labelled model-provided and unverified and never enters the catalog."""
    from clustergen.agent.settings import load_settings
    from clustergen.catalog import load_catalog
    from clustergen.engine.calculators.specs import gpu_spec as lookup
    from clustergen.errors import NotFoundError, RequestError

    if llm and offline:
        raise RequestError("--offline and --llm contradict each other; pick one")
    try:
        result = lookup(load_catalog(catalog), gpu)
    except NotFoundError:
        settings = None if offline else load_settings(allow_insecure_http=allow_insecure_http)
        if settings is None or (not settings.configured() and not llm):
            raise
        from clustergen.agent.client import ChatClient
        from clustergen.agent.gpu_spec import ask_gpu_spec
        from clustergen.cli.output import announce_key_route

        announce_key_route(settings)
        client = ChatClient(settings)
        try:
            result = ask_gpu_spec(gpu, client, settings)
        finally:
            client.close()
    from clustergen.redact import redact_known_model

    result = redact_known_model(result)  # the model's answer may echo the key
    if json:
        print_json(result)
        return
    stdout.print(
        kv_table(f"{result.name} ({result.id})", result.model_dump(exclude={"notes"}).items())
    )
    for note in result.notes:
        stdout.print(f"note: {note}", markup=False)


@app.command("list")
def ra_list(catalog: CatalogOpt = None, json: JsonOpt = False) -> None:
    """List the Enterprise RA patterns in the catalog."""
    from clustergen.catalog import RaPattern, load_catalog

    patterns = load_catalog(catalog).all(RaPattern)
    if json:
        print_json({"patterns": patterns})
        return
    stdout.print(
        table(
            "Enterprise RA patterns",
            ("id", "GPUs/node", "Gb/s per GPU", "nodes", "workloads", "fabric"),
            (
                (
                    p.id,
                    p.gpus_per_node,
                    p.bandwidth_gbps_per_gpu,
                    f"{p.node_count_min}-{p.node_count_max}",
                    ", ".join(p.workloads),
                    f"{p.networking.fabric}/{p.networking.platform}",
                )
                for p in patterns
            ),
        )
    )


@app.command("recommend")
def ra_recommend(
    gpus: Annotated[int, typer.Option("--gpus", help="Total GPUs wanted.")],
    workload: Annotated[
        str, typer.Option("--workload", help="training, fine-tuning, inference or mixed.")
    ] = "training",
    catalog: CatalogOpt = None,
    json: JsonOpt = False,
) -> None:
    """Recommend an Enterprise RA pattern and node count for a GPU count and workload."""
    from clustergen.catalog import load_catalog
    from clustergen.engine.calculators.ra import recommend

    result = recommend(load_catalog(catalog), gpus, workload)
    if json:
        print_json(result)
        return
    rec = result.recommendation
    stdout.print(kv_table(f"{gpus} GPUs, {workload}", rec.model_dump().items()))
    for note in result.notes:
        stdout.print(f"note: {note}", markup=False)
