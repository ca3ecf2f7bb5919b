"""Training: time, GPUs and GPU-hours from the model, the tokens and the GPU (`estimate`), the
smallest parallel layout that fits (`layout`), and what each training method costs (`method`)."""
