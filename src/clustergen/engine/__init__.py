"""The sizing engine: pure functions from a request to a validated design.

Sub-packages by kind of function, each importing only those before it:
`model` (data) < `request` (text in) and `sizing` (forward models, one noun each) < `solve`
(what fits under a cap) < `assemble` (one design) < `search` (which design); `calculators` are the
other tools' engines and `report` renders a finished design.
"""
