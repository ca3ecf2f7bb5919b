"""The serving stack around a replica: which engine runs it, speculative decoding, and whether
prefill and decode share GPUs.

- Engine: the forward model is fitted to TensorRT-LLM's published tables; another engine runs
  at its measured throughput relative to TensorRT-LLM on the same hardware
  (assumptions.yaml `serving-engine-efficiency-*`). Dynamo orchestrates an engine (TensorRT-LLM
  in NVIDIA's published Dynamo curves) and is taken at TensorRT-LLM's figure.
- Speculative decoding (MTP heads, EAGLE): each step verifies `d` drafted tokens per sequence,
  the first accepted with probability a (DeepSeek-V3, arXiv 2412.19437, sections 2.2 and
  5.4.3), each later one with probability r < a while the ones before it were (the module,
  trained one token ahead, is reused for the later drafts: r fitted on TensorRT-LLM's
  measured MTP speed-up), so a sequence emits 1 + a + a r + ... + a r^(d-1) tokens per step
  for (1 + d) tokens of work plus the drafting. Where a step is bound by reading weights (few
  users) the drafts are nearly free and TPOT falls by the tokens emitted; where it is bound by
  compute (many users) the rejected drafts are lost work, so deep drafts pay only at high
  interactivity. On a MoE model a drafted token routes mostly to experts its own sequence
  already chose (`speculative-draft-expert-reuse`, fitted on InferenceX's TEP8 TPOT rows), so
  at few users the drafts add less to the step's expert reads than independent tokens would.
- Disaggregated prefill/decode (Dynamo, llm-d): the decode pool's steps carry no prompts, so
  under a TPOT limit more sequences fit in a step; a prefill pool of the same GPUs reads the
  prompts, busy the share of its time its TTFT limit allows (the queue of `replica.ttft_s`),
  and each prompt's KV cache crosses the fabric once from the prefill to the decode GPUs.
"""

from __future__ import annotations

from typing import NamedTuple

from clustergen.catalog.loader import Catalog
from clustergen.engine.sizing.workload.inputs import WorkloadInputs, constant
from clustergen.engine.sizing.workload.serving.replica import Replica, speculative_tokens

#: the engine whose tables the model is fitted to, and the one a request names
BASIS_ENGINE = "tensorrt-llm"
#: prefill pool loads tried when a TTFT limit sets it (the largest that meets the limit wins)
_LOADS = tuple(i / 100 for i in range(95, 0, -5))


class Stack(NamedTuple):
    """The serving stack a request asks for, with its figures and where they come from."""

    engine: str
    efficiency: float
    speculative: bool
    drafts: int
    drafts_max: int
    acceptance: float
    draft_cost: float
    acceptance_deeper: float
    expert_reuse: float
    disaggregated: bool | None
    prefill_load_max: float

    @classmethod
    def of(cls, catalog: Catalog, w: WorkloadInputs) -> Stack:
        """The stack of the request `w` reads, its figures from the catalog."""
        engine = w.engine or BASIS_ENGINE
        efficiency = 1.0
        if engine not in (BASIS_ENGINE, "dynamo"):
            efficiency = constant(catalog, f"serving-engine-efficiency-{engine}")
        return cls(
            engine=engine,
            efficiency=efficiency,
            speculative=bool(w.speculative),
            drafts=int(constant(catalog, "speculative-draft-tokens")),
            drafts_max=int(constant(catalog, "speculative-draft-tokens-max")),
            acceptance=constant(catalog, "speculative-acceptance-rate"),
            draft_cost=constant(catalog, "speculative-draft-cost"),
            acceptance_deeper=constant(catalog, "speculative-acceptance-rate-deeper"),
            expert_reuse=constant(catalog, "speculative-draft-expert-reuse"),
            disaggregated=w.disaggregated,
            prefill_load_max=constant(catalog, "disaggregated-prefill-load-max"),
        )

    @property
    def depths(self) -> tuple[int, ...]:
        """Draft depths to weigh: none without speculative decoding, else every depth from the
        default to the most an engine runs (its recipes pick the depth per operating point)."""
        if not self.speculative:
            return (0,)
        return tuple(range(self.drafts, max(self.drafts, self.drafts_max) + 1))

    def apply(self, rep: Replica, drafts: int | None = None) -> Replica:
        """The replica run by this engine, with speculative decoding at `drafts` tokens per
        step (default the stack's) if asked (still aggregated: `disaggregate` splits it)."""
        if self.efficiency != 1.0:
            rep = rep.scaled(self.efficiency)
        depth = self.drafts if drafts is None else drafts
        if self.speculative and depth > 0:
            rep = rep.speculating(
                depth, self.acceptance, self.draft_cost, self.acceptance_deeper, self.expert_reuse
            )
        return rep

    def disaggregate(self, rep: Replica, ttft_s: float | None) -> Replica | None:
        """`rep` as a decode pool fed by a prefill pool as busy as the TTFT limit allows at one
        sequence in flight; None when the limit cannot be met even by an idle prefill pool."""
        if ttft_s is None:
            return rep.disaggregate(self.prefill_load_max)
        for load in _LOADS:
            if load > self.prefill_load_max:
                continue
            split = rep.disaggregate(load)
            if split.ttft_s(1.0) <= ttft_s:
                return split
        return None

    def words(self, drafts: int | None = None) -> str:
        """What the method says of the stack (speculating `drafts` deep, default the stack's)."""
        parts = [
            f"served with {self.engine}"
            + (
                f" at {self.efficiency:.2f} x TensorRT-LLM's throughput (assumptions.yaml "
                f"serving-engine-efficiency-{self.engine})"
                if self.efficiency != 1.0
                else (" (TensorRT-LLM backend)" if self.engine == "dynamo" else "")
            )
        ]
        if self.speculative:
            d = self.drafts if drafts is None else drafts
            emitted = speculative_tokens(d, self.acceptance, self.acceptance_deeper)
            parts.append(
                f"speculative decoding: {d} drafted token(s) per step, the first accepted at "
                f"{self.acceptance:.0%}, each later one at {self.acceptance_deeper:.0%}, "
                f"{emitted:.2f} tokens per step for "
                f"{(1 + d) * (1 + self.draft_cost):.2f} tokens of work (depths "
                f"{self.drafts}-{self.drafts_max} weighed, TensorRT-LLM's MTP recipes)"
            )
        return "; ".join(parts)


def kv_transfer_gb_per_s(rep: Replica, kv_bytes_per_prompt: float, batch: float) -> float:
    """GB/s of KV cache the prefill pool sends the decode replica at `batch`: one prompt's
    cache per prompt."""
    return rep.tokens_per_s(batch) / rep.osl * kv_bytes_per_prompt / 1e9
