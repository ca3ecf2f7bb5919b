"""Serving: a model replica as a prefill/decode time model (`replica`), how it lays a model over
its GPUs (`experts`: tensor or expert parallelism), the replicas a target needs (`estimate`), and
the throughput-vs-interactivity table (`interactivity`)."""
