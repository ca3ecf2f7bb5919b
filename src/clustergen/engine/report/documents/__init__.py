"""The bundle's documents: the memo and its appendix, the trade study, the summary, and the cost, cooling and workload sections."""
