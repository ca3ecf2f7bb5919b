"""A cluster built as pools: a training pool and a serving pool, each on its own terms."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

PoolRole = Literal["training", "serving"]


class Pool(BaseModel):
    """One pool of a mixed cluster: what it runs on, what it was sized for, what it draws."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    role: PoolRole
    platform: str = Field(description="system id of the pool's nodes")
    platform_name: str
    gpu: str = Field(description="GPU id")
    gpu_name: str = Field(description="the GPU's product name")
    gpus: int = Field(ge=1)
    nodes: int = Field(ge=1)
    fabric: str = Field(
        description="the pool's compute fabric in words ('non-blocking InfiniBand', or none for "
        "one node)"
    )
    oversubscription: float | None = Field(description="None: no scale-out fabric")
    it_power_w: float = Field(description="IT power of the pool; a lower bound unless complete")
    power_complete: bool
    racks: int = Field(ge=0, description="racks of the pool: compute and network")
    sized_for: str = Field(description="what the pool was sized for, in words")
