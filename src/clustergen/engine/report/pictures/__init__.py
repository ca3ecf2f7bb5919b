"""The bundle's pictures: the topology (SVG, PNG, draw.io, Mermaid), the page-width topology, the rack elevations and the charts."""
