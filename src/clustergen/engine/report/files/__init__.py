"""The bundle's data files: the BOM (CSV and workbook), the rack plan and NetBox files, the cable schedule."""
