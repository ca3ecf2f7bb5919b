"""Prompts for the common jobs an outside agent does with clustergen: a proposal for a customer, a
power-capped trade study, a workload sizing. Each is a user message naming the tools and
resources to use and the rule every figure follows: it comes from a tool result, never from the
model's memory."""

from __future__ import annotations

from dataclasses import dataclass

from mcp import types

from clustergen.errors import RequestError

_RULE = (
    "Quote every figure from a clustergen tool result or resource, never from memory; say what "
    "was assumed and what the request did not say."
)


@dataclass(frozen=True)
class _Prompt:
    name: str
    title: str
    description: str
    arguments: tuple[tuple[str, str, bool], ...]  # (name, description, required)
    template: str

    def listed(self) -> types.Prompt:
        return types.Prompt(
            name=self.name,
            title=self.title,
            description=self.description,
            arguments=[
                types.PromptArgument(name=n, description=d, required=r)
                for n, d, r in self.arguments
            ],
        )

    def render(self, arguments: dict[str, str]) -> types.GetPromptResult:
        missing = [n for n, _, r in self.arguments if r and not arguments.get(n)]
        if missing:
            raise RequestError(f"prompt {self.name} needs {', '.join(missing)}")
        unknown = sorted(set(arguments) - {n for n, _, _ in self.arguments})
        if unknown:
            raise RequestError(
                f"prompt {self.name} takes {', '.join(n for n, _, _ in self.arguments)}, "
                f"not {', '.join(unknown)}"
            )
        values = {n: arguments.get(n) or "not given" for n, _, _ in self.arguments}
        text = self.template.format(**values) + "\n\n" + _RULE
        return types.GetPromptResult(
            description=self.description,
            messages=[types.PromptMessage(role="user", content=types.TextContent(text=text))],
        )


PROMPTS = {
    p.name: p
    for p in (
        _Prompt(
            "customer_proposal",
            "Proposal for a customer",
            "A design proposal from a customer's request: memo, bill of materials, pictures.",
            (
                ("request", "the customer's request in plain words", True),
                ("customer", "who the proposal is for", False),
            ),
            "Prepare a GPU-cluster proposal from this request: {request}\n(customer: {customer})"
            "\n\n"
            "Call design_cluster with the request (add fields such as power_cap_w or platform "
            "only where the request states them). Read the brief, then read the design's "
            "memo.md, bom.csv (or bom.xlsx), topology.mmd, power.png and racks.png resources. "
            "Hand back the memo as the proposal, the BOM, and the pictures, with the verdict and "
            "every warning.",
        ),
        _Prompt(
            "power_capped_trade_study",
            "Trade study under a power cap",
            "Which platform and fabric give the most GPUs under a power cap, and why.",
            (
                ("power_cap_mw", "the cap in MW", True),
                ("workload", "training, fine-tuning, inference or mixed", False),
                ("constraints", "anything else: GPU, cooling, rack power", False),
            ),
            "Compare GPU-cluster options under a {power_cap_mw} MW power cap (workload: "
            "{workload}; constraints: {constraints}).\n\n"
            "Call design_cluster with power_cap_w set (1 MW = 1000000) and the other fields "
            "stated; read its design.json resource's alternatives (the trade study) for the "
            "rows beside the chosen one. For GPUs per MW and what moves the answer, call "
            "more_tools, then call_tool with sensitivity. Present a table of the options.",
        ),
        _Prompt(
            "workload_sizing",
            "Size a cluster for a workload",
            "GPUs, days or replicas for training or serving a language model, then a design.",
            (
                ("model", "the language model, e.g. 'Llama 3.1 70B' or 70B", True),
                ("goal", "e.g. '15T tokens in 60 days' or '20,000 output tokens/s'", True),
                ("gpu", "the GPU, if chosen", False),
            ),
            "Size a GPU cluster for {model}: {goal} (GPU: {gpu}).\n\n"
            "Call estimate_training or estimate_inference for the GPUs and time with the "
            "method and its error band, then design_cluster with the same model and target "
            "fields for the cluster around them.",
        ),
    )
}


def get(name: str, arguments: dict[str, str] | None) -> types.GetPromptResult:
    prompt = PROMPTS.get(name)
    if prompt is None:
        raise RequestError(f"no prompt {name!r}; the prompts are: {', '.join(PROMPTS)}")
    return prompt.render(dict(arguments or {}))
